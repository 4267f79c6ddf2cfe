"""The SQL text of a search: per kind of record, what its rows are, who may read them and the
fields ranking reads (`KINDS`), and the one statement that brings a kind's candidates with
those fields (`statement`). store/search.py runs them."""

from __future__ import annotations

from dataclasses import dataclass

from memory_pipelines.store.turns import PREV_WEIGHT
from memory_pipelines.store.visibility import VISIBLE_CHATS


def _consumes(job: str) -> str:
    """SQL: whether ranking consumes a gated job's fields. By default (%(consume)s NULL) only
    while job_activations says the job is active for the store; an evaluation passes the list
    of jobs to measure with and without them. `job` is a fixed name from this module."""
    return (
        f"(CASE WHEN %(consume)s::text[] IS NULL THEN EXISTS (SELECT 1 FROM job_activations ja"
        f" WHERE ja.store_id = %(store)s AND ja.job = '{job}' AND ja.active)"
        f" ELSE '{job}' = ANY(%(consume)s::text[]) END)"
    )


def _says_when(column: str) -> str:
    """SQL: whether a text says when, tested only for a question that asks when (%(when)s;
    core/question_times.SAYS_WHEN_SQL, passed as %(when_rx)s), and only for a text holding one
    of the words every text it matches holds (SAYS_WHEN_WORDS, as LIKE patterns in
    %(when_words)s): the same answer, and the regular expression, ~17 us a text, runs for a
    few candidates instead of all."""
    return (
        f"(%(when)s AND lower({column}) LIKE ANY (%(when_words)s::text[])"
        f" AND {column} ~* %(when_rx)s)"
    )


def _asks(column: str) -> str:
    """SQL: whether a text asks rather than tells: it ends with a question mark, but for a
    trailing attachment in brackets (an image caption, "[image: ...]")."""
    return rf"({column} ~ '\?\s*(\[[^]]*\]\s*)?$')"


@dataclass(frozen=True)
class Kind:
    table: str
    id: str
    # The store's rows this caller may read. Items: current ones, the person's or shared (a
    # person's records reach only that person's recalls); reflection's insights only once it
    # is active. Turns and chunks: those of the shared chats and the person's own.
    visible: str
    bm25: str  # the BM25 index (migration 012) over `words`
    words: str  # the column it holds
    tsv_length: str  # a row's length for the SQL BM25 (without pg_textsearch)
    named: str = "0"  # how many entities of the question a row names (the graph's signal)
    graph: str = ""  # rows naming one, as a filter; "" for kinds without a graph
    graph_exact: str = ""  # the same, narrowed by an index for the exact scan
    # The record's time (`at` for ranking), for the candidates of a time the question names
    # (an index on (store_id, it) narrows the exact scan); "" for kinds that have none
    dated: str = ""
    extra: str = ""  # fields for ranking beyond lexical, cosine and named


KINDS: dict[str, Kind] = {
    "item": Kind(
        "agent_memory_items",
        "item_id",
        "state = 'current' AND (person_id IS NULL OR person_id = %(person)s)"
        f" AND (category <> 'insight' OR {_consumes('reflection')})",
        "items_words_bm25",
        "words",
        "length(tsv)",
        named="cardinality(ARRAY(SELECT unnest(r.entities)"
        " INTERSECT SELECT unnest(%(names)s::text[])))",
        graph="entities && %(names)s::text[]",
        graph_exact="entities && %(names)s::text[]",
        dated="valid_from",
        # confidence and decay salience (recorded whenever decay runs, consumed only while
        # decay is active for the store)
        extra=", r.confidence,"
        f" CASE WHEN {_consumes('decay')} THEN (SELECT salience FROM item_scores sc"
        " WHERE sc.item_id = r.item_id) END AS salience,"
        f" {_asks('r.context')} AS asks, {_says_when('r.context')} AS says_when",
    ),
    "turn": Kind(
        "turns",
        "turn_id",
        f"embedding IS NOT NULL AND chat_id IN ({VISIBLE_CHATS})",
        "turns_words_bm25",
        "words",
        "doc_len",
        # A turn names a person of the question when that person speaks it.
        named="(r.speaker = ANY(%(names)s::text[]))::int",
        graph="speaker = ANY(%(names)s::text[])",
        graph_exact="lower(speaker) = ANY(%(lower_names)s::text[])"
        " AND speaker = ANY(%(names)s::text[])",
        dated="created_at",
        extra=f", {_asks('r.text')} AS asks, r.chat_id, r.seq AS from_seq, r.seq AS to_seq,"
        f" {_says_when('r.text')} AS says_when",
    ),
    "chunk": Kind(
        "chunks",
        "chunk_id",
        f"chat_id IN ({VISIBLE_CHATS})",
        "chunks_summary_bm25",
        "summary",
        "length(tsv)",
        extra=", r.chat_id, r.from_seq, r.to_seq, r.level",
    ),
    "document": Kind(
        "documents",
        "passage_id",
        "kind = 'basic' AND (person_id IS NULL OR person_id = %(person)s)",
        "documents_words_bm25",
        "words",
        "length(tsv)",
    ),
    "email": Kind(
        "documents",
        "passage_id",
        "kind = 'email' AND (person_id IS NULL OR person_id = %(person)s)",
        "documents_words_bm25",
        "words",
        "length(tsv)",
        dated="created_at",  # an email's: when it was sent
    ),
}


