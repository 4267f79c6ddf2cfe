"""Memory > Records: every record of the organisation's stores with what happened to it, the
filter card (every filter in the address, so a link shows the same rows), pages of a hundred
that say where they are; and one record's page. Read-only: the console never changes or
deletes a record. Every page is audited with the ids it shows (api/records.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from memory_pipelines.api import access, accounts
from memory_pipelines.api import records as records_api
from memory_pipelines.core.listing import record_filters
from memory_pipelines.core.types import ItemVersion
from memory_pipelines.errors import ValidationError
from memory_pipelines.service.console.charts import decay_curve
from memory_pipelines.service.console.render import page, shown_or_refused
from memory_pipelines.service.console.session import PATH, Admin, Administrator, ConsoleError
from memory_pipelines.service.console.traces import conversation_url

router = APIRouter(prefix=PATH, include_in_schema=False)
LIST = "GET /console/records"
ONE = "GET /console/stores/{store}/records/{item_id}"
PAGE_SIZE = 100
STATES = (("current", "Current"), ("superseded", "Superseded"), ("archived", "Archived"))
# How the Read by card names the console's own pages (the API's endpoints as they are).
THROUGH = {
    LIST: "the Records list",
    ONE: "this record's page",
    "GET /console/commitments": "the Commitments list",
}
META_ROWS_BLANK = 2  # empty metadata rows under those in use, to add one


@dataclass(frozen=True)
class Query:
    """The Records filters as the address carries them (texts, as typed)."""

    index: str = ""
    state: str = "current"
    type: str = ""
    min: str = ""
    metadata: tuple[tuple[str, str], ...] = ()
    after: str = ""
    start: int = 1  # the row number of the page's first row (`from`)

    @classmethod
    def of(cls, request: Request) -> Query:
        q = request.query_params
        keys, values = q.getlist("mk"), q.getlist("mv")
        pairs = tuple(
            (k.strip(), values[n] if n < len(values) else "")
            for n, k in enumerate(keys)
            if k.strip()  # a row without a key is ignored
        )
        start = q.get("from", "1")
        return cls(
            index=q.get("index", "").strip(),
            state=(q.get("state", "") or "current").strip().lower(),
            type=q.get("type", "").strip(),
            min=q.get("min", "").strip(),
            metadata=pairs,
            after=q.get("after", "").strip(),
            start=int(start) if start.isdigit() and 0 < int(start) < 10**9 else 1,
        )

    def params(self, *, paging: bool = True) -> list[tuple[str, str]]:
        """The filters as query parameters: only those set, in a fixed order."""
        out = [("index", self.index)] if self.index else []
        if self.state != "current":
            out.append(("state", self.state))
        out += [(k, v) for k, v in (("type", self.type), ("min", self.min)) if v]
        for key, value in self.metadata:
            out += [("mk", key), ("mv", value)]
        if paging and self.after:
            out += [("after", self.after), ("from", str(self.start))]
        return out

    def url(self, **changes: Any) -> str:
        q = Query(**{**self.__dict__, **changes})
        text = urlencode(q.params())
        return f"{PATH}/records" + (f"?{text}" if text else "")

    @property
    def filtered(self) -> bool:
        """Whether anything narrows the list beyond where the console starts."""
        return bool(self.params(paging=False))


def _minimum(text: str) -> Any:
    try:
        return float(text) if text else None
    except ValueError:
        return text  # refused by the filters' own check, which names it


def _canonical(request: Request, query: Query) -> str | None:
    """The address of these filters with nothing empty in it, when it differs (a form sends
    its empty rows), so that the address a person copies is the short one."""
    # compared as parameters, not as text: an address encoded otherwise is the same address
    sent = parse_qsl(request.url.query, keep_blank_values=True)
    return query.url() if sent != query.params() else None


@router.get("/records")
def records(request: Request, who: Administrator) -> Response:
    """The Records list: a hundred rows a page, newest change first, audited with their ids."""
    query = Query.of(request)
    again = _canonical(request, query)
    if again is not None:
        return RedirectResponse(again, status_code=303)
    with shown_or_refused():
        readers = access.readers_for(who.db, who.principal, "read_memory")
    indexes = sorted(readers)
    context: dict[str, Any] = {
        "session": who.session,
        "segment": "records",
        "q": query,
        "indexes": indexes,
        "states": STATES,
        "meta_rows": [*query.metadata, *[("", "")] * META_ROWS_BLANK],
        "clear_url": f"{PATH}/records",
    }
    if query.index and query.index not in readers:
        raise ConsoleError(404, "Not found", f"store {query.index!r} does not exist")
    try:
        filters = record_filters(
            store=query.index or None,
            state=query.state,
            type=query.type or None,
            min_confidence=_minimum(query.min),
            metadata=list(query.metadata),
            limit=PAGE_SIZE,
            after=query.after or None,
        )
    except ValidationError as exc:
        field = {"min_confidence": "min"}.get(exc.field, exc.field.split("[")[0])
        # a damaged page position (the cursor) is no filter of the card: say so, with the
        # same filters from the first page
        restart = query.url(after="", start=1) if field == "after" else ""
        errors = {field: exc.message}
        return page(request, "records.html", 422, errors=errors, restart_url=restart, **context)
    with shown_or_refused():
        result = records_api.list_records(who.db, who.principal, readers, filters, endpoint=LIST)
        empty = _empty_message(who, readers, query) if result.total == 0 else ""
    shown = len(result.records)
    # the position the address gives (`from`) is shown only while it fits what is read: an
    # address typed or kept from before can say anything ("rows 9,000-9,014 of 115")
    fits = query.start + shown - 1 <= result.total
    known_start = not query.after or (query.start > 1 and fits)
    # Content: the start of the text; structured content (a JSON body) as JSON
    as_json = {
        r.item_id: json.dumps(value, ensure_ascii=False)
        for r in result.records
        if (value := structured(r.body)) is not None
    }
    return page(
        request,
        "records.html",
        records=result.records,
        as_json=as_json,
        total=result.total,
        first=query.start if known_start else None,
        last=query.start + shown - 1 if known_start else None,
        next_url=query.url(after=result.next, start=query.start + shown) if result.next else "",
        first_url=query.url(after="", start=1) if query.after else "",
        empty=empty,
        now=datetime.now(UTC),
        **context,
    )


def _empty_message(who: Admin, readers: dict[str, Any], query: Query) -> str:
    """Which of the spec's messages an empty list gets: nothing in the organisation, nothing in
    the index chosen, or filters that match nothing."""
    if not records_api.any_record(who.db, readers):
        return (
            "Nothing remembered yet: no application or model has written memory in this"
            " organisation."
        )
    if query.index and not records_api.any_record(who.db, {query.index: readers[query.index]}):
        return "Nothing remembered in an index: pick another index, or All indexes."
    return "No record found: your filters match nothing; select Clear filters."


def structured(body: str) -> Any:
    """A body holding a JSON object or list, parsed (the page shows it as JSON); else None."""
    text = body.strip()
    if not text or text[0] not in "{[":
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


@dataclass(frozen=True)
class Version:
    """One version of a fact on the History card: a record of its chain, as its latest
    snapshot has it, with the changes that made it."""

    item_id: int
    snapshot: Any
    changes: list[Any]
    # Earlier wordings of this record, oldest first: a merge that took a fuller wording
    # changed its text in place, and the old one stays readable here.
    earlier: list[ItemVersion]


def history(versions: list[ItemVersion]) -> list[Version]:
    """The versions of a fact, one per record, in the order each first appeared (the chain's
    rows come oldest first), each with its last snapshot and the wordings it had before."""
    by_item: dict[int, list[ItemVersion]] = {}
    for v in versions:
        by_item.setdefault(v.item_id, []).append(v)
    out = []
    for i, vs in by_item.items():
        last = vs[-1].snapshot.context
        earlier: list[ItemVersion] = []
        for v in vs[:-1]:
            said = v.snapshot.context
            if said != last and all(said != e.snapshot.context for e in earlier):
                earlier.append(v)
        out.append(Version(i, vs[-1].snapshot, vs, earlier))
    return out


@router.get("/stores/{store_id}/records/{item_id}")
def record(request: Request, store_id: str, item_id: str, who: Administrator) -> Response:
    """One record: its content, facts, life, History and Trust and origin, its confidence as
    stored and as read today, and who read it. Audited with every id the page shows."""
    if not item_id.isdigit() or not 0 < int(item_id) < 2**63:
        raise ConsoleError(404, "Not found", f"there is no record {item_id!r}")
    with shown_or_refused():
        [reader] = access.readers_for(who.db, who.principal, "read_memory", store_id).values()
        view = records_api.record_page(
            who.db, who.principal, store_id, int(item_id), reader, endpoint=ONE
        )
    r = view.life.record
    now = datetime.now(UTC)
    names = {a["account_id"]: a["name"] for a in accounts.list_admins(who.db, who.session.org_id)}
    return page(
        request,
        "record.html",
        session=who.session,
        segment="records",
        view=view,
        r=r,
        history=history(view.history),
        body_json=structured(r.body),
        named={n.item_id: n for n in view.named},
        curve=decay_curve(r.confidence, r.updated_at, view.half_life_days, now),
        admins=names,
        readers_through=THROUGH,
        now=now,
        conversation_url=(
            conversation_url(store_id, r.chat_id, marked=(r.from_seq, r.to_seq))
            if r.chat_id is not None
            else ""
        ),
    )
