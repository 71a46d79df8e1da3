"""Curate stage 2, resolve: an operation's paths, and the entries it touches, on the view.

Every question about names and paths is asked here, once (``tree/layout``, ``tree/names``
and ``names.py`` beside this module: a title finds its entry by the title the file records):
where a new entry goes, whether a given file path follows the naming rules, whether the entry exists, and what
stands at its path. A folder standing where the entry should be is refused here, before the
entry's existence is asked, so an UPDATE of it says "is a folder", not "no entry".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from brv_vc.errors import ConflictError, FormatError, InvalidPathError, NotFoundError
from brv_vc.services.curate import names as curate_names
from brv_vc.services.curate.obstacles import check_entry_slot
from brv_vc.services.curate.plan import Target
from brv_vc.services.curate.view import View
from brv_vc.tree import layout, names

_OR_TITLE = "move it away or choose another title"


def resolve(op: Mapping[str, Any], view: View) -> Target:
    """Resolves one schema-valid operation against ``view`` (the tree as the batch leaves it).

    Raises:
        BrvError: a bad path, a missing or existing entry, a folder in the entry's place, or an
            entry file that cannot be read.
    """
    kind = op["type"]
    if kind == "ADD":
        return _new_entry(op, view)
    if kind == "UPDATE":
        return _existing(_entry_rel(op, view, must_exist=True), view)
    if kind == "UPSERT":
        rel = _entry_rel(op, view, must_exist=False)
        return _existing(rel, view) if view.is_file(rel) else _new_entry(op, view, rel)
    if kind == "MERGE":
        return _merge(op, view)
    return _delete(op, view)


def _folder(view: View, path: str) -> tuple[str, ...]:
    """Resolves ``domain/topic[/subtopic]``: an existing, well-named folder is used as is.

    That keeps a ByteRover tree's kebab-case folders working; a new folder is snake_cased.
    """
    clean = layout.clean_relpath(path, what="folder")
    parts = tuple(clean.split("/"))
    depth_ok = 2 <= len(parts) <= layout.MAX_DEPTH
    well_named = depth_ok and all(map(layout.is_valid_folder_name, parts))
    if well_named and view.is_dir(clean):
        return parts
    return layout.folder_segments(clean)


def _entry_rel(op: Mapping[str, Any], view: View, *, must_exist: bool) -> str:
    path: str = op["path"]
    if path.strip().endswith(".md"):
        rel = layout.clean_relpath(path, what="entry path")
        if layout.kind_of(rel) is not layout.Kind.ENTRY:
            raise InvalidPathError(
                f"'{path}' is not a knowledge entry path",
                hint="give domain/topic/entry.md or domain/topic/subtopic/entry.md",
            )
    elif op.get("title"):
        folder = "/".join(_folder(view, path))
        if must_exist:
            rel = curate_names.existing(view, folder, op["title"], "update")
        else:
            rel = curate_names.find_slot(view, folder, op["title"]).rel
    else:
        raise FormatError(
            f"{op['type']} of folder '{path}' needs a title",
            key="title",
            hint='add "title": "..." or give the entry path domain/topic/entry.md',
        )
    view.path(rel)  # refuses symlinks that lead out of the tree
    check_entry_slot(
        view, rel, fix="move it away" if path.strip().endswith(".md") else _OR_TITLE
    )
    if must_exist and not view.is_file(rel):
        raise NotFoundError(
            f"no entry at '{rel}' to update",
            file=rel,
            hint="use ADD or UPSERT to create it; 'brv tree' lists the entries",
        )
    return rel


def _new_entry(op: Mapping[str, Any], view: View, rel: str | None = None) -> Target:
    if rel is None:
        if op["path"].strip().endswith(".md"):
            raise InvalidPathError(
                f"ADD takes a folder path and a title, not the file '{op['path']}'",
                key="path",
                hint='write path: domain/topic and title: "...", or use UPSERT with the file',
            )
        slot = curate_names.find_slot(view, "/".join(_folder(view, op["path"])), op["title"])
        rel = slot.rel
        view.path(rel)
        check_entry_slot(view, rel, fix=_OR_TITLE)
        if slot.exists:
            raise ConflictError(
                f"'{rel}' already exists with the title {names.normal_title(op['title'])!r}; "
                "use UPDATE or UPSERT, or give a different title",
                file=rel,
                key="title",
                hint="use UPSERT (or UPDATE) to change that entry, or give a different title",
            )
    if view.is_file(rel):
        raise ConflictError(
            f"'{rel}' already exists; use UPDATE or UPSERT",
            file=rel,
            hint="UPDATE replaces an existing entry's content; UPSERT adds or updates",
        )
    folder, _, name = rel.rpartition("/")
    layout.refuse_windows_name(name, rel)  # nul.md, com1.md: a Windows clone fails on them
    segments = _folder(view, folder)
    expected = "/".join(segments) + "/" + names.entry_filename(name.removesuffix(".md"))
    if expected != rel:  # a new entry given as a file path must follow the naming rules
        raise InvalidPathError(
            f"'{rel}' does not follow the naming rules; a new entry there would be '{expected}'",
            key="path",
            hint="use snake_case names, or give the folder as path plus a title",
        )
    return Target("add", rel, segments=segments)


def _existing(rel: str, view: View) -> Target:
    return Target("update", rel, entry=view.entry(rel))


def _merge(op: Mapping[str, Any], view: View) -> Target:
    source = _existing_entry(op["path"], view, "source")
    target = _existing_entry(op["target"], view, "target")
    if source == target:
        raise ConflictError(
            f"MERGE source and target are the same entry '{source}'",
            key="target",
            hint="give the entry to merge into as target",
        )
    return Target(
        "merge", target, entry=view.entry(target), source=source, source_entry=view.entry(source)
    )


def _existing_entry(path: str, view: View, role: str) -> str:
    rel = layout.clean_relpath(path, what=f"{role} path")
    if layout.kind_of(rel) is not layout.Kind.ENTRY:
        raise InvalidPathError(
            f"MERGE {role} '{path}' is not a knowledge entry path",
            key="path" if role == "source" else "target",
            hint="give the full entry path, such as domain/topic/entry.md",
        )
    view.path(rel)
    check_entry_slot(view, rel)
    if not view.is_file(rel):
        raise NotFoundError(
            f"MERGE {role} entry '{rel}' not found",
            file=rel,
            hint="check the path with 'brv tree'",
        )
    return rel


def _delete(op: Mapping[str, Any], view: View) -> Target:
    path: str = op["path"]
    if op.get("title") and not path.strip().endswith(".md"):
        folder = layout.clean_relpath(path, what="folder")
        path = curate_names.existing(view, folder, op["title"], "delete")
    rel = layout.clean_relpath(path)
    view.path(rel)
    if rel.split("/")[0].startswith("_"):
        raise InvalidPathError(
            f"'{rel}' is derived by brv, not knowledge; it cannot be curated",
            hint="delete entries or folders of domain/topic[/subtopic]",
        )
    if rel.endswith(".md"):
        if layout.kind_of(rel) is not layout.Kind.ENTRY:
            raise InvalidPathError(
                f"'{rel}' is not a knowledge entry",
                hint="DELETE takes an entry path or a domain/topic[/subtopic] folder",
            )
        check_entry_slot(view, rel)
        if not view.is_file(rel):
            raise NotFoundError(
                f"no entry at '{rel}' to delete", file=rel, hint="check the path with 'brv tree'"
            )
        return Target("delete_entry", rel)
    if not view.is_dir(rel):
        raise NotFoundError(
            f"no folder at '{rel}' to delete", file=rel, hint="check the path with 'brv tree'"
        )
    gone = view.files_under(rel)
    entries = sum(1 for g in gone if layout.kind_of(g) is layout.Kind.ENTRY)
    return Target("delete_folder", rel, files=tuple(gone), entries=entries)
