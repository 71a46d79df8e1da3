"""Planning one curate operation: what it would write and delete, before anything is touched.

Deciding first means a failed operation changes nothing and ``--atomic`` can check a whole
batch first.

A :class:`~brv_vc.services.curate.view.View` is the tree as it will be after the operations
planned so far; a :class:`Plan` is one operation's effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from brv_vc.errors import ConflictError, FormatError, InvalidPathError, NotFoundError
from brv_vc.format.entry import Entry, conflict_block_line, parse_entry, serialize_entry
from brv_vc.services.curate import content
from brv_vc.services.curate import names as curate_names
from brv_vc.services.curate.contexts import contexts_for
from brv_vc.services.curate.merge import merge_entries, relink, relinked
from brv_vc.services.curate.obstacles import check_entry_slot, check_folders
from brv_vc.services.curate.view import View
from brv_vc.tree import layout, names

MAX_CHARS = 40_000  # seed 002 Table 7: max chars per file
_CONTENT_KEYS = ("content", "rawConcept", "narrative", "facts")
_FIELD_KEYS = ("title", "summary", "tags", "keywords", "related")
_OR_TITLE = "move it away or choose another title"


@dataclass
class Plan:
    """One operation's effect: files to write, paths to delete, sidecar actions to record."""

    action: str  # added | updated | merged | deleted | unchanged
    file: str
    writes: list[tuple[str, bytes]] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)
    sidecar: list[tuple[str, ...]] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    message: str = ""


def plan_op(op: Mapping[str, Any], view: View, now_iso: str) -> Plan:
    """Plans one schema-valid operation against ``view``.

    Raises:
        BrvError: the operation cannot apply (bad path, missing entry, conflict, bad file).
    """
    kind = op["type"]
    if kind == "ADD":
        plan = _plan_add(op, view, now_iso)
    elif kind == "UPDATE":
        plan = _plan_update(op, view, now_iso, _entry_rel(op, view, must_exist=True))
    elif kind == "UPSERT":
        rel = _entry_rel(op, view, must_exist=False)
        plan = (
            _plan_update(op, view, now_iso, rel)
            if view.is_file(rel)
            else _plan_add(op, view, now_iso, rel)
        )
    elif kind == "MERGE":
        plan = _plan_merge(op, view, now_iso)
    else:
        return _plan_delete(op, view)
    _refuse_marker_blocks(plan)
    return plan


def _refuse_marker_blocks(plan: Plan) -> None:
    """Refuses content that every reader would take for an unresolved merge conflict.

    Trigger: the text holds ``<<<<<<<``, ``=======`` and ``>>>>>>>`` at line starts (a git
    how-to, say). Why: ``parse_entry`` refuses such a file, so it would be written and then
    be unreadable. Outcome: nothing is written; the hint says how to keep the example.
    """
    for rel, data in plan.writes:
        line = conflict_block_line(data.decode("utf-8", "replace"))
        if line is not None:
            raise FormatError(
                f"line {line} of {rel} would open a merge-conflict block (<<<<<<< ======= "
                ">>>>>>> at line starts), which brv reads as an unresolved conflict",
                file=rel,
                key="content",
                hint="indent those marker lines by one space (or quote them in a code span), "
                "then run the operation again",
            )


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


def _fields(op: Mapping[str, Any]) -> dict[str, Any]:
    """The frontmatter fields an operation sets (normalised); absent keys are left alone."""
    out: dict[str, Any] = {}
    for name in ("tags", "keywords"):
        if name in op:
            out[name] = content.unique(op[name])
    if "related" in op:
        out["related"] = content.normalise_related(op["related"])
    if "summary" in op:
        out["summary"] = " ".join(op["summary"].split())
    if op.get("title"):
        out["title"] = " ".join(op["title"].split())
    return out


def _check_size(rel: str, body: str) -> None:
    if len(body) > MAX_CHARS:
        raise FormatError(
            f"the entry '{rel}' would be {len(body):,} characters with its section headings; "
            f"the limit is {MAX_CHARS:,}",
            file=rel,
            key="content",
            hint="split the knowledge into several entries (seed 002 caps a file at 40,000)",
        )


