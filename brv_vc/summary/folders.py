"""``_index.md``: the hierarchical summary of every folder (seed 000 "Hierarchical Summaries").

A folder's children are its ``context.md``, its entries and its sub-folders' ``_index.md``.
``children_hash`` is the sha256 of the sorted ``name`` + content-hash pairs; a folder whose
hash did not change is skipped, so after one change only the changed paths are rewritten,
bottom-up to the root. A folder without children loses its ``_index.md``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from brv_vc.format.frontmatter import quote
from brv_vc.format.tokens import count_tokens
from brv_vc.record import NamedTuple
from brv_vc.summary import extract, folder_text
from brv_vc.summary.budgets import INDEX_TOKENS, Deferred
from brv_vc.summary.digest import digest
from brv_vc.summary.documents import ChildLine, FolderInput
from brv_vc.summary.engine import EXTRACTIVE, Engine, generate
from brv_vc.summary.records import Records, sha
from brv_vc.tree.generated import is_generated
from brv_vc.tree.layout import (
    ABSTRACT_SUFFIX,
    ARCHIVE_DIR,
    MAX_DEPTH,
    OVERVIEW_SUFFIX,
    SUMMARY_FILE,
    Kind,
    ancestors,
    is_derived,
    kind_of,
)
from brv_vc.tree.project import Project

# Prefix of the recorded input hash of a summary written as an extractive draft because the
# provider could not be asked in time: the record never matches, so the next regeneration
# (``brv summarize``) asks the provider again.
DRAFT = "draft:"
_HASH_LINE = re.compile(r'^children_hash:[ \t]*["\']?([0-9a-f]+)["\']?[ \t]*$', re.MULTILINE)
_SAFE_ITEM = re.compile(r"^[A-Za-z0-9_./-]+$")
_SIBLINGS = (ABSTRACT_SUFFIX, OVERVIEW_SUFFIX)  # an entry's derived files: never a child


class IndexReport(NamedTuple):
    """What a regeneration did: files written and removed (tree paths), folders skipped."""

    written: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    skipped: int = 0
    warnings: tuple[str, ...] = ()
    drafts: tuple[str, ...] = ()  # written by the extractive engine for lack of time
    deferred: Deferred | None = None


class _Child(NamedTuple):
    name: str
    data: bytes
    kind: Kind


def index_path(folder: str) -> str:
    """The tree path of a folder's ``_index.md``."""
    return f"{folder}/{SUMMARY_FILE}" if folder else SUMMARY_FILE


def depth(folder: str) -> int:
    """0 for the root, 1 for a domain, 2 for a topic, 3 for a subtopic."""
    return folder.count("/") + 1 if folder else 0


def folders_for(changed: Iterable[str]) -> set[str]:
    """The folders whose summaries a change to ``changed`` may affect (their ancestors)."""
    found: set[str] = set()
    for path in changed:
        path = path.strip("/")
        if not path or path.split("/")[0] == ARCHIVE_DIR or is_derived(path):
            continue
        found.update(ancestors(path))
        if not path.endswith(".md"):
            found.add(path)  # a folder (e.g. a deleted topic)
    return {f for f in found if depth(f) <= MAX_DEPTH}


def all_folders(project: Project) -> set[str]:
    """Every folder of the tree that may hold a summary (not ``_archived``, not hidden)."""
    found = {""}
    stack = [""]
    while stack:
        folder = stack.pop()
        if depth(folder) >= MAX_DEPTH:
            continue
        try:
            items = list(os.scandir(project.tree / folder))
        except OSError:
            continue
        for item in items:
            if item.is_dir(follow_symlinks=False) and not item.name.startswith("."):
                if not folder and item.name == ARCHIVE_DIR:
                    continue
                child = f"{folder}/{item.name}" if folder else item.name
                found.add(child)
                stack.append(child)
    return found


