"""``brv query``: the five tiers of seed 002 (Algorithm 1) over the persistent index.

0 exact cache, 1 fuzzy cache, 2 direct answer from search (no LLM), 3 one LLM call with
pre-fetched documents, 4 a bounded agentic loop. Without a provider, tier 2 answers with the
best search results even below the direct-answer threshold, and says so. A provider failure
keeps the tier-2 answer and reports the error.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, NamedTuple

from brv_vc.errors import BrvError, ProviderError
from brv_vc.index import cache
from brv_vc.index.db import get_meta
from brv_vc.index.search import Hit, SearchOutcome
from brv_vc.index.terms import content_words, normalize, query_terms
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.services.query.direct import direct_answer, indexed_texts, is_direct
from brv_vc.services.query.marks import linked, stale_of
from brv_vc.services.query.search import lane_search, record_hits, stale_paths
from brv_vc.tree.config import names_llm
from brv_vc.tree.embed_config import named
from brv_vc.tree.llm_settings import configured_llm
from brv_vc.tree.project import Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.tree.config import LlmSettings

PREFETCH_MIN, PREFETCH_MAX = 0.7, 5
# bumped when the answer text changes shape: answers cached by an older brv are not served
ANSWER_FORMAT = "/a2"
DEFAULT_MAX_ITERATIONS = 10
OUT_OF_SCOPE = "This query appears to be outside the scope of stored knowledge."


class MatchedDoc(NamedTuple):
    """A document the answer drew on."""

    path: str
    title: str
    score: float
    stale: bool = False  # its linked code changed since (services/query/marks.py)


class QueryResult(NamedTuple):
    """An answer and how it was found."""

    query: str
    answer: str
    tier: int
    duration_ms: int
    top_score: float
    cache_hit: bool
    out_of_domain: bool
    matched: tuple[MatchedDoc, ...]
    note: str = ""
    error: str | None = None
    notes: tuple[str, ...] = ()
    lanes: tuple[str, ...] = ("lexical",)  # and "semantic" when the lane answered too


def _matched(hits: tuple[Hit, ...] | list[Hit]) -> tuple[MatchedDoc, ...]:
    return tuple(MatchedDoc(h.path, h.title, h.score) for h in hits)


def _from_cache(
    project: Project, opened: OpenIndex, answer: dict[str, Any]
) -> dict[str, Any] | None:
    """A cached answer whose own files were not edited in place since (else None)."""
    hits = tuple(
        Hit(m["path"], m["title"], "entry", m["score"], 0.0, "") for m in answer["matched"]
    )
    if stale_paths(project, opened, hits):
        return None
    return answer


def query_tree(
    project: Project,
    query: str,
    *,
    now: datetime,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.perf_counter,
) -> QueryResult:
    """Answers a question from the context tree.

    Args:
        project: the project.
        query: the question.
        now: the clock for the lifecycle (decay, hits).
        max_iterations: tier 4's bound on LLM calls.
        sleep: retry waits of the provider client (tests pass a no-op).
        clock: a monotonic timer for ``duration_ms``.

    Returns:
        The answer with its tier, duration and top score.

    Raises:
        QueryError: an empty query, or one of only stop words, short words or punctuation.
    """
    started = clock()
    terms = query_terms(query, letters=True)
    key, tokens = normalize(query), set(content_words(query))

    found: list[frozenset[str]] = []  # matched entries that link code

    def work(opened: OpenIndex) -> QueryResult:
        result = _answer(project, opened, query, terms, key, tokens, now, max_iterations, sleep)
        record_hits(project, opened, [m.path for m in result.matched], now)
        found.append(linked(opened.conn, [m.path for m in result.matched]))
        return result

    result, notes = with_index(project, work)
    stale = stale_of(project, found[-1] if found else frozenset())
    if stale:
        result = result._replace(matched=tuple(
            m._replace(stale=True) if m.path in stale else m for m in result.matched))
    elapsed = round((clock() - started) * 1000)
    return result._replace(duration_ms=elapsed, notes=tuple(notes))


def _answer(
    project: Project,
    opened: OpenIndex,
    query: str,
    terms: list[str],
    key: str,
    tokens: set[str],
    now: datetime,
    max_iterations: int,
    sleep: Callable[[float], None],
) -> QueryResult:
    conn = opened.conn
    # answers differ with and without a provider: switching it on or off starts afresh
    # and with and without the semantic lane
    tag = ANSWER_FORMAT + ("+llm" if names_llm(project) else "") + ("+sem" if named(project) else "")
    fingerprint = (get_meta(conn, "fingerprint") or "0") + tag
    hit = cache.exact(conn, key, fingerprint)
    if hit is not None and _from_cache(project, opened, hit) is not None:
        return _cached(query, hit, 0, "")
    similar = cache.similar(conn, tokens, fingerprint)
    if similar is not None and _from_cache(project, opened, similar[0]) is not None:
        return _cached(query, similar[0], 1, f"similar to a cached query ({similar[1]:.2f})")
    outcome, lanes, lane_notes = lane_search(project, opened, query, terms, now, limit=10,
                                             scope=None)
    fingerprint = (get_meta(conn, "fingerprint") or "0") + tag  # a result may have been re-read
    result = _tiers(project, opened, query, outcome, max_iterations, sleep, now)
    result = result._replace(lanes=lanes, notes=(*result.notes, *lane_notes))
    if result.error is None:
        stored = {
            "answer": result.answer,
            "tier": result.tier,
            "top_score": result.top_score,
            "out_of_domain": result.out_of_domain,
            "note": result.note,
            "matched": [m._asdict() for m in result.matched],  # marked after: never cached
            "lanes": list(lanes),
        }
        cache.put(conn, key, tokens, fingerprint, stored, time.time())
    return result


def _cached(query: str, answer: dict[str, Any], tier: int, note: str) -> QueryResult:
    return QueryResult(
        query=query,
        answer=answer["answer"],
        tier=tier,
        duration_ms=0,
        top_score=answer["top_score"],
        cache_hit=True,
        out_of_domain=answer["out_of_domain"],
        matched=tuple(MatchedDoc(**m) for m in answer["matched"]),
        note=note or f"cached answer from tier {answer['tier']}",
        lanes=tuple(answer.get("lanes") or ("lexical",)),
    )


def _tiers(
    project: Project,
    opened: OpenIndex,
    query: str,
    outcome: SearchOutcome,
    max_iterations: int,
    sleep: Callable[[float], None],
    now: datetime,
) -> QueryResult:
    hits = outcome.hits
    base = QueryResult(query, "", 2, 0, outcome.top, False, False, _matched(hits))
    if not hits or outcome.out_of_domain:
        answer = OUT_OF_SCOPE
        if outcome.unmatched:
            answer += f" No entry mentions: {', '.join(outcome.unmatched)}."
        return base._replace(answer=answer, out_of_domain=True, matched=())
    direct = base._replace(answer=direct_answer(opened, outcome))
    if is_direct(hits):
        return direct
    try:
        settings = configured_llm(project)
    except ProviderError as refused:  # a repository's provider not approved here: nothing sent
        return direct._replace(error=refused.message,  # not cached: approving is enough
                               note=f"{refused.message} ({refused.hint})")
    if settings is None:
        return direct._replace(
            note="no LLM provider configured (llm: in .brv/config.yaml): this is the best "
            "search answer, below the direct-answer threshold"
        )
    from brv_vc.services.derived import structure_context
    from brv_vc.services.query import llm as query_llm

    structure = structure_context(project, now)
    prefetch = [h for h in hits if h.score >= PREFETCH_MIN][:PREFETCH_MAX]
    try:
        if prefetch:
            contents = indexed_texts(opened, [h.path for h in prefetch])
            docs = [(h.path, h.title, contents.get(h.path, "")) for h in prefetch]
            text = query_llm.single_call(settings, query, docs, sleep=sleep,
                                         structure=structure)
            return base._replace(answer=text, tier=3, matched=_matched(prefetch))
        text, read = _agent(project, opened, query, settings, max_iterations, sleep, structure)
        by_path = {h.path: h for h in hits}
        used = tuple(
            MatchedDoc(
                p,
                by_path[p].title if p in by_path else p,
                by_path[p].score if p in by_path else 0.0,
            )
            for p in dict.fromkeys(read)
        )
        return base._replace(answer=text, tier=4, matched=used or base.matched)
    except BrvError as exc:
        return direct._replace(
            error=exc.message,
            note=f"the LLM provider failed ({exc.message}); this is the tier-2 answer",
        )


def _agent(
    project: Project,
    opened: OpenIndex,
    query: str,
    settings: LlmSettings,
    max_iterations: int,
    sleep: Callable[[float], None],
    structure: str,
) -> tuple[str, list[str]]:
    from brv_vc.index.search import search as run
    from brv_vc.services.query import llm as query_llm

    def search(text: str, limit: int) -> list[dict[str, Any]]:
        found = run(opened.conn, None, query_terms(text, letters=True), time.time(), limit=limit)
        return [
            {"path": h.path, "title": h.title, "score": h.score, "excerpt": h.excerpt[:400]}
            for h in found.hits
        ]

    def read(path: str) -> str:
        from brv_vc.tree.layout import clean_relpath

        target = project.path_of(clean_relpath(path))
        if not target.is_file() or target.suffix != ".md":
            raise BrvError(f"no entry at {path!r}")
        return target.read_text(encoding="utf-8", errors="replace")

    return query_llm.agentic_loop(
        settings, query, search=search, read=read, max_iterations=max_iterations, sleep=sleep,
        structure=structure,
    )
