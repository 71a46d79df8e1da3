"""A search with the semantic lane: the lexical outcome, the entries' cosine ranking, fused.

Any failure of the model (an endpoint down mid-search, a reply that is not embeddings, the
offline package missing) leaves the lexical outcome as it was, with a note: the lane can
add results, never take a search away.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from brv_vc.errors import BrvError
from brv_vc.index.search import Hit, SearchOutcome
from brv_vc.services.semantic.fusion import FOUND, fuse, strong
from brv_vc.tree.embed_config import EmbedSettings, configured_embeddings
from brv_vc.tree.project import Project

POOL = 30  # results taken from each lane into the fusion
LEXICAL = ("lexical",)
BOTH = ("lexical", "semantic")


class Hybrid(NamedTuple):
    """The fused outcome, the lanes that answered and what to tell the user."""

    outcome: SearchOutcome
    lanes: tuple[str, ...]
    notes: tuple[str, ...]


def lane_settings(project: Project) -> tuple[EmbedSettings | None, str | None]:
    """The model a search here embeds with (None: lexical only) and a note when it is refused.

    A project's endpoint that is not approved here, or invalid ``embeddings:`` settings,
    turn the lane off for this search with a note; they never fail the search.
    """
    try:
        return configured_embeddings(project), None
    except BrvError as refused:
        hint = f" ({refused.hint})" if getattr(refused, "hint", None) else ""
        return None, f"semantic lane off: {refused.message}{hint}"


def _excerpts(index: Any, rowids: list[int]) -> dict[int, str]:
    from brv_vc.index.texts import contents

    return {rowid: " ".join(text.split())[:300] for rowid, text in contents(index, rowids).items()}


def hybrid(project: Project, index: Any, query: str, outcome: SearchOutcome,
           settings: EmbedSettings, *, limit: int, scope: str | None = None) -> Hybrid:
    """Fuses ``outcome`` (the lexical ranking, ``POOL`` deep) with the semantic one.

    Args:
        project: the project.
        index: the open ``index.db`` connection.
        query: the user's text (embedded as is).
        outcome: the lexical search's outcome.
        settings: the model.
        limit: results to return.
        scope: the search's path prefix.

    Returns:
        The fused outcome (lexical hits keep their fields; an entry only the semantic lane
        found gets its cosine as relevance), the lanes and notes. A question the lexical
        ranking called out of domain is in domain when the lane found an entry at cosine
        ``FOUND`` or more: every surface (search, query, MCP, web) then says what both found.
    """
    from brv_vc.services.semantic.store import nearest

    notes: list[str] = []
    try:
        near, pending = nearest(project, index, settings, query, POOL, scope=scope)
    except (BrvError, ImportError, OSError) as failed:
        message = getattr(failed, "message", str(failed))
        return Hybrid(outcome._replace(hits=outcome.hits[:limit]), LEXICAL,
                      (f"the semantic lane failed ({message}); these are the lexical results",))
    if pending:
        notes.append(f"{pending} entries have no vector for {settings.model} yet; "
                     "run 'brv index --embed' to embed them all")
    if not near:
        return Hybrid(outcome._replace(hits=outcome.hits[:limit]), LEXICAL, tuple(notes))
    top = outcome.hits[0].relevance if outcome.hits else 0.0
    order = fuse([h.path for h in outcome.hits], [n.path for n in near],
                 guarded=strong(outcome.coverage, top))[:limit]
    lexical = {h.path: h for h in outcome.hits}
    only = {n.path: n for n in near if n.path not in lexical}
    texts = _excerpts(index, [only[p].id for p in order if p in only])
    hits = []
    for path in order:
        if path in lexical:
            hits.append(lexical[path])
            continue
        n = only[path]
        similarity = round(max(0.0, n.cosine), 4)
        hits.append(Hit(path, n.title, "entry", 0.6 * similarity, similarity,
                        texts.get(n.id, "")))
    found = outcome.out_of_domain and near[0].cosine >= FOUND
    if found:
        notes.append("no entry holds all of the question's words; the semantic lane found "
                     "these by meaning")
    return Hybrid(outcome._replace(hits=tuple(hits), out_of_domain=outcome.out_of_domain
                                   and not found), BOTH, tuple(notes))
