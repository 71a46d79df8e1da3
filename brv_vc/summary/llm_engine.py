"""The optional provider engine: any OpenAI-compatible endpoint, temperature 0.

The client lives in :mod:`brv_vc.llm.client`; it is imported lazily so that the
deterministic engine (and everything else) works without it. Failures raise
:class:`~brv_vc.errors.ProviderError`, which the escalation ladder turns into the next rung.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from brv_vc.errors import ProviderError
from brv_vc.summary import folder_text
from brv_vc.summary.budgets import Deferred, TimeBudget
from brv_vc.summary.documents import Document, FolderInput
from brv_vc.tree.config import LlmSettings

_SYSTEM = (
    "You condense knowledge files of a software team's context tree. Answer with the "
    "requested text only: no preamble, no code fences around the whole answer."
)


class LlmEngine:
    """Asks the configured provider for each text (temperature 0, ``max_tokens`` = budget).

    Args:
        settings: the ``llm:`` section of ``.brv/config.yaml``.
        sleep: waits between retries (injectable so tests do not wait).
        budget: the refresh's time budget (None: ``brv summarize``, which waits and retries).
            With a budget a call is made only when its whole timeout fits, once (no retry,
            no backoff); otherwise, or when it fails, :class:`Deferred` is raised.
    """

    name = "llm"

    def __init__(
        self,
        settings: LlmSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        budget: TimeBudget | None = None,
    ) -> None:
        self.settings = settings
        self.sleep = sleep
        self.budget = budget

    def _ask(self, instruction: str, material: str, budget: int) -> str:
        from brv_vc.llm.client import complete  # type: ignore[import-not-found,unused-ignore]

        messages: list[dict[str, Any]] = [
            {"role": "system", "content": _SYSTEM},
            {"role": "user", "content": f"{instruction}\n\n---\n{material}"},
        ]
        limit = self.budget
        if limit is None:
            reply = complete(
                self.settings, messages, temperature=0.0, max_tokens=budget, sleep=self.sleep
            )
            return str(reply.content)
        if limit.failure is not None:
            raise Deferred(limit.failure, failed=True)
        if not limit.affords(self.settings.timeout_seconds):
            raise Deferred(
                f"the provider's {self.settings.timeout_seconds:g} s timeout does not fit the "
                "refresh's time budget",
                failed=False,
            )
        try:
            reply = complete(
                self.settings, messages, temperature=0.0, max_tokens=budget, retries=0
            )
        except ProviderError as exc:
            limit.failure = exc.message
            raise Deferred(exc.message, failed=True) from None
        return str(reply.content)

    def abstract(self, doc: Document, budget: int, aggressive: bool) -> str:
        """A one-line abstract (the core topic and key insight) of at most ``budget`` tokens."""
        tone = "Be terse. " if aggressive else ""
        return self._ask(
            f"{tone}Write ONE line (at most {budget} tokens) giving the core topic and the key "
            "insight of this knowledge file.",
            doc.source,
            budget,
        )

    def overview(self, doc: Document, budget: int, aggressive: bool) -> str:
        """A markdown overview: 3-7 key points, notable entities, patterns."""
        tone = "Be terse. " if aggressive else ""
        return self._ask(
            f"{tone}Write a markdown overview of at most {budget} tokens with the sections "
            "'## Key points' (3-7 bullets), '## Entities' and '## Patterns'.",
            doc.source,
            budget,
        )

    def ghost_cue(self, doc: Document, budget: int, aggressive: bool) -> str:
        """A searchable cue (~220 tokens) describing an archived entry."""
        return self._ask(
            f"This entry is being archived. In at most {budget} tokens, describe what it "
            "covers so a search can find it again; name its key entities.",
            doc.source,
            budget,
        )

    def folder_summary(self, folder: FolderInput, budget: int, aggressive: bool) -> str:
        """A folder's condensed summary from its children's titles and summaries."""
        lines = "\n".join(f"- {c.title} ({c.name}): {c.text}" for c in folder.children)
        kind = folder_text.KINDS.get(folder.order, "Folder")
        tone = "Be terse. " if aggressive else ""
        return self._ask(
            f"{tone}Summarise this {kind.lower()} '{folder_text.folder_name(folder.relpath)}' of a "
            f"knowledge tree in at most {budget} tokens. Start with the line "
            f"'# {kind}: {folder_text.folder_name(folder.relpath)}', then one headline paragraph.",
            f"Purpose: {folder.purpose}\nChildren:\n{lines}",
            budget,
        )