def _children(project: Project, folder: str) -> list[_Child] | None:
    try:
        items = list(os.scandir(project.tree / folder))
    except (FileNotFoundError, NotADirectoryError):
        return None
    children: list[_Child] = []
    for item in items:
        if item.name.startswith("."):
            continue
        if item.is_dir(follow_symlinks=False):
            if (not folder and item.name == ARCHIVE_DIR) or depth(folder) >= MAX_DEPTH:
                continue
            try:
                data = open(os.path.join(item.path, SUMMARY_FILE), "rb").read()  # noqa: SIM115
            except OSError:
                continue
            children.append(_Child(f"{item.name}/{SUMMARY_FILE}", data, Kind.SUMMARY))
        elif (item.name.endswith(".md") and not item.name.endswith(_SIBLINGS)
              and item.is_file(follow_symlinks=False)):  # 2 of a topic's 3 files: no kind_of
            kind = kind_of(f"{folder}/{item.name}" if folder else item.name)
            if kind in (Kind.ENTRY, Kind.CONTEXT):
                with open(item.path, "rb") as handle:
                    children.append(_Child(item.name, handle.read(), kind))
    return sorted(children, key=lambda c: c.name)


def children_hash(children: Iterable[_Child]) -> str:
    """sha256 of the sorted ``name`` + content-hash pairs."""
    lines = sorted(f"{c.name}\0{sha(c.data)}\n" for c in children)
    return sha("".join(lines).encode("utf-8"))


