"""``brv stale --ops``: the curate operations that act on a stale report.

A file linked through ``Files:`` that git saw renamed gets an UPDATE whose content is the
entry's own Raw Concept section with the new path in its Files list (UPDATE replaces only
the sections it names, so every other byte of the entry stays). Anything else (a change, a
deletion, a rename of a path named only in the text) gets a review flag: an UPDATE adding the
tag ``stale``, marked ``"review": true``, whose reason says what changed. Applying either
updates the entry, so it is no longer stale.
"""

from __future__ import annotations

from typing import Any

from brv_vc.format import body as bodymod
from brv_vc.format.entry import parse_entry
from brv_vc.index.code_refs import clean, files_list
from brv_vc.services.code_links.model import StaleEntry, StaleReport
from brv_vc.services.code_links.where import CodeRepo
from brv_vc.tree.project import Project

STALE_TAG = "stale"


def _renamed_raw_concept(section: str, renames: dict[str, str]) -> str | None:
    """The Raw Concept text with renamed Files items rewritten (None: nothing to rewrite)."""
    out, changed = [], False
    for line in section.splitlines(keepends=True):
        items = files_list("**Files:**\n" + line) if line.lstrip().startswith(("-", "*", "+")) else []
        new_line = line
        for item in items:
            named = clean(item)
            if named is not None and named in renames:
                new_line = new_line.replace(named, renames[named], 1)
                changed = True
        out.append(new_line)
    return "".join(out) if changed else None


def _why(item: StaleEntry, paths: list[str]) -> str:
    last = item.last_commit
    tail = f" (last: {last.sha[:9]} {last.date[:10]} {last.subject})" if last else ""
    parts = []
    for path in paths:
        if path in item.renamed_to:
            parts.append(f"{path} was renamed to {item.renamed_to[path]}")
        else:
            parts.append(f"{path} was {item.file_reasons.get(path, item.reason)}")
    plural = "commit" if item.commits_since == 1 else "commits"
    return (f"brv stale: {', '.join(parts)} ({item.commits_since} {plural} since this entry was "
            f"written{tail}); re-read the code and update the entry")


def operations(project: Project, report: StaleReport, code: CodeRepo) -> list[dict[str, Any]]:
    """The curate operations for a report, one per stale entry, in its order."""
    ops: list[dict[str, Any]] = []
    for item in report.entries:
        try:
            entry = parse_entry(project.path_of(item.entry).read_bytes(), file=item.entry)
        except Exception:  # a file that cannot be read gets no operation; the report names it
            continue
        renames = {}
        for named in (clean(i) for i in files_list(entry.body)):
            repo_path = code.to_repo(named) if named else None
            if named and repo_path in item.renamed_to:
                renames[named] = _relative(code, item.renamed_to[repo_path])
        section = bodymod.section_text(entry.body, bodymod.RAW_CONCEPT)
        rewritten = _renamed_raw_concept(section, renames) if renames else None
        if rewritten is not None:
            ops.append({
                "type": "UPDATE", "path": item.entry,
                "content": f"## {bodymod.RAW_CONCEPT}\n{rewritten.strip(chr(10))}\n",
                "reason": "brv stale: " + ", ".join(
                    f"{old} was renamed to {new}" for old, new in renames.items()),
            })
        fixed = {code.to_repo(old) for old in renames}
        rest = [path for path in item.files if path not in fixed]
        if not rest:
            continue
        tags = list(entry.tags)
        ops.append({
            "type": "UPDATE", "path": item.entry, "review": True,
            "tags": tags if STALE_TAG in tags else [*tags, STALE_TAG],
            "reason": _why(item, rest),
        })
    return ops


def _relative(code: CodeRepo, repo_path: str) -> str:
    """A repository path as the project names it (relative to the project root)."""
    if code.base and repo_path.startswith(code.base + "/"):
        return repo_path[len(code.base) + 1:]
    return repo_path


def stale_operations(project: Project, report: StaleReport) -> list[dict[str, Any]]:
    """The curate operations (``brv curate --ops`` format) acting on a ``brv stale`` report."""
    from brv_vc.services.code_links.where import require

    return operations(project, report, require(project))
