"""Curate stage 3, build: the bytes an operation writes, from its resolved :class:`Target`.

Pure text work on entries (``content``, ``merge``); the view is only read, for the folders an
ADD creates (each gets the generated ``context.md`` of ``tree/generated.py``) and for the
entries a MERGE relinks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from brv_vc.errors import BrvError, FormatError
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.lifecycle.curate_log import delete_folder_message, delete_message, merge_message
from brv_vc.services.curate import content
from brv_vc.services.curate.merge import merge_entries, relink
from brv_vc.services.curate.plan import Plan, Target
from brv_vc.services.curate.view import View
from brv_vc.tree.generated import context_text
from brv_vc.tree.layout import CONTEXT_FILE
from brv_vc.tree.links import read_regular

_CONTENT_KEYS = ("content", "rawConcept", "narrative", "facts")
_FIELD_KEYS = ("title", "summary", "tags", "keywords", "related")


def build(op: Mapping[str, Any], target: Target, view: View, now_iso: str) -> Plan:
    """Builds the plan of one operation resolved to ``target``.

    Raises:
        FormatError: the operation brings no content, or content that would empty the entry.
    """
    if target.kind == "add":
        return _add(op, target, view, now_iso)
    if target.kind == "update":
        return _update(op, target, now_iso)
    if target.kind == "merge":
        return _merge(target, view, now_iso)
    rel = target.rel
    if target.kind == "delete_entry":
        return Plan("deleted", rel, deletes=(rel,), sidecar=(("delete", rel),), changed=(rel,),
                    message=delete_message(rel))
    return Plan(
        "deleted",
        rel,
        deletes=(rel,),
        sidecar=(("delete_prefix", rel),),
        changed=target.files,
        message=delete_folder_message(rel, target.entries),
    )


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


def _add(op: Mapping[str, Any], target: Target, view: View, now_iso: str) -> Plan:
    rel = target.rel
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
    created = op.get("createdAt") or now_iso  # an import keeps the note's own dates
    entry = Entry(
        title=title,
        created_at=created,
        updated_at=op.get("updatedAt") or created,
        body=content.build(preamble, sections),
        **fields,
    )
    writes: list[tuple[str, bytes]] = []
    for depth in range(1, len(target.segments) + 1):
        folder = "/".join(target.segments[:depth])
        if not view.is_dir(folder):
            writes.append((f"{folder}/{CONTEXT_FILE}", context_text(folder).encode("utf-8")))
    contexts = tuple(ctx for ctx, _ in writes)
    writes.append((rel, serialize_entry(entry)))
    return Plan(
        "added", rel, tuple(writes), sidecar=(("added", rel),), changed=(rel, *contexts),
        entry=entry,
    )


def _update(op: Mapping[str, Any], target: Target, now_iso: str) -> Plan:
    rel, old = target.rel, target.entry
    assert old is not None
    new_pre, new_sections = _new_content(op, rel)
    old_pre, sections = content.body_sections(old.body)
    sections.update(new_sections)  # sections the op does not mention are kept
    body = content.build(new_pre or old_pre, sections) if (new_pre or new_sections) else old.body
    entry = old.with_changes(body=body, created_at=old.created_at or now_iso, **_fields(op))
    if entry == old:
        return Plan(
            "unchanged", rel, message="no change: the entry already holds this content",
            entry=entry,
        )
    entry = entry.with_changes(updated_at=op.get("updatedAt") or now_iso)
    return Plan(
        "updated", rel, ((rel, serialize_entry(entry)),), sidecar=(("updated", rel),),
        changed=(rel,), entry=entry,
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


def _merge(target: Target, view: View, now_iso: str) -> Plan:
    source, into = target.source, target.rel
    assert target.entry is not None
    assert target.source_entry is not None
    merged = merge_entries(target.entry, target.source_entry, now_iso)
    merged = relink(relink(merged, source, None), into, None)  # no self or dangling link
    relinked = _relinked(view, source, into)
    return Plan(
        "merged",
        into,
        writes=((into, serialize_entry(merged)), *relinked),
        deletes=(source,),
        sidecar=(("move", source, into), ("updated", into)),
        changed=(into, source, *(rel for rel, _ in relinked)),
        message=merge_message(source, into),
        entry=merged,
    )


def _relinked(view: View, source: str, target: str) -> list[tuple[str, bytes]]:
    """Entries that link to ``source``, rewritten to link to ``target`` (seed 002: MERGE).

    A link fix, not new knowledge: ``updatedAt`` and the scoring signals stay. An entry that
    cannot be read is left alone (it is not this MERGE's to repair). Only the entries the
    search index says link to ``source`` are read (:meth:`View.linking_to`).
    """
    needle = source.lower().encode("utf-8")
    out = []
    for rel in view.linking_to(source):
        if rel in (source, target):
            continue
        # a plain read for the substring test: view.read resolves symlinks (a dozen lstat
        # calls a file) and most entries never mention the source; matches go through it
        data = view.written.get(rel)
        if data is None:
            try:  # never blocks on a FIFO named like an entry, never follows a link
                data = read_regular(view.project.tree / rel, file=rel)
            except (OSError, BrvError):
                continue
        if needle not in data.lower():
            continue
        try:
            entry = view.entry(rel)
        except BrvError:
            continue
        fixed = relink(entry, source, target)
        if fixed != entry:
            out.append((rel, serialize_entry(fixed)))
    return out
