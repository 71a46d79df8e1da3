"""Which files of a commit, the index or the work tree hold a conflict block: one ``git grep``.

``git grep --all-match`` with the marker rule's own patterns (``format/conflicts.py``)
names the files where all three marker runs begin a line and prints those lines with their
numbers; the rule itself (``block_start``) then decides on those lines alone, so a file is
refused by a push exactly when the pre-commit check or ``vc add`` would refuse its bytes.
"""

from __future__ import annotations

from brv_vc.errors import GitError
from brv_vc.format.conflicts import GREP_PATTERNS, block_start
from brv_vc.vc.git.process import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def files_with_conflicts(workdir: Path, where: str, paths: Sequence[str]) -> dict[str, int]:
    """Repository paths holding a conflict block -> the line opening it.

    Args:
        workdir: the repository's work tree.
        where: ``"worktree"``, ``"index"`` or a commit.
        paths: the pathspec (``["--", ...]``).

    Raises:
        GitError: ``git grep`` failed (a match and no match are both normal).
    """
    scope = [] if where == "worktree" else ["--cached"] if where == "index" else [where]
    patterns = [arg for pattern in GREP_PATTERNS for arg in ("-e", pattern)]
    proc = run(["grep", "-n", "-z", "-I", "--all-match", *patterns, *scope, *paths],
                   workdir, check=False)
    if proc.returncode not in (0, 1):
        raise GitError(f"git grep failed: {proc.stderr.strip()}")
    prefix = "" if not scope or scope == ["--cached"] else where + ":"
    lines: dict[str, list[tuple[int, str]]] = {}
    for record in proc.stdout.split("\n"):
        name, _, rest = record.partition("\0")
        number, _, text = rest.partition("\0")
        if number.isdigit():  # a record cut by a lone CR in a line has none: not a marker
            lines.setdefault(name.removeprefix(prefix), []).append((int(number), text))
    found = {name: block_start(marked) for name, marked in lines.items()}
    return {name: line for name, line in found.items() if line is not None}
