"""The command line: --help on every subcommand, and a round trip through the store."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from memory_pipelines.cli import main
from memory_pipelines.cli_eval import HELD_OUT


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, cmd in group.commands.items():
        out.append((*prefix, name))
        if isinstance(cmd, click.Group):
            out += _commands(cmd, (*prefix, name))
    return out


def test_every_subcommand_has_help() -> None:
    runner = CliRunner()
    names = _commands(main)
    assert {
        ("init",),
        ("ingest",),
        ("save",),
        ("search",),
        ("items",),
        ("history",),
        ("delete",),
        ("demo",),
        ("dev",),
        ("eval", "locomo"),
    } <= set(names)
    for path in names:
        res = runner.invoke(main, [*path, "--help"])
        assert res.exit_code == 0, (path, res.output)
        assert "Usage:" in res.output


def test_save_search_items_history_delete(pg_dsn: str, tmp_path: Path) -> None:
    runner = CliRunner()
    store = f"cli-{uuid.uuid4().hex[:8]}"
    saved = runner.invoke(
        main,
        [
            "save",
            "-s",
            store,
            "--category",
            "preference",
            "--context",
            "Wants invoices as PDF, never Word",
            "--confidence",
            "8",
        ],
    )
    assert saved.exit_code == 0, saved.output
    item = json.loads(saved.stdout)["id"]
    bad = runner.invoke(
        main,
        ["save", "-s", store, "--category", "preference", "--context", "x", "--confidence", "12"],
    )
    assert bad.exit_code == 2 and "confidence" in bad.output
    mails = tmp_path / "mails.jsonl"
    mails.write_text(
        json.dumps(
            {"id": "m1", "subject": "Invoice format", "body": "Please send invoices as PDF files."}
        )
        + "\n"
    )
    assert (
        runner.invoke(main, ["ingest-docs", str(mails), "-s", store, "--kind", "email"]).exit_code
        == 0
    )
    found = runner.invoke(
        main, ["search", "invoice format", "-s", store, "--scope", "agent", "--scope", "email"]
    )
    assert "Wants invoices as PDF" in found.output and "email" in found.output
    listed = runner.invoke(main, ["items", "-s", store])
    assert "1 items" in listed.output
    hist = runner.invoke(main, ["history", str(item), "-s", store])
    assert "create" in hist.output
    gone = runner.invoke(main, ["delete", str(item), "-s", store, "--actor", "test", "--yes"])
    assert gone.exit_code == 0 and "deleted" in gone.output


def test_persons_added_and_listed(pg_dsn: str) -> None:
    runner = CliRunner()
    store = f"cli-{uuid.uuid4().hex[:8]}"
    missing = runner.invoke(main, ["persons", "add", "-s", store, "maya"])
    assert missing.exit_code != 0 and "does not exist" in missing.output  # no store made
    assert runner.invoke(main, ["init", "-s", store]).exit_code == 0
    refused = runner.invoke(
        main, ["save", "-s", store, "--category", "fact", "--context", "Maya runs", "--person",
               "maya"]
    )  # fmt: skip
    assert refused.exit_code != 0 and "person" in refused.output
    for args in (["maya", "--name", "Maya Ruiz"], ["tom"], ["maya"]):  # again: name kept
        added = runner.invoke(main, ["persons", "add", "-s", store, *args])
        assert added.exit_code == 0, added.output
    listed = runner.invoke(main, ["persons", "list", "-s", store])
    assert listed.stdout.splitlines() == ["maya\tMaya Ruiz", "tom"]
    saved = runner.invoke(
        main, ["save", "-s", store, "--category", "fact", "--context", "Maya runs on Sundays",
               "--person", "maya"]
    )  # fmt: skip
    assert saved.exit_code == 0 and json.loads(saved.stdout)["saved"] is True, saved.output


def test_eval_policy_scores_each_case_file_on_its_own(tmp_path: Path) -> None:
    def case(cid: str, text: str, label: str, category: str | None) -> str:
        turn = {"role": "user", "text": text}
        row = {"id": cid, "turn": turn, "recent": [], "label": label, "category": category}
        return json.dumps(row) + "\n"

    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(case("a1", "My son is allergic to kiwi.", "save", "fact"), encoding="utf-8")
    b.write_text(
        case("b1", "Morning!", "skip", None) + case("b2", "Morning!", "save", "fact"),
        encoding="utf-8",
    )
    runner = CliRunner()
    one = runner.invoke(main, ["eval", "policy", "--cases", str(a)])
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout)["accuracy"] == 1.0
    both = runner.invoke(main, ["eval", "policy", "--cases", str(a), "--cases", str(b)])
    assert both.exit_code == 0, both.output
    report = json.loads(both.stdout)
    assert report["accuracy"] == {"a": 1.0, "b": 0.5}  # b2 is deliberately mislabelled
    assert report["sets"]["b"]["misses"] == ["b2"]


@pytest.mark.parametrize("suffix", HELD_OUT)
def test_a_held_out_sets_failing_cases_are_not_named(tmp_path: Path, suffix: str) -> None:
    """A set named *_g or *_k is held out: its report counts its misses and names none."""
    row = {"id": "c1", "turn": {"role": "user", "text": "Morning!"}, "recent": []}
    held, dev = tmp_path / f"policy{suffix}.jsonl", tmp_path / "policy_dev.jsonl"
    held.write_text(json.dumps({**row, "label": "save", "category": "fact"}) + "\n", "utf-8")
    dev.write_text(json.dumps({**row, "id": "d1", "label": "save", "category": "fact"}) + "\n")
    out = CliRunner().invoke(main, ["eval", "policy", "--cases", str(held), "--cases", str(dev)])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["accuracy"] == {f"policy{suffix}": 0.0, "policy_dev": 0.0}
    assert report["sets"][f"policy{suffix}"]["misses"] == 1 and "c1" not in out.stdout
    assert report["sets"]["policy_dev"]["misses"] == ["d1"]


def test_a_fact_saved_twice_from_the_command_line_is_merged_unless_told_not_to(
    pg_dsn: str,
) -> None:
    runner = CliRunner()
    store = f"cli-{uuid.uuid4().hex[:8]}"
    said = ["save", "-s", store, "--category", "preference", "--confidence", "8", "--context"]
    first = runner.invoke(main, [*said, "Wants invoices as PDF, never as Word files"])
    again = runner.invoke(main, [*said, "Wants invoices as PDF, never Word"])
    assert first.exit_code == 0 and again.exit_code == 0, again.output
    kept = json.loads(again.stdout)
    assert kept["deduplicated"] is True and kept["mergedInto"] == json.loads(first.stdout)["id"]
    forced = runner.invoke(main, [*said, "Wants invoices as PDF, never Word", "--no-dedup"])
    assert json.loads(forced.stdout)["saved"] is True
    assert "2 items" in runner.invoke(main, ["items", "-s", store]).output


def test_a_saves_json_confidence_is_kept_and_checked(pg_dsn: str) -> None:
    """--json's confidence was overwritten by --confidence's default (5), and a word there
    ("high") was never checked (an operations audit)."""
    runner = CliRunner()
    store = f"cli-{uuid.uuid4().hex[:8]}"
    said = ["save", "-s", store, "--category", "fact", "--no-dedup", "--context"]
    kept = runner.invoke(main, [*said, "The importer runs at 2am", "--json", '{"confidence": 9}'])
    assert kept.exit_code == 0, kept.output
    assert json.loads(kept.stdout)["item"]["confidence"] == 9
    word = runner.invoke(
        main, [*said, "The export runs at 3am", "--json", '{"confidence": "high"}']
    )
    assert word.exit_code == 2 and "confidence" in word.output
    both = runner.invoke(
        main, [*said, "The backup runs at 4am", "--confidence", "7", "--json", '{"confidence": 9}']
    )
    assert both.exit_code == 2 and "--confidence" in both.output
    plain = runner.invoke(main, [*said, "The backup runs at 4am"])
    assert json.loads(plain.stdout)["item"]["confidence"] == 5
    assert "2 items" in runner.invoke(main, ["items", "-s", store]).output  # nothing refused wrote


def test_a_negative_event_id_names_the_option() -> None:
    """`feed --after -3` was refused naming `after_id`, no option of the command's."""
    out = CliRunner().invoke(main, ["feed", "-s", "any", "--after", "-3"])
    assert out.exit_code == 2 and "--after" in out.output and "after_id" not in out.output


