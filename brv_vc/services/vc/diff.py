"""``brv vc diff``: a semantic diff of knowledge between two states.

git lists what changed (``git diff --raw``, with its rename detection) and reads the old and
new blobs (one ``cat-file --batch``: opening the object store in process with dulwich cost
~20 ms of imports); :func:`brv_vc.vc.semdiff.diff_entry` compares them.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc.errors import NotFoundError, UsageError
from brv_vc.tree.generated import is_generated
from brv_vc.tree.layout import CONTEXT_FILE
from brv_vc.vc import git
from brv_vc.vc.exclusions import is_excluded
from brv_vc.vc.repo import KnowledgeRepo
from brv_vc.vc.semdiff import EntryDiff, diff_entry

_NULL = "0" * 40


@dataclass(frozen=True)
class DiffReport:
    """The semantic diff: ``base`` and ``target`` name the two states compared."""

    base: str
    target: str
    entries: tuple[EntryDiff, ...]

    def counts(self) -> dict[str, int]:
        """Number of entries per status (added, modified, removed, renamed)."""
        out: dict[str, int] = {}
        for entry in self.entries:
            out[entry.status] = out.get(entry.status, 0) + 1
        return out


@dataclass(frozen=True)
class _Raw:
    status: str
    old_sha: str
    new_sha: str
    path: str
    old_path: str | None


def _resolve(repo: KnowledgeRepo, spec: str | None, staged: bool) -> tuple[list[str], str, str]:
    if spec and staged:
        raise UsageError("--staged compares HEAD with the index; it takes no REF",
                         hint="use 'brv vc diff --staged' or 'brv vc diff REF'")
    if spec is None:
        if staged:
            base = "HEAD" if repo.head() else git.empty_tree(repo.workdir)
            return ["--cached", base], "HEAD", "index"
        return [], "index", "working tree"
    if "..." in spec:
        raise UsageError(f"'{spec}': three-dot ranges are not supported",
                         hint="use A..B (commit to commit) or a single REF")
    if ".." in spec:
        a, b = spec.split("..", 1)
        for ref in (a or "HEAD", b or "HEAD"):
            _check(repo, ref)
        return [a or "HEAD", b or "HEAD"], a or "HEAD", b or "HEAD"
    _check(repo, spec)
    return [spec], spec, "working tree"


def _check(repo: KnowledgeRepo, ref: str) -> None:
    if repo.rev(ref) is None:
        raise NotFoundError(f"unknown revision '{ref}'",
                            hint="name a branch, a tag or a commit ('brv vc log', "
                                 "'brv vc branch -a')")


def semantic_diff(repo: KnowledgeRepo, spec: str | None = None, *,
                  staged: bool = False) -> DiffReport:
    """Compares two states of the tree.

    Args:
        repo: the knowledge repository.
        spec: None (index -> working tree), ``REF`` (REF -> working tree) or ``A..B``.
        staged: HEAD -> index.

    Raises:
        NotFoundError: an unknown revision.
        UsageError: a three-dot range, or ``--staged`` with a REF.
    """
    args, base, target = _resolve(repo, spec, staged)
    rows = [_Raw(status, old_sha, new_sha, path, old if status in "RC" else None)
            for status, old, path, old_sha, new_sha
            in git.compare(repo.workdir, *args, *repo.pathspec())
            if (tp := repo.tree_path(path)) and not is_excluded(tp)]
    rows = _pair_same_content(rows)
    blobs = git.read_blobs(repo.workdir, [s for r in rows for s in (r.old_sha, r.new_sha)])

    def side(sha: str, path: str, deleted: bool) -> bytes | None:
        if deleted:
            return None
        if sha == _NULL:  # the working tree side
            try:
                return (repo.workdir / path).read_bytes()
            except FileNotFoundError:
                return None
        return blobs.get(sha)

    entries = []
    for row in rows:
        old = None if row.status == "A" else side(row.old_sha, row.old_path or row.path, False)
        new = side(row.new_sha, row.path, row.status == "D")
        old_tree = repo.tree_path(row.old_path) if row.old_path else None
        if _filler(row.path, old, new):
            continue
        entry = diff_entry(repo.tree_path(row.path) or row.path, old, new, old_path=old_tree)
        if not entry.empty:
            entries.append(entry)
    return DiffReport(base, target, tuple(entries))


def _filler(path: str, old: bytes | None, new: bytes | None) -> bool:
    """True for a ``context.md`` that is generated filler on every side it has.

    Such a file is no knowledge (``tree/generated.py``): it is neither an added nor a changed
    entry. Once edited, its diff shows, like any entry's.
    """
    if path.rsplit("/", 1)[-1] != CONTEXT_FILE:
        return False
    return all(is_generated(side) for side in (old, new) if side is not None)


def _pair_same_content(rows: list[_Raw]) -> list[_Raw]:
    """Pairs an added and a removed file with the same blob (content hash) as a rename.

    This covers the cases git's own detection was off (``diff.renames=false``).
    """
    removed = {r.old_sha: r for r in rows if r.status == "D" and r.old_sha != _NULL}
    out, used = [], set()
    for row in rows:
        if row.status == "A" and row.new_sha in removed and row.new_sha not in used:
            used.add(row.new_sha)
            gone = removed[row.new_sha]
            out.append(_Raw("R", gone.old_sha, row.new_sha, row.path, gone.path))
        elif not (row.status == "D" and row.old_sha in used):
            out.append(row)
    return [r for r in out if not (r.status == "D" and r.old_sha in used)]