# BM25 parameters: Anserini's defaults for short documents (the BM25 indexes use the same).
K1 = 0.9
B = 0.4
# Turns further apart than this are not one exchange: a turn's context is its neighbours
# (seq - 1, seq + 1) in the same chat written within this time of it.
SESSION_GAP = "6 hours"
# An HNSW scan with a filter (pgvector 0.8's iterative scan) visits at most this many rows of
# the index (every store's) before it gives up; pgvector's default is 20,000. Each visited row
# is read from the table to test the filter: at a million turns, the nearest turns of a speaker
# with a tenth of them took up to 131 ms to find at the default. A scan that gives up is
# followed by the exact scan (see _nearest). Search p95 at a million turns, the same questions
# in one process: 98 ms at 20,000, 80 at 5,000, 62 at 2,000, 56 at 1,000; the top 10 changed
# for 9 questions in 200 between 2,000 and 1,000. Lower also sends a filter that a few
# percent of the store pass (a person's chats) to the exact scan sooner.
MAX_SCAN_TUPLES = 2000


def _nearest(
    k: Kind, name: str, where: str = "", exact_where: str = "", small: bool = False
) -> str:
    """CTEs: the `depth` visible rows nearest the query among those passing `where`, from the
    HNSW index; when it gives fewer (few such rows among many others, or pgvector < 0.8, which
    stops early), the exact scan over those rows (`exact_where`: the same rows, narrowed by an
    index), which are then few, or the server is old.

    With a `where` (the graph's rows naming an entity of the question), the exact scan runs
    only while those rows the reader may see (the rows it would read) number at most
    MAX_SCAN_TUPLES, so what another person's chats hold never decides it: more of them, and the
    scan that gave up had visited that many nearer rows without finding enough, so the rest
    are far from the question, and reading them all (100k turns of one speaker at a million)
    would cost seconds."""
    base = f"FROM {k.table} WHERE store_id = %(store)s AND {k.visible}"
    if small:
        # A store this small is read exactly (its rows by the store_id index, a cosine each:
        # ~1 ms for 2,000); the HNSW index is the whole table's, and beside big stores its
        # scan visits MAX_SCAN_TUPLES of theirs before it gives up and the exact scan runs.
        return f"""
    {name} AS MATERIALIZED (
        SELECT {k.id} AS id {base}{exact_where or where}
         ORDER BY (embedding <=> %(e)s) + 0 LIMIT %(depth)s),"""
    few = ""
    if where:
        few = (
            f" AND (SELECT count(*) FROM (SELECT 1 {base}{exact_where or where}"
            f" LIMIT {MAX_SCAN_TUPLES + 1}) AS f) <= {MAX_SCAN_TUPLES}"
        )
    return f"""
    {name}_idx AS MATERIALIZED (
        SELECT {k.id} AS id {base}{where} ORDER BY embedding <=> %(e)s LIMIT %(depth)s),
    {name} AS MATERIALIZED (
        SELECT id FROM {name}_idx
        UNION (SELECT {k.id} {base}{exact_where or where}
                  AND (SELECT count(*) FROM {name}_idx) < %(depth)s{few}
               ORDER BY (embedding <=> %(e)s) + 0 LIMIT %(depth)s)),"""