@pytest.mark.parametrize("command", ["serve", "dev"])
def test_a_port_outside_tcps_range_is_refused(command: str) -> None:
    """`serve --port 99999` logged 99999 and listened on 34463 (an operations audit). Read
    off the option, not by starting a server that a regression would leave running."""
    [port] = [p for p in main.commands[command].params if p.name == "port"]
    ctx = click.Context(main.commands[command])
    assert port.type.convert("8080", port, ctx) == 8080
    with pytest.raises(click.BadParameter, match="65535"):
        port.type.convert("99999", port, ctx)


def test_an_interrupted_ingest_says_what_was_written_and_how_to_resume(
    pg_dsn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during an ingest said only "Aborted!" (an operations audit). The interrupt is
    raised where the real ingest reports its progress, after its first batch."""
    from memory_pipelines.api import ingest as ingest_api

    real = ingest_api.ingest_chats

    def interrupted(memory: Any, chats: Any, progress: Any) -> Any:
        def once(n: int) -> None:
            progress(n)
            raise KeyboardInterrupt

        return real(memory, chats, progress=once)

    monkeypatch.setattr(ingest_api, "ingest_chats", interrupted)
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        "".join(json.dumps({"chat": f"c{i}", "text": f"hello {i}"}) + "\n" for i in range(3))
    )
    store = f"cli-{uuid.uuid4().hex[:8]}"
    out = CliRunner().invoke(main, ["ingest", str(turns), "-s", store])
    assert out.exit_code == 1, out.output
    assert "interrupted after 1 of 3 turns" in out.output and "again to resume" in out.output


def test_the_demo_asks_a_question_of_any_file() -> None:
    """A LoCoMo file without questions ended `demo` with an IndexError after the pipeline ran
    (a new user's probe)."""
    from memory_pipelines.cli_demo import first_question

    assert first_question([{"qa": []}, {"qa": [{"question": "Where did Ana move?"}]}]) == (
        "Where did Ana move?"
    )
    assert first_question([{"conversation": {}}]) == first_question([]) == "what did we decide?"


def test_run_runs_the_pipeline_once_over_a_store(pg_dsn: str) -> None:
    """No command ran the pipeline over a store of one's own (two audits looked for one):
    `run -s STORE` does, every asset through Dagster (it ran the extraction path alone, a spec
    audit: no history summary was made), and says what the pass did; an unknown store runs
    nothing."""
    from memory_pipelines.api import Memory

    store = f"cli-{uuid.uuid4().hex[:8]}"
    Memory(store).write_turns(  # said long ago: the conversation is quiet
        "c",
        [
            {"speaker": s, "text": t, "created_at": "2023-05-08T13:56:00Z"}
            for s, t in [
                ("Ana", "I moved to Porto last month for a job at a bakery."),
                ("Ben", "That's great news, congratulations!"),
            ]
            * 5  # ten turns: a complete batch for the history pyramid
        ],
    )
    out = CliRunner().invoke(main, ["run", "-s", store])
    assert out.exit_code == 0, out.output
    assert "1 windows read" in out.output and "1 written" in out.output, out.output
    assert "1 history summaries" in out.output, out.output
    assert "ran the pipeline over 1 stores" in out.output
    assert "Porto" in Memory(store).items()[0].context
    unknown = CliRunner().invoke(main, ["run", "-s", store, "-s", "no-such-store"])
    assert unknown.exit_code != 0 and "no-such-store" in unknown.output
    assert "windows read" not in unknown.output


def test_sql_opens_the_embedded_servers_own_psql_without_a_client_on_path(
    pg_dsn: str, tmp_path: Path
) -> None:
    """`sql` worked only where a PostgreSQL client was installed (a new machine has none: a
    fresh-machine run); the embedded server comes with its own psql, used when none is on
    PATH."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "MEMORY_PG_DSN": pg_dsn, "PATH": str(tmp_path)}  # no psql on PATH
    cmd = [sys.executable, "-m", "memory_pipelines.cli", "sql", "-At", "-c", "SELECT 40 + 2"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)  # noqa: S603
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"


def test_history_finds_the_items_store_and_delete_needs_it_named(pg_dsn: str) -> None:
    """`history ITEM`, as the README writes it, looked in the store `default` only and said
    the item did not exist (a fresh-machine run); ids are unique across stores, so the item's
    own store is used unless --store says which. `delete` names the store the item is in."""
    from memory_pipelines.api import Memory

    store = f"cli-{uuid.uuid4().hex[:8]}"
    item = Memory(store).save({"category": "fact", "context": "The boiler was serviced in May."})
    out = CliRunner().invoke(main, ["history", str(item.id)])
    assert out.exit_code == 0 and "The boiler was serviced in May." in out.output, out.output
    # delete needs the store named: a mistyped id never deletes another store's item (a review)
    out = CliRunner().invoke(main, ["delete", str(item.id), "--actor", "ops", "--yes"])
    assert out.exit_code != 0 and "--store" in out.output, out.output
    other = f"cli-{uuid.uuid4().hex[:8]}"
    Memory(other).save({"category": "fact", "context": "The gate code changed in June."})
    wrong = ["delete", str(item.id), "-s", other, "--actor", "ops", "--yes"]
    out = CliRunner().invoke(main, wrong)
    assert out.exit_code != 0 and f"is in store {store!r}, not {other!r}" in out.output
    assert Memory(store).get(item.id).state == "current"
    out = CliRunner().invoke(main, ["delete", str(item.id), "-s", store, "--actor", "ops", "--yes"])
    assert out.exit_code == 0 and f"of store {store!r}" in out.output, out.output
    out = CliRunner().invoke(main, ["history", str(item.id)])
    assert out.exit_code != 0 and f"memory item {item.id} does not exist" in out.output