def _headline(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    if text.startswith("---\n"):
        end = text.find("\n---\n", 3)
        text = text[end + 5 :] if end != -1 else text
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            return line.strip()
    return ""


def _purpose(data: bytes) -> str:
    info = digest(data, stem="context")
    if info.summary:
        return extract.clip(info.summary, 300)
    prose = "\n".join(line for line in info.body.splitlines() if not line.startswith("#"))
    first = extract.sentences(prose)
    return extract.clip(first[0], 300) if first else ""


def folder_input(folder: str, children: list[_Child]) -> FolderInput:
    """Builds the engine's input: purpose from ``context.md``, folders first, then entries.

    A generated ``context.md`` nobody edited is filler (``tree/generated.py``): no purpose.
    """
    purpose = ""
    lines: list[ChildLine] = []
    for child in children:
        if child.kind is Kind.CONTEXT and not is_generated(child.data):
            purpose = _purpose(child.data)
        elif child.kind is Kind.SUMMARY:
            name = child.name.split("/")[0]
            text = _headline(child.data)
            count, terms = folder_text.parse_headline(text)
            lines.append(ChildLine(name + "/", name, text, terms, count))
    for child in children:
        if child.kind is Kind.ENTRY:
            info = digest(child.data, stem=child.name[:-3])
            text = info.summary or next(iter(extract.sentences(info.body[:2000])), "")
            terms = tuple(dict.fromkeys([*info.tags, *info.keywords]))
            lines.append(ChildLine(child.name, info.title, text, terms))
    return FolderInput(folder, 3 - depth(folder), purpose, tuple(lines))


def _stored_hash(data: bytes) -> str | None:
    """The ``children_hash`` of a summary's frontmatter (any position, quoted or not)."""
    text = data.decode("utf-8", "replace")
    end = text.find("\n---", 3) if text.startswith("---") else -1
    match = _HASH_LINE.search(text, 0, end) if end > 0 else None
    return match.group(1) if match else None


def _item(name: str) -> str:
    return name if _SAFE_ITEM.match(name) else quote(name)


def render_index(folder: str, children: list[_Child], digest_hash: str, body: str) -> bytes:
    """Returns the bytes of an ``_index.md`` with seed 000's frontmatter, keys in seed order."""
    order = 3 - depth(folder)
    total = sum(count_tokens(c.data.decode("utf-8", "replace")) for c in children)
    body = body.strip("\n") + "\n"
    tokens = count_tokens(body)
    ratio = round(tokens / total, 2) if total else 0.0
    lines = [
        "---",
        f'children_hash: "{digest_hash}"',
        f"compression_ratio: {ratio}",
        f"condensation_order: {order}",
        "covers:",
        *(f"  - {_item(c.name)}" for c in children),
        f"covers_token_total: {total}",
        f"summary_level: d{order}",
        f"token_count: {tokens}",
        "type: summary",
        "---",
        "",
    ]
    return ("\n".join(lines) + "\n" + body).encode("utf-8")


def adopt(project: Project, folders: Iterable[str], records: Records) -> list[str]:
    """Keeps the ``_index.md`` of ``folders`` as current for their children as they are now.

    Trigger: adopting a tree whose summaries another tool (a ByteRover provider) wrote and
    committed together with their children. Why: they are usually LLM-written and far
    richer than brv's extractive text, and their ``children_hash`` was computed by another
    formula, so it cannot be checked. Outcome: each summary is recorded as made for its
    folder's current children, and is rewritten only when they change.

    Returns:
        The summaries kept (tree paths).
    """
    kept = []
    for folder in sorted(folders, key=lambda f: (-depth(f), f)):
        rel = index_path(folder)
        children = _children(project, folder)
        try:
            existing = (project.tree / rel).read_bytes()
        except OSError:
            continue
        if not children or records.get(rel) is not None or b"children_hash" not in existing:
            continue
        records.put(rel, children_hash(children), existing)
        kept.append(rel)
    records.conn.commit()
    return kept


def regenerate(
    project: Project, folders: Iterable[str] | None, engine: Engine, records: Records
) -> IndexReport:
    """Regenerates ``_index.md`` bottom-up for ``folders`` (None: every folder).

    Args:
        project: the project.
        folders: folders to visit (usually :func:`folders_for` of the changed paths).
        engine: the engine writing the bodies.
        records: what brv last wrote (detects hand edits).

    Returns:
        The report; a hand-edited summary is regenerated and named in ``warnings``.
    """
    todo = all_folders(project) if folders is None else set(folders)
    written: list[str] = []
    removed: list[str] = []
    warnings: list[str] = []
    drafts: list[str] = []
    deferred: Deferred | None = None
    skipped = 0
    for folder in sorted(todo, key=lambda f: (-depth(f), f)):
        rel = index_path(folder)
        target = project.tree / rel
        children = _children(project, folder)
        if not children:
            if children is not None and target.exists():
                target.unlink()
                removed.append(rel)
            records.drop(rel)
            continue
        digest_hash = children_hash(children)
        try:
            existing: bytes | None = target.read_bytes()
        except FileNotFoundError:
            existing = None
        suspect = existing is not None and records.edited(rel, target, existing)
        if existing is not None and not suspect:
            record = records.get(rel)
            if record is not None and record.input_hash == digest_hash:
                skipped += 1
                continue
            if record is None and _stored_hash(existing) == digest_hash:
                records.put(rel, digest_hash, existing)  # adopt a file from another run
                skipped += 1
                continue
        info = folder_input(folder, children)
        made_for = digest_hash
        try:
            body = generate(engine, "folder_summary", info, INDEX_TOKENS[info.order]).text
        except Deferred as why:  # a reader needs the summary now: an extractive draft
            deferred = deferred or why
            body = generate(EXTRACTIVE, "folder_summary", info, INDEX_TOKENS[info.order]).text
            made_for = DRAFT + digest_hash
            drafts.append(rel)
        data = render_index(folder, children, digest_hash, body)
        # bytes brv would write now are no hand edit (a run killed before its record)
        if suspect and data != existing:
            warnings.append(f"{rel} was edited by hand; regenerated (it is a derived file)")
        if records.write(target, rel, made_for, data):
            written.append(rel)
    return IndexReport(
        tuple(written), tuple(removed), skipped, tuple(warnings), tuple(drafts), deferred
    )
