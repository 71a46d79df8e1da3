"""Which file holds the entry of a given title in a folder, or which file a new one takes.

``tree/names.py`` gives the candidate names; here the titles recorded in the candidates
decide. An entry is the one whose frontmatter title is exactly the given title (whitespace
runs folded), whatever name it got: its preferred name, a hashed one, or a name an earlier
version of brv gave it. A new title takes the first candidate name that is free.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc.errors import BrvError, ConflictError, NotFoundError
from brv_vc.format.entry import parse_entry
from brv_vc.services.curate.view import View
from brv_vc.tree import names
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class Slot:
    """Where the entry of a title is (``exists``) or would be written."""

    rel: str
    exists: bool
    # an entry at the title's preferred name that holds another title (for messages)
    neighbour: tuple[str, str] | None = None


def _title_at(view: View, rel: str) -> str | None:
    """The recorded title of the entry at ``rel`` (whitespace folded); None if unreadable."""
    stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
    try:
        return names.normal_title(parse_entry(view.read(rel), file=rel, stem=stem).title)
    except BrvError:
        return None


def find_slot(view: View, folder: str, title: str) -> Slot:
    """Resolves ``title`` in ``folder`` (a clean ``domain/topic[/subtopic]``).

    A file at the title's preferred name that cannot be read is
    taken to be the entry, so its parse error, not a second file, is what the user sees.

    Raises:
        ConflictError: every candidate name is taken by other titles (a hash collision).
    """
    wanted = names.normal_title(title)
    neighbour = None
    own = names.preferred_name(wanted)
    for name in names.lookup_names(wanted):
        rel = f"{folder}/{name}"
        if not view.is_file(rel):
            continue
        found = _title_at(view, rel)
        if found == wanted or (found is None and name == own):
            return Slot(rel, True)
        if neighbour is None and found is not None:
            neighbour = (rel, found)
    for name in names.new_names(wanted):
        rel = f"{folder}/{name}"
        if not view.is_file(rel):  # a folder standing there is reported by the caller
            return Slot(rel, False, neighbour)
    raise ConflictError(
        f"every file name for the title {wanted!r} in '{folder}' is taken by other titles",
        key="title",
        hint="give the entry a different title",
    )


def existing(view: View, folder: str, title: str, what: str) -> str:
    """The entry titled ``title`` in ``folder``, for UPDATE and DELETE.

    Raises:
        NotFoundError: no entry of the folder has exactly this title (naming the entry that
            holds the title's file name, when one does).
    """
    slot = find_slot(view, folder, title)
    if slot.exists or view.is_dir(slot.rel):  # the caller refuses a folder standing there
        return slot.rel
    wanted = names.normal_title(title)
    if slot.neighbour is not None:
        rel, other = slot.neighbour
        raise NotFoundError(
            f"no entry titled {wanted!r} in '{folder}' to {what}; '{rel}' is titled {other!r}",
            file=rel,
            key="title",
            hint=f"give the exact title ({other!r}) or the entry path '{rel}'",
        )
    raise NotFoundError(
        f"no entry titled {wanted!r} in '{folder}' to {what}",
        file=slot.rel,
        key="title",
        hint="use ADD or UPSERT to create it; 'brv tree' lists the entries and their titles",
    )


def entry_titled(project: Project, folder: str, title: str) -> str:
    """The entry titled ``title`` in ``folder`` as the tree is now (``brv show --title``).

    Raises:
        NotFoundError: no entry of the folder has exactly this title.
    """
    return existing(View(project), folder, title, "show")
