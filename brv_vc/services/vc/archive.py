"""After a pull, merge, checkout or clone: rebuild archives, then refresh derived state.

The archives are those named by commit trailers; the refresh covers the changed paths. It is
the same idempotent step the post-merge hook runs, so running both is harmless.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.record import NamedTuple
from brv_vc.services.derived import refresh
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, archive_paths, is_derived, kind_of
from brv_vc.tree.links import first_link
from brv_vc.tree.project import Project
from brv_vc.tree.store import remove_empty_parents
from brv_vc.vc import git
from brv_vc.vc.archived import RangeWalk, archived_at, archived_in_range
from brv_vc.vc.git.symlinks import LINK_MODE, symlinks_at
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_IMPORTANCE = 50.0


class AfterChange(NamedTuple):
    """What the post-change step did; problems are reported, never raised (fail open)."""

    changed: tuple[str, ...]
    archived: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    unarchived: tuple[str, ...] = ()  # entries back in the tree whose local archive was dropped
    links: tuple[str, ...] = ()  # symlinks the change brought: named, never read (tree/links)


def _write_archive() -> Callable[..., Any] | None:
    """``summary.archive.write_archive`` when that layer is present (built in parallel)."""
    try:
        module = __import__("brv_vc.summary.archive", fromlist=["write_archive"])  # no importlib
    except ImportError:
        return None
    func = getattr(module, "write_archive", None)
    return func if callable(func) else None


def _importance(project: Project, path: str) -> float:
    try:
        from brv_vc.lifecycle import sidecar
        from brv_vc.tree.statedb import open_state

        conn = open_state(project)
        try:
            signals = sidecar.get_many(conn, [path]).get(path)
        finally:
            conn.close()
        return float(signals.importance) if signals else DEFAULT_IMPORTANCE
    except Exception:  # the sidecar is optional here: a fresh clone has none
        return DEFAULT_IMPORTANCE


Raw = list[tuple[str, str, str, str]]  # git.changed_entries: (status, path, blob, mode)


def _changes(repo: KnowledgeRepo, old: str | None, new: str | None, raw: Raw | None = None
             ) -> tuple[tuple[str, ...], set[str] | None]:
    """(the changed tree paths, those stored as symlinks at ``new``; None: not known yet).

    Between two commits one ``diff --raw`` gives both: its modes say which changed path is a
    link, so the whole tree at ``new`` is never listed for it. ``raw``: that diff, when the
    caller has it already (a fast-forward pull diffed ``old..new`` before merging).
    """
    if new is None or old == new:
        return (), set()
    if old is None:
        listed = git.tree_paths(repo.workdir, new, *repo.pathspec())
        return tuple(p for p in (repo.tree_path(x) for x in listed) if p), None
    if raw is None:
        raw = git.changed_entries(repo.workdir, old, new, repo.prefix or None)
    paths = tuple(p for p in (repo.tree_path(x) for _, x, _, _ in raw) if p)
    links = {p for status, x, _, mode in raw
             if status != "D" and mode == LINK_MODE and (p := repo.tree_path(x))}
    return paths, links


def after_change(project: Project, repo: KnowledgeRepo, old: str | None, new: str | None,
                 now: datetime, *, also: Iterable[str] = (), manifest: bool = True,
                 defer: bool = False, raw: Raw | None = None,
                 walk: RangeWalk | None = None) -> AfterChange:
    """Rebuilds archived entries from history and refreshes derived state.

    The archive is rebuilt for every entry archived by a commit in ``old..new``, and for
    every entry the change removed from the tree whose last commit reachable from ``new``
    archived it (a ``reset --hard`` back over a restore, a checkout after a restore made on
    another branch); an entry back in the tree loses its local archive.

    Args:
        project: the project.
        repo: its knowledge repository.
        old: HEAD before the change (None: everything is new, as after a clone).
        new: HEAD after it.
        now: the clock.
        also: more tree paths the change rewrote (``reset --hard`` discarding edits).
        manifest: False leaves the manifest (a whole-tree scan) to its next reader, which
            rebuilds it when stale (``brv manifest``, MCP, LLM queries): pull, merge,
            checkout and the git hooks, whose cost must follow the change, not the tree.
        defer: queue the changed entries' abstracts instead of writing them (``brv vc pull``
            and ``merge``, as ``brv vc commit``: see ``services.derived.refresh``).
        raw: ``git.changed_entries`` of ``old..new``, when the caller has it already.
        walk: ``archived.range_walk`` of ``old..new``, when the caller has it already.
    """
    paths, stored = _changes(repo, old, new, raw)
    changed = tuple(dict.fromkeys((*paths, *also)))
    links = _links(project, repo, new, changed, stored)
    changed = tuple(p for p in changed if p not in links)
    problems: list[str] = [
        f"{p} is a symlink; brv never reads or writes through a link, so it is left unread: "
        f"replace it with the real file, or remove it (git rm {repo.repo_path(p)})"
        for p in links
    ]
    archived: list[str] = []
    found: dict[str, bytes] = {}
    if new is not None:
        try:
            if old != new:
                found.update(archived_in_range(repo, old, new, walk))
            gone = [p for p in changed if p not in found and _left_tree(project, p)]
            found.update(archived_at(repo, new, gone))
        except Exception as exc:  # fail open: a pull must never fail on the archive step
            problems.append(f"reading archive trailers: {exc}")
    write = _write_archive() if found else None
    for path, data in found.items():
        if _archived_already(project, path, data):
            # idempotent: a second run (the hook, then the command; a catch-up) rewrites nothing
            archived.append(path)
            continue
        if write is None:
            problems.append(f"archive of {path} not rebuilt: summary.archive is missing")
            continue
        try:
            write(project, path, data, importance=_importance(project, path), now=now)
            archived.append(path)
        except (BrvError, OSError, ValueError) as exc:
            problems.append(f"archive of {path} not rebuilt: {exc}")
    unarchived, dropped = drop_returned_archives(project, changed)
    removed = prune_orphan_folders(project, changed)
    report = refresh(project, (*changed, *dropped, *removed), now, defer=defer,
                     manifest=manifest)
    if new is not None:
        record_head(project, new)
    return AfterChange(changed, tuple(archived), (*problems, *report.problems), unarchived,
                       links)


HEAD_FILE = "vc-head"  # .brv/state/vc-head: the last HEAD the post-change step processed


def record_head(project: Project, head: str) -> None:
    """Records that the post-change step has processed ``head``.

    A read-only state folder only costs a second, idempotent run.
    """
    try:
        project.state.mkdir(parents=True, exist_ok=True)
        (project.state / HEAD_FILE).write_text(head + "\n", encoding="utf-8")
    except OSError:
        pass


def processed_head(project: Project) -> str | None:
    """The last HEAD the post-change step processed (None: never recorded)."""
    try:
        return (project.state / HEAD_FILE).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def _archived_already(project: Project, path: str, data: bytes) -> bool:
    stub_rel, full_rel = archive_paths(path)
    if first_link(project.tree, full_rel) or first_link(project.tree, stub_rel):
        return False  # let write_archive refuse it, with its message
    full, stub = project.tree / full_rel, project.tree / stub_rel
    try:
        return stub.is_file() and full.read_bytes() == data
    except OSError:
        return False


def _links(project: Project, repo: KnowledgeRepo, new: str | None,
           changed: tuple[str, ...], stored_links: set[str] | None) -> tuple[str, ...]:
    """The changed paths that are symlinks, in the commit or on disk (never followed).

    ``stored_links``: the changed paths the commit stores as links, when the diff told
    (None: list the commit's links).
    """
    found = {p for p in changed if first_link(project.tree, p) is not None}
    if stored_links is not None:
        found.update(stored_links)
    elif new is not None and changed:
        try:
            stored = symlinks_at(repo.workdir, new, repo.prefix or None)
        except BrvError:
            stored = []
        wanted = set(changed)
        found.update(p for p in (repo.tree_path(x) for x in stored) if p in wanted)
    return tuple(sorted(found))


def _left_tree(project: Project, path: str) -> bool:
    """True for a knowledge entry the change removed from the working tree."""
    if kind_of(path) is not Kind.ENTRY:  # never under _archived/
        return False
    return not (project.tree / path).exists()


def drop_returned_archives(project: Project, changed: Iterable[str]
                           ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Removes the local archive of every changed entry that is back in the tree.

    Trigger: an archived entry returns through a checkout, pull, merge or reset (a branch
    that never archived it, a teammate's 'brv restore'). Why: the archive must match the
    tree (DESIGN.md "Archives across a team"); a leftover stub is a ghost search result
    next to the entry itself. Outcome: its ``.stub.md`` and ``.full.md`` are deleted.

    Returns:
        (the entries whose archive was dropped, the archive paths deleted).
    """
    entries: list[str] = []
    deleted: list[str] = []
    if not (project.tree / ARCHIVE_DIR).is_dir():
        return (), ()  # nothing archived here: no path to look at
    for path in changed:
        if kind_of(path) is not Kind.ENTRY:  # never under _archived/
            continue
        if not (project.tree / path).is_file() or first_link(project.tree, path):
            continue
        found = [rel for rel in archive_paths(path)
                 if first_link(project.tree, rel) is None and (project.tree / rel).is_file()]
        for rel in found:
            (project.tree / rel).unlink()
        if found:
            remove_empty_parents(project, (project.tree / found[0]).parent)
            entries.append(path)
            deleted.extend(found)
    return tuple(entries), tuple(deleted)


def prune_orphan_folders(project: Project, changed: Iterable[str]) -> tuple[str, ...]:
    """Deletes folders left holding only derived files after their knowledge went away.

    Trigger: a change removed every file of a folder (``reset --hard`` discarding a new
    topic, a checkout of a branch without it). Why: git leaves the folder with its
    ``_index.md`` and abstracts, which then describe nothing, and a later ADD would take the
    folder for an existing one and skip its ``context.md``. Outcome: such folders (and
    parents left empty) are removed; a folder with any other file is kept.

    Returns:
        The derived files deleted (tree-relative).
    """
    removed: list[str] = []
    tree = project.tree
    folders = {(tree / p).parent for p in changed
               if not p.startswith(ARCHIVE_DIR + "/") and not (tree / p).exists()}
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        while folder != tree and tree in folder.parents:
            try:
                children = list(folder.iterdir())
            except OSError:
                break
            rels = [child.relative_to(tree).as_posix() for child in children]
            if any(child.is_dir() for child in children) or not all(map(is_derived, rels)):
                break
            for child in children:
                child.unlink()
            removed.extend(rels)
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent
    return tuple(removed)
