"""The git merge driver and diff textconv that ``vc init``/``clone`` register per clone.

git runs them as ``brv merge-driver %O %A %B %P`` and ``brv vc textconv FILE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from brv_vc.errors import FormatError
from brv_vc.tree import generated
from brv_vc.tree.layout import CONTEXT_FILE, TREE_FROM_ROOT
from brv_vc.tree.store import write_atomic
from brv_vc.vc import git, textconv
from brv_vc.vc.merge3 import merge_entries


@dataclass(frozen=True)
class DriverResult:
    """What the driver wrote to ``%A``; git records a conflict when ``conflicts`` is set."""

    path: str
    method: str  # knowledge | generated | line (git merge-file, for files that do not parse)
    conflicts: tuple[str, ...]


def run_merge_driver(base: Path, ours: Path, theirs: Path, path: str) -> DriverResult:
    """Merges ``base``/``ours``/``theirs`` (git's temp files) and writes the result to ``ours``.

    Args:
        base: ``%O``, the ancestor (empty when both sides added the file).
        ours: ``%A``, our version; the merged result is written here.
        theirs: ``%B``, their version.
        path: ``%P``, the file's path in the repository (for messages).
    """
    data_base, data_ours, data_theirs = base.read_bytes(), ours.read_bytes(), theirs.read_bytes()
    settled = None
    if path.rsplit("/", 1)[-1] == CONTEXT_FILE:
        # %P is from the repository's top: in-project (or a project in a sub-folder of
        # it) the tree path follows the last .brv/context-tree/; standalone it is %P itself
        folder = path.rpartition(TREE_FROM_ROOT)[2].rpartition("/")[0]
        settled = generated.merged(data_base, data_ours, data_theirs, folder)
    conflicts: tuple[str, ...] = ()
    if settled is not None:
        merged, method = settled, "generated"
    else:
        merged, conflicts, method = _merged(data_base, data_ours, data_theirs, ours.parent, path)
    write_atomic(ours, merged)
    return DriverResult(path, method, conflicts)


def _merged(data_base: bytes, data_ours: bytes, data_theirs: bytes, folder: Path,
            path: str) -> tuple[bytes, tuple[str, ...], str]:
    """The knowledge-aware merge, or git's line merge for a file that does not parse."""
    try:
        result = merge_entries(data_base or None, data_ours, data_theirs, path=path)
        return result.data, result.conflicts, "knowledge"
    except FormatError:
        merged, clash = git.merge_file(data_ours, data_base, data_theirs, folder)
        return merged, (("(lines)",) if clash else ()), "line"


def render_textconv(file: Path) -> str:
    """The normalised text of a knowledge file, for ``git diff`` (see vc/textconv.py)."""
    return textconv.render(file.read_bytes(), path=file.name)