def _bm25(k: Kind, rows: str) -> str:
    """CTEs `stats`, `matches`, `df` and `bm25` (id, score): BM25 of the question's words (CTE
    `q`) over `rows` (a FROM ... WHERE clause of the kind's table), with the statistics of
    those rows: the store's rows the caller may read, or the candidates themselves.

    A turn's words include the turn before it at weight B, counting PREV_WEIGHT (see
    store/turns.py). A row's counts of the question's words: its tsvector cut down to those
    words in C (setweight marks them with a weight no column uses, ts_filter keeps them), so
    only they are unnested. 7.1 -> 5.1 ms for 409 matching turns against unnesting every word
    of each row. A turn's cut keeps its weights (ts_delete of the row's other words), so one
    unnest gives both shares, the turn before's being its B positions: a subquery that summed
    two unnests per row cost 10.6 / 17.8 ms (p50 / p95 over 200 LoCoMo questions, the matches
    alone) against 9.9 / 13.5, the same counts for every row."""
    ours = "ts_filter(setweight({}, 'c', q.lexemes), '{{c}}')"
    tf = f"SELECT lexeme, cardinality(positions) AS tf FROM unnest({ours.format('m.tsv')})"
    if k.table == "turns":
        cut = "ts_delete(m.tsv, tsvector_to_array(ts_delete(m.tsv, q.lexemes)))"
        tf = (
            f"SELECT lexeme, cardinality(positions)"
            f" + {PREV_WEIGHT - 1} * cardinality(array_positions(weights, 'B')) AS tf"
            f" FROM unnest({cut}) WHERE positions IS NOT NULL"
        )
    return f"""
    stats AS MATERIALIZED (
        SELECT count(*)::float AS n, greatest(avg({k.tsv_length}), 1) AS avgdl {rows}),
    matches AS MATERIALIZED (
        SELECT m.id, m.dl, t.lexeme, t.tf
          FROM (SELECT {k.id} AS id, tsv, {k.tsv_length} AS dl {rows}
                   AND tsv @@ (SELECT tsq FROM q)) AS m CROSS JOIN q,
               LATERAL ({tf}) AS t),
    df AS MATERIALIZED (SELECT lexeme, count(*)::float AS df FROM matches GROUP BY lexeme),
    bm25 AS MATERIALIZED (
        SELECT m.id, sum(ln(1 + (s.n - df.df + 0.5) / (df.df + 0.5))
                         * m.tf * ({K1} + 1) / (m.tf + {K1} * (1 - {B} + {B} * m.dl / s.avgdl)))
               AS score
          FROM matches m JOIN df USING (lexeme) CROSS JOIN stats s GROUP BY m.id),"""


