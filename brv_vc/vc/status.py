"""Parsing ``git status --porcelain=v2 --branch -z`` into values (pure, no git calls)."""

from __future__ import annotations

from brv_vc.record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

CHANGE_NAMES = {
    "M": "modified", "A": "added", "D": "deleted", "R": "renamed", "C": "copied",
    "T": "typechange",
}
CONFLICT_NAMES = {
    "DD": "both deleted", "AU": "added by us", "UD": "deleted by them", "UA": "added by them",
    "DU": "deleted by us", "AA": "both added", "UU": "both modified",
}
# a modify/delete: the conflicts brv's fold of an entry MERGEd away may settle (merged_away)
MODIFY_DELETE = (CONFLICT_NAMES["DU"], CONFLICT_NAMES["UD"])


# NamedTuples, not dataclasses: 'brv vc status' is budgeted against 'git status', and
# dataclasses (with inspect) costs ~15 ms of CPU to import
class Change(NamedTuple):
    """One changed path: ``change`` is modified/added/deleted/renamed...; ``old`` for renames."""

    change: str
    path: str
    old: str | None = None


class ParsedStatus(NamedTuple):
    """The porcelain output as values; paths are tree-relative."""

    branch: str = "HEAD"
    initial: bool = False
    upstream: str | None = None
    ahead: int = 0
    behind: int = 0
    staged: tuple[Change, ...] = ()
    unstaged: tuple[Change, ...] = ()
    untracked: tuple[str, ...] = ()
    conflicts: tuple[Change, ...] = ()
    oid: str = ""  # the HEAD commit ("" before the first commit)


def parse_porcelain(raw: str, to_tree: Callable[[str], str | None]) -> ParsedStatus:
    """Parses porcelain v2 ``-z`` output.

    Args:
        raw: git's stdout.
        to_tree: repository path -> tree path (None drops paths outside the tree).
    """
    info: dict[str, str] = {}
    staged: list[Change] = []
    unstaged: list[Change] = []
    untracked: list[str] = []
    conflicts: list[Change] = []
    records = raw.split("\0")
    index = 0
    while index < len(records):
        record = records[index]
        index += 1
        if not record:
            continue
        if record.startswith("# "):
            key, _, value = record[2:].partition(" ")
            info[key] = value
            continue
        kind = record[0]
        if kind == "?":
            path = to_tree(record[2:])
            if path is not None:
                untracked.append(path)
            continue
        if kind == "1":
            fields = record.split(" ", 8)
            xy, repo_path, old = fields[1], fields[8], None
        elif kind == "2":
            fields = record.split(" ", 9)
            xy, repo_path, old = fields[1], fields[9], records[index]
            index += 1
        elif kind == "u":
            fields = record.split(" ", 10)
            path = to_tree(fields[10])
            if path is not None:
                conflicts.append(Change(CONFLICT_NAMES.get(fields[1], "unmerged"), path))
            continue
        else:
            continue
        path = to_tree(repo_path)
        if path is None:
            continue
        old_tree = to_tree(old) if old else None
        if xy[0] != ".":
            staged.append(Change(CHANGE_NAMES.get(xy[0], xy[0]), path, old_tree))
        if xy[1] != ".":
            unstaged.append(Change(CHANGE_NAMES.get(xy[1], xy[1]), path))
    ahead = behind = 0
    if "branch.ab" in info:
        plus, _, minus = info["branch.ab"].partition(" ")
        ahead, behind = int(plus.lstrip("+")), int(minus.lstrip("-"))
    head = info.get("branch.head", "HEAD")
    return ParsedStatus(
        branch="HEAD" if head == "(detached)" else head,
        initial=info.get("branch.oid") == "(initial)",
        oid="" if info.get("branch.oid", "(initial)") == "(initial)" else info["branch.oid"],
        upstream=info.get("branch.upstream"),
        ahead=ahead,
        behind=behind,
        staged=tuple(staged),
        unstaged=tuple(unstaged),
        untracked=tuple(untracked),
        conflicts=tuple(conflicts),
    )
