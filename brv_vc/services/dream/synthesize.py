"""Synthesize, deterministic detector (seed 001): patterns that span domains.

A pattern is evidence that entries of several domains really share (``evidence.py``): a tag
or keyword, a two-word term, or (in a small tree) a word of their titles and summaries; never the text
of ``_index.md`` or ``context.md``, never a stop word. The synthesis names the entries it
rests on (``sources`` and ``related``), lists each with its summary, and reads as a title a
person would write ("Refresh token in api and auth"). At most three a dream; a candidate
resting on the same entries as a better one, or at least 0.5 alike (BM25, as seed 001 says)
to an existing synthesis, is dropped. Fewer than two domains: nothing to synthesize.
After a dream whose synthesize pass ran to the end, a pattern needs an entry modified
since (``since``): a dream on a tree nothing changed in proposes no synthesis.

Confidence is honest: the offline engine matches words, it does not understand them, so an
offline synthesis is a proposal, 0.5 to 0.65, always under the review threshold (0.7): with
review enabled every one waits in ``brv review pending``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.format import frontmatter as fm
from brv_vc.index.entries import entries_modified_after
from brv_vc.index.terms import tokens
from brv_vc.services.dream import evidence, patterns
from brv_vc.services.dream.similarity import LINK_AT, best_against, words
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, kind_of, snake
from brv_vc.tree.project import Project
from brv_vc.tree.store import read_entry

Op = dict[str, Any]
DOMAIN = "synthesis"
TOPIC = "patterns"
MAX_SYNTHESES = 3
MAX_SOURCES = 12  # entries named by one synthesis (and listed in its text)
OFFLINE_CONFIDENCE = 0.5  # + 0.05 a domain past two, capped under the review threshold
OFFLINE_CAP = 0.65
_SAME_EVIDENCE = 0.6  # Jaccard of two candidates' entries above which the later is dropped


def domains(project: Project) -> list[str]:
    """The tree's domains (the synthesis domain, the archive and hidden folders excluded)."""
    return sorted(p.name for p in project.tree.iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")) and p.name != DOMAIN
                  and p.name != ARCHIVE_DIR)


def existing(project: Project) -> dict[str, list[str]]:
    """The words of every synthesis already written."""
    out = {}
    for path in sorted((project.tree / DOMAIN).rglob("*.md")):
        rel = project.relpath(path)
        if kind_of(rel) is not Kind.ENTRY:
            continue
        try:
            out[rel] = words(read_entry(project, rel))
        except BrvError:
            continue
    return out


def detect(project: Project, conn: sqlite3.Connection | None = None,
           should_stop: Callable[[], bool] = lambda: False,
           since: float | None = None) -> list[Op]:
    """CREATE operations for new cross-domain patterns (none with fewer than two domains).

    ``conn`` is an open, synced index; without one the index is opened here.
    ``should_stop`` (the budget) is polled between batches of entries: none then.
    ``since``: the wall clock (epoch s) of the last whole synthesize pass; a pattern then
    needs an entry modified after it (see :func:`fresh`). None: every pattern counts.
    """
    if conn is None:
        from brv_vc.services.derived import with_index

        ops, _ = with_index(project, lambda opened: _detect(project, opened.conn, should_stop,
                                                            since))
        return ops
    return _detect(project, conn, should_stop, since)


def fresh(conn: sqlite3.Connection, since: float | None) -> set[str] | None:
    """The entries modified after ``since`` (None: no bound, every entry is new).

    Why (issue 37): a dream writes its best few syntheses and weighs the rest; the next
    dream on a tree nothing changed in found the next three on other words. A pattern is
    proposed again only when an entry it rests on changed since that weighing.
    """
    if since is None:
        return None
    return entries_modified_after(conn, int(since * 1e9))