def _plan_add(op: Mapping[str, Any], view: View, now_iso: str, rel: str | None = None) -> Plan:
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
    segments = _folder(view, folder)
    check_folders(view, segments)
    expected = "/".join(segments) + "/" + names.entry_filename(name.removesuffix(".md"))
    if expected != rel:  # a new entry given as a file path must follow the naming rules
        raise InvalidPathError(
            f"'{rel}' does not follow the naming rules; a new entry there would be '{expected}'",
            key="path",
            hint="use snake_case names, or give the folder as path plus a title",
        )
    preamble, sections = content.op_sections(op)
    if not preamble.strip() and not sections:
        raise FormatError(
            f"{op['type']} would create '{rel}' with no content; a new entry requires a title "
            "and content",
            file=rel,
            key="content",
            hint='give "content" (or rawConcept, narrative, facts) that is not empty; '
            "on the command line, --content TEXT or --file FILE",
        )
    fields = _fields(op)
    title = fields.pop("title", None) or rel.rsplit("/", 1)[1].removesuffix(".md").replace("_", " ")
    entry = Entry(
        title=title,
        created_at=now_iso,
        updated_at=now_iso,
        body=content.build(preamble, sections),
        **fields,
    )
    _check_size(rel, entry.body)
    plan = Plan("added", rel, sidecar=[("added", rel)], changed=[rel])
    for folder, text in contexts_for(segments, entry):
        if not view.is_dir(folder):
            ctx = f"{folder}/{layout.CONTEXT_FILE}"
            plan.writes.append((ctx, text.encode("utf-8")))
            plan.changed.append(ctx)
    plan.writes.append((rel, serialize_entry(entry)))
    return plan


def _load(view: View, rel: str) -> Entry:
    return parse_entry(view.read(rel), file=rel, stem=rel.rsplit("/", 1)[-1].removesuffix(".md"))


def _plan_update(op: Mapping[str, Any], view: View, now_iso: str, rel: str) -> Plan:
    new_pre, new_sections = _new_content(op, rel)
    old = _load(view, rel)
    old_pre, sections = content.body_sections(old.body)
    sections.update(new_sections)  # sections the op does not mention are kept
    body = content.build(new_pre or old_pre, sections) if (new_pre or new_sections) else old.body
    entry = old.with_changes(body=body, created_at=old.created_at or now_iso, **_fields(op))
    _check_size(rel, entry.body)
    if entry == old:
        return Plan("unchanged", rel, message="no change: the entry already holds this content")
    entry = entry.with_changes(updated_at=now_iso)
    return Plan(
        "updated", rel, [(rel, serialize_entry(entry))], sidecar=[("updated", rel)], changed=[rel]
    )


def _new_content(op: Mapping[str, Any], rel: str) -> tuple[str, dict[str, str]]:
    """The content an UPDATE brings, refusing one that changes nothing or empties the entry.

    Raises:
        FormatError: no field to change, or content keys that are all blank.
    """
    if not any(key in op for key in (*_CONTENT_KEYS, *_FIELD_KEYS)):
        raise FormatError(
            f"{op['type']} of '{rel}' gives nothing to change",
            file=rel,
            key="content",
            hint='give "content" (or rawConcept, narrative, facts), "title", "summary", "tags", '
            '"keywords" or "related"',
        )
    pre, sections = content.op_sections(op)
    if any(key in op for key in _CONTENT_KEYS) and not pre.strip() and not sections:
        raise FormatError(
            f"{op['type']} of '{rel}' gives empty content; it would leave the entry without "
            "content",
            file=rel,
            key="content",
            hint="give the new text, or leave the content keys out to keep it; to remove the "
            "entry, DELETE it",
        )
    return pre, sections


def _plan_merge(op: Mapping[str, Any], view: View, now_iso: str) -> Plan:
    source = _existing_entry(op["path"], view, "source")
    target = _existing_entry(op["target"], view, "target")
    if source == target:
        raise ConflictError(
            f"MERGE source and target are the same entry '{source}'",
            key="target",
            hint="give the entry to merge into as target",
        )
    merged = merge_entries(_load(view, target), _load(view, source), now_iso)
    merged = relink(relink(merged, source, None), target, None)  # no self or dangling link
    _check_size(target, merged.body)
    plan = Plan(
        "merged",
        target,
        writes=[(target, serialize_entry(merged))],
        deletes=[source],
        sidecar=[("move", source, target), ("updated", target)],
        changed=[target, source],
        message=f"merged {source} into {target}",
    )
    for rel, data in relinked(view, source, target):
        plan.writes.append((rel, data))
        plan.changed.append(rel)
    return plan


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


def _plan_delete(op: Mapping[str, Any], view: View) -> Plan:
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
        return Plan("deleted", rel, deletes=[rel], sidecar=[("delete", rel)], changed=[rel])
    if not view.is_dir(rel):
        raise NotFoundError(
            f"no folder at '{rel}' to delete", file=rel, hint="check the path with 'brv tree'"
        )
    gone = _files_under(view, rel)
    entries = sum(1 for g in gone if layout.kind_of(g) is layout.Kind.ENTRY)
    return Plan(
        "deleted",
        rel,
        deletes=[rel],
        sidecar=[("delete_prefix", rel)],
        changed=gone,
        message=f"deleted folder {rel} ({entries} entries)",
    )


def _files_under(view: View, rel: str) -> list[str]:
    root = view.path(rel)
    found = (
        {f"{rel}/{p.relative_to(root).as_posix()}" for p in root.rglob("*") if p.is_file()}
        if root.is_dir()
        else set()
    )
    found.update(w for w in view.written if w.startswith(rel + "/"))
    return sorted(f for f in found if not view.is_gone(f) or f in view.written)
