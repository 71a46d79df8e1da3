"""``brv summarize``."""

from __future__ import annotations

import sys
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.inert import raw_stream
from brv_vc.cli.render import emit, stderr_is_tty, warn
from brv_vc.services.derived import SummarizeResult, summarize


class _Bar:
    """A click progress bar on stderr, drawn only on a TTY."""

    def __init__(self) -> None:
        self.bar: Any = None

    def start(self, total: int) -> None:
        if stderr_is_tty() and total > 1:
            self.bar = click.progressbar(length=total, label="summarizing",
                                         file=raw_stream(sys.stderr))
            self.bar.__enter__()

    def advance(self, path: str) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _text(r: SummarizeResult) -> str:
    lines = [
        f"_index.md: {len(r.indexes_written)} written, {len(r.indexes_removed)} removed, "
        f"{r.indexes_unchanged} unchanged",
        f"abstracts/overviews ({r.engine}): {r.done} generated, {len(r.failed)} failed, "
        f"{r.remaining} still queued",
        f"_manifest.json: {'rebuilt' if r.manifest_rebuilt else 'up to date'}",
    ]
    lines += [f"  failed {problem.path}: {problem.message}" for problem in r.failed]
    return "\n".join(lines)


@click.command()
@json_option
@pass_app
def summarize_cmd(app: AppContext, as_json: bool) -> None:
    """Regenerate derived summaries: _index.md, abstracts, overviews and the manifest.

    Only what is stale is rewritten. Abstracts and overviews come from a work queue in
    .brv/state/brv.db that survives a crash: an interrupted run resumes. Uses the LLM
    provider when .brv/config.yaml has llm:, else the deterministic extractive engine.

    \b
    Example:
      brv summarize
      brv summarize --json
    """
    bar = _Bar()
    try:
        result = summarize(app.project(), app.now, progress=bar)
    finally:
        bar.close()
    for message in result.warnings:
        warn(message)
    if result.failed:
        # Trigger: some entries could not be summarized. Why: the run still did its job for
        # every other file, as `brv index` does with files it cannot parse (docs/derived.md).
        # Outcome: exit 0, the files listed (JSON: `failed`), this warning on stderr.
        warn(f"{len(result.failed)} file(s) could not be summarized; fix them and run "
             "'brv summarize' again")
    emit(result, as_json, _text)