def _detect(project: Project, conn: sqlite3.Connection,
            should_stop: Callable[[], bool], since: float | None) -> list[Op]:
    new = fresh(conn, since)
    if new is not None and not new:
        return []  # nothing changed since every pattern was weighed
    counted = patterns.census(conn, DOMAIN, should_stop)
    if counted is None or len(counted[0].domains) < 2:
        return []
    found, rows = counted
    titles, openings = found.titles, found.openings  # filled as candidates are built
    known = existing(project)
    seen = [known[p] for p in sorted(known)]  # existing syntheses, then this dream's
    taken: list[set[str]] = []
    ops: list[Op] = []
    candidates = patterns.ranked_terms(conn, found, rows)
    for term in candidates:
        if len(ops) == MAX_SYNTHESES:
            break
        paths = set(term.paths)
        if new is not None and new.isdisjoint(paths):
            continue  # weighed by an earlier dream, and none of its entries changed since
        if any(len(paths & t) / len(paths | t) > _SAME_EVIDENCE for t in taken):
            continue
        op = _candidate(term, titles, openings)
        # the evidence alone: the template words every synthesis shares would make any two
        # of them look alike
        probe = tokens(" ".join([term.label, term.label, *(
            f"{titles.get(p, '')} {openings.get(p, '')}" for p in op["sources"])]))
        if best_against(seen, probe) >= LINK_AT:
            continue
        if any(o["path"] == op["path"] for o in ops):
            continue
        seen.append(probe)
        taken.append(paths)
        ops.append(op)
    return ops


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _candidate(term: evidence.Term, titles: dict[str, str], openings: dict[str, str]) -> Op:
    shared_by = sorted(term.entries)
    label = term.label
    shown = shared_by if len(shared_by) <= 4 else [*shared_by[:3], f"{len(shared_by) - 3} more"]
    title = f"{label[:1].upper()}{label[1:]} in {_join(shown)}"
    each = max(1, MAX_SOURCES // len(shared_by))
    cited = [p for d in shared_by for p in list(term.entries[d])[:each]]
    cited = cited[:MAX_SOURCES]
    what = {"tag": "tag or keyword", "phrase": "term", "word": "word"}[term.kind]
    count = len(term.paths)
    lines = [f"{count} entries in {len(shared_by)} domains share the {what} \"{label}\". "
             "Read together, they show how each part of the project deals with it.", ""]
    for domain in shared_by:
        lines.append(f"### {domain}")
        for path in term.entries[domain]:
            if path in cited:
                gist = evidence_line(openings.get(path, ""))
                lines.append(f"- {titles.get(path) or path} (@{path})" + (f": {gist}" if gist else ""))
        lines.append("")
    confidence = round(min(OFFLINE_CAP, OFFLINE_CONFIDENCE + 0.05 * (len(shared_by) - 2)), 2)
    examples = "; ".join(f"{titles.get(p) or p} ({p.split('/', 1)[0]})" for p in cited[:3])
    return {
        "operation": "synthesize", "action": "CREATE",
        "path": f"{DOMAIN}/{TOPIC}/{snake(title)}.md",
        "title": title,
        "summary": f"\"{label}\" in {len(shared_by)} domains: {examples}",
        "content": "\n".join(lines).strip(),
        "sources": cited,
        "related": cited,
        "tags": ["cross-domain", "synthesis"],
        "keywords": [label, *shared_by],
        "confidence": confidence,
        "reason": f"the {what} \"{label}\" is held by {count} entries in "
                  f"{len(shared_by)} domains ({', '.join(shared_by)})",
    }


def evidence_line(text: str, limit: int = 160) -> str:
    """One line of an entry's opening, cut at a word."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rsplit(" ", 1)[0] + "…"


def render(op: Op, stamp: str) -> bytes:
    """A synthesis file: the four markers first, then the seven fields (seed 001 order)."""
    lines = [
        f"confidence: {float(op['confidence'])}\n",
        fm.dump_list("sources", [str(s) for s in op["sources"]]),
        fm.dump_string("synthesized_at", stamp),
        "type: synthesis\n",
        fm.dump_string("title", str(op["title"])),
        fm.dump_string("summary", str(op.get("summary", ""))),
        fm.dump_list("tags", [str(t) for t in op.get("tags", [])]),
        fm.dump_list("related", [str(r) for r in op.get("related", [])]),
        fm.dump_list("keywords", [str(k) for k in op.get("keywords", [])]),
        fm.dump_string("createdAt", stamp),
        fm.dump_string("updatedAt", stamp),
    ]
    body = f"\n## Narrative\n\n{str(op.get('content', '')).strip()}\n"
    return ("---\n" + "".join(lines) + "---\n" + body).encode("utf-8")