def statement(
    kind: str, index_words: bool, graph: bool, dated: bool = False, small: bool = False
) -> str:
    """A kind's candidates (see store.search.candidates): the nearest, the best by words
    (`index_words`: from the BM25 index's rows passed in; else BM25 in SQL), the nearest naming
    an entity of the question (`graph`) and the nearest within the time it names (`dated`:
    %(t0)s to %(t1)s), with what ranking needs of each."""
    k = KINDS[kind]
    base = f"FROM {k.table} WHERE store_id = %(store)s AND {k.visible}"
    ctes = _nearest(k, "near", small=small)
    if graph and k.graph:
        ctes += _nearest(k, "graph", f" AND {k.graph}", f" AND {k.graph_exact}", small)
    if dated and k.dated:
        window = f" AND {k.dated} >= %(t0)s AND {k.dated} < %(t1)s"
        ctes += _nearest(k, "dated", window, small=small)
    ctes += f"""
    q AS MATERIALIZED (
        SELECT ({_OR_QUERY}) AS tsq, coalesce(array_agg(DISTINCT lexeme), '{{}}') AS lexemes
          FROM unnest(to_tsvector('english', %(q)s))),"""
    if index_words:
        # The BM25 index's candidates come as a parameter (`words_statement`, run while the
        # query is embedded): their ids. Their words are ranked below, with the others'.
        ctes += """
    lex AS MATERIALIZED (SELECT id FROM unnest(%(lex_id)s::bigint[]) AS l(id)),"""
    else:
        # BM25 in SQL over every visible row matching a word of the query.
        ctes += f"""{_bm25(k, base)}
    lex AS MATERIALIZED (SELECT id FROM bm25 ORDER BY score DESC, id LIMIT %(depth)s),"""
    union = "SELECT id FROM near UNION SELECT id FROM lex"
    if graph and k.graph:
        union += " UNION SELECT id FROM graph"
    if dated and k.dated:
        union += " UNION SELECT id FROM dated"
    joins, fields = "", f"{k.named} AS named{k.extra}"
    if k.dated:
        fields += f", r.{k.dated} AS at"
    if kind == "turn":
        # The turn before and after in the same chat: their cosine, when within SESSION_GAP,
        # is the turn's context (core/ranking.py); the words of the turn before count too.
        gap = f"interval '{SESSION_GAP}'"
        joins = (
            " LEFT JOIN turns p ON p.chat_id = r.chat_id AND p.seq = r.seq - 1"
            " LEFT JOIN turns x ON x.chat_id = r.chat_id AND x.seq = r.seq + 1"
        )
        fields += "".join(
            f"{op} coalesce(CASE WHEN {n}.created_at BETWEEN r.created_at - {gap}"
            f" AND r.created_at + {gap} THEN 1 - ({n}.embedding <=> %(e)s) END, 0)"
            for op, n in ((", ", "p"), (" + ", "x"))
        )
        fields += " AS context"
        if index_words:
            # A reply is found by the question it answers: the turn after each match too.
            union += (
                " UNION SELECT x.turn_id FROM lex JOIN turns t ON t.turn_id = lex.id"
                " JOIN turns x ON x.chat_id = t.chat_id AND x.seq = t.seq + 1"
                " WHERE x.embedding IS NOT NULL"
            )
    joins += " LEFT JOIN bm25 USING (id)"
    pool = ""
    if index_words:
        # The candidates' words are ranked with the statistics of the candidates themselves,
        # every one a row the caller may read. The index's own scores use the statistics of
        # the whole table, every person's and every store's rows: a reader's scores moved with
        # how often another person's hidden turns used a word.
        among = f"FROM {k.table} JOIN pool ON pool_id = {k.id} WHERE true"
        pool = f"""
    pool AS MATERIALIZED (SELECT id AS pool_id FROM cands),{_bm25(k, among)}"""
    return f"""
    WITH {ctes.strip().rstrip(",")},
    cands AS ({union}),{pool}
    scored AS MATERIALIZED (
        SELECT c.id, {fields}, coalesce(bm25.score, 0) AS bm25,
               1 - (r.embedding <=> %(e)s) AS cos
          FROM cands c JOIN {k.table} r ON r.{k.id} = c.id{joins})
    SELECT s.*, coalesce(s.bm25 / nullif(max(s.bm25) OVER (), 0), 0) AS lexical
      FROM scored s WHERE s.cos IS NOT NULL
    """  # noqa: S608 - table and column names come from the closed KINDS table


def words_statement(kind: str) -> str:
    """A kind's candidates by words from its BM25 index (pg_textsearch, migration 012): the
    index's top `depth` rows the caller may read, with their scores (negative: the index's
    order). It needs no vector, so a search runs it while its query is embedded, and passes
    the ids to `statement` (%(lex_id)s), which ranks their words with the candidates' own
    statistics.

    Selecting the expression the scan is ordered by reads the score the index computed
    (pg_textsearch's planner hook), where scoring the row again costs tens of microseconds. A
    filtered BM25 scan re-scores deeper until enough rows pass, up to 100k: a store that small
    a part of the table falls back to scoring the rows of the store that match a word (the GIN
    index)."""
    k = KINDS[kind]
    base = f"FROM {k.table} WHERE store_id = %(store)s AND {k.visible}"
    score = f"{k.words} <@> to_bm25query(%(q)s, '{k.bm25}')"
    return f"""
    WITH lex_idx AS MATERIALIZED (
        SELECT {k.id} AS id, {score} AS s {base} ORDER BY {score} LIMIT %(depth)s)
    SELECT id, s FROM lex_idx
    UNION (SELECT {k.id}, ({score}) + 0 {base} AND (SELECT count(*) FROM lex_idx) < %(depth)s
           AND tsv @@ ({_OR_QUERY}) ORDER BY 2 LIMIT %(depth)s)
    """  # noqa: S608 - table and column names come from the closed KINDS table


# The question's lexemes ORed: plainto_tsquery would AND them and match almost nothing.
_OR_QUERY = (
    "SELECT coalesce(string_agg(quote_literal(l), ' | '), '')::tsquery"
    " FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS l"
)
