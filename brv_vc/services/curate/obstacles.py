"""Things standing where a curate operation would write, asked of the view (resolve, check).

A folder named like an entry (``a/b/u.md/``) or like a folder's ``context.md``, or a file where
a folder belongs, would otherwise surface as a raw ``IsADirectoryError`` halfway through the
writes (or, for ``context.md``, be skipped without a word). Found before any write, the operation
fails with a message naming the path, and nothing is written (``--dry-run`` and ``--atomic``
see it too).
"""

from __future__ import annotations

from brv_vc.errors import ConflictError
from brv_vc.services.curate.view import View
from brv_vc.tree import layout

_LEVELS = ("domain", "topic", "subtopic")


def check_entry_slot(view: View, rel: str, *, fix: str = "move it away") -> None:
    """Refuses an entry path that is a folder (after the batch's pending effects).

    Args:
        view: the tree as the batch leaves it so far.
        rel: the entry's tree-relative path.
        fix: what the user can do, after "move it away" (such as "or choose another title").

    Raises:
        ConflictError: a folder stands at ``rel``.
    """
    if view.is_dir(rel):
        raise ConflictError(
            f"'{rel}' is a folder, not an entry file; {fix}",
            file=rel,
            key="path",
            hint=f"an entry is a file: move the folder '{rel}' out of the context tree (or "
            "rename it), then run the operation again",
        )


def check_folders(view: View, segments: tuple[str, ...]) -> None:
    """Refuses a new entry's folders when a file stands in for one of them, or for its context.

    Every level ``domain/topic[/subtopic]`` must be a folder (or not exist yet) and its
    ``context.md``, the description brv writes when it creates the folder, must not be a folder.

    Raises:
        ConflictError: the first obstacle, naming its path.
    """
    for depth in range(1, len(segments) + 1):
        folder = "/".join(segments[:depth])
        if view.is_file(folder):
            raise ConflictError(
                f"'{folder}' is a file, not a folder; move it away or choose another path",
                file=folder,
                key="path",
                hint=f"entries live in folders domain/topic[/subtopic]: move the file '{folder}' "
                "out of the context tree, or curate into another folder",
            )
        context = f"{folder}/{layout.CONTEXT_FILE}"
        if view.is_dir(context):
            level = _LEVELS[depth - 1]
            raise ConflictError(
                f"'{context}' is a folder, not the {level}'s context file; move it away",
                file=context,
                key="path",
                hint=f"{layout.CONTEXT_FILE} describes the {level} '{folder}': move the folder "
                f"'{context}' out of the context tree, then run the operation again",
            )
