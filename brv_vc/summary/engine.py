"""Engines that write derived text, and the one way to call them (through the escalation ladder).

The deterministic extractive engine is the default; the optional LLM engine is used when
``.brv/config.yaml`` has ``llm:``. Both go through :func:`generate`, which checks every
result against its budget and escalates normal -> aggressive -> truncation.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from brv_vc.record import Protocol
from brv_vc.summary import extract, folder_text
from brv_vc.summary.budgets import Fitted, TimeBudget, escalate
from brv_vc.summary.documents import Document, FolderInput
from brv_vc.tree.config import LlmSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T", Document, FolderInput)


class Engine(Protocol):
    """Writes abstracts, overviews, ghost cues and folder summaries aiming at a token budget.

    Each call is one attempt of :func:`generate`'s ladder; ``aggressive`` marks the second
    (``budget`` already cut to 0.6x) after the first failed or overran: essentials only.
    """

    name: str

    def abstract(self, doc: Document, budget: int, aggressive: bool) -> str:
        """One line: the entry's core topic and key insight."""

    def overview(self, doc: Document, budget: int, aggressive: bool) -> str:
        """Markdown: 3-7 key points, notable entities and patterns."""

    def ghost_cue(self, doc: Document, budget: int, aggressive: bool) -> str:
        """The body of an archive stub: what the entry was about, in searchable words."""

    def folder_summary(self, folder: FolderInput, budget: int, aggressive: bool) -> str:
        """A folder's ``_index.md`` body from its children's titles and summaries."""


class ExtractiveEngine:
    """The default engine: deterministic extraction, no network, same input -> same bytes."""

    name = "extractive"

    def abstract(self, doc: Document, budget: int, aggressive: bool) -> str:
        """See :func:`brv_vc.summary.extract.abstract`."""
        return extract.abstract(doc, budget, aggressive)

    def overview(self, doc: Document, budget: int, aggressive: bool) -> str:
        """See :func:`brv_vc.summary.extract.overview`."""
        return extract.overview(doc, budget, aggressive)

    def ghost_cue(self, doc: Document, budget: int, aggressive: bool) -> str:
        """See :func:`brv_vc.summary.extract.ghost_cue`."""
        return extract.ghost_cue(doc, budget, aggressive)

    def folder_summary(self, folder: FolderInput, budget: int, aggressive: bool) -> str:
        """See :func:`brv_vc.summary.folder_text.folder_summary`."""
        return folder_text.folder_summary(folder, budget, aggressive)


EXTRACTIVE = ExtractiveEngine()


def generate(engine: Engine, kind: str, item: T, budget: int) -> Fitted:
    """Produces one derived text of ``kind`` that fits ``budget`` tokens.

    Args:
        engine: the engine to ask first.
        kind: ``abstract``, ``overview``, ``ghost_cue`` or ``folder_summary``.
        item: the document (or folder) to condense.
        budget: the token budget.

    Returns:
        The fitted text and the escalation level used. The last rung truncates the
        extractive engine's output, so it never depends on a provider being up.
    """
    method: Callable[[T, int, bool], str] = getattr(engine, kind)
    fallback: Callable[[T, int, bool], str] = getattr(EXTRACTIVE, kind)
    return escalate(
        lambda target, aggressive: method(item, target, aggressive),
        budget,
        lambda: fallback(item, budget, False),
    )


def engine_for(
    settings: LlmSettings | None,
    *,
    sleep: Callable[[float], None] = time.sleep,
    budget: TimeBudget | None = None,
) -> Engine:
    """Returns the provider engine when ``llm:`` is configured, else the extractive one.

    ``budget`` bounds the provider engine's calls (the refresh after a tree change; see
    :class:`~brv_vc.summary.llm_engine.LlmEngine`).
    """
    if settings is None:
        return EXTRACTIVE
    from brv_vc.summary.llm_engine import LlmEngine

    return LlmEngine(settings, sleep=sleep, budget=budget)
