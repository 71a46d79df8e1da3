"""Where teams look: the knowledge that describes the code a commit, a pull or a diff touches.

The hooks and ``brv vc diff`` name the entries linked to changed code files
(``services.code_links``) that the same change does not update: a commit that rewrites
``src/auth/jwt.ts`` without touching ``auth/jwt/tokens.md`` leaves that entry describing old
code. Everything here starts from the paths git says changed and the index's links table,
never from the whole tree: the pre-commit note's budget is 50 ms at 25,000 entries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from brv_vc.record import NamedTuple
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo
from brv_vc.words import agree, plural

TYPE_CHECKING = False

if TYPE_CHECKING:  # the staged check's module reads YAML: post-merge never imports it
    from brv_vc.services.vc.checks import StagedProblem

SHOWN = 10  # lines of a hook note before "... and N more"
_VERBS = {"A": "added", "D": "deleted", "R": "renamed"}
BLOCK_KEY = "code_links.on_commit"


class CodeLink(NamedTuple):
    """A changed code file and the entries linked to it that the change leaves as they were."""

    path: str  # repository-relative
    change: str  # git's letter: A, M, D, T, R
    entries: tuple[str, ...]  # tree-relative entry paths
    renamed_to: str | None = None


class CodeKnowledge(NamedTuple):
    """The section "Knowledge about the code this change touches" of a diff."""

    stale: tuple[CodeLink, ...]  # linked entries the change does not update
    updated: tuple[CodeLink, ...]  # linked entries the change updates too: re-read them

    @property
    def empty(self) -> bool:
        """True when the change touches no linked code."""
        return not self.stale and not self.updated


def is_code(path: str) -> bool:
    """A repository path that is code, not brv's own (``.brv/`` holds the tree and state)."""
    return not (path.startswith(".brv/") or "/.brv/" in path)


def split_links(project: Project, workdir: Path, changed: Mapping[str, str],
                edited: Iterable[str], renames: Mapping[str, str] | None = None
                ) -> CodeKnowledge:
    """The entries linked to ``changed`` code files, split by whether ``edited`` has them.

    Args:
        project: the project.
        workdir: the top of the code repository's work tree.
        changed: repository path -> git's change letter, code files only.
        edited: tree paths of the entries the same change adds, modifies or removes.
        renames: old repository path -> new one, when git detected renames.
    """
    if not changed:
        return CodeKnowledge((), ())
    linked = linked_entries(project, workdir, sorted(changed))
    done = set(edited)
    stale, updated = [], []
    for path in sorted(linked):
        entries = linked[path]
        if not entries:
            continue
        moved = (renames or {}).get(path)
        left = tuple(e for e in entries if e not in done)
        kept = tuple(e for e in entries if e in done)
        if left:
            stale.append(CodeLink(path, changed[path], left, moved))
        if kept:
            updated.append(CodeLink(path, changed[path], kept, moved))
    return CodeKnowledge(tuple(stale), tuple(updated))


def linked_entries(project: Project, workdir: Path, paths: list[str]
                   ) -> dict[str, tuple[str, ...]]:
    """``code_links.linked_entries`` from the index as it is, without bringing it in step.

    Trigger: every commit that stages code. Why: the face's ``with_index`` checks the whole
    tree for changes first (~0.5 s at 25,000 entries), against the note's 50 ms; the hooks
    refresh the entries a commit or a pull changes before asking. Outcome: one query of the
    index's links table for all the paths, by the rule ``brv about`` follows
    (``code_links.concern``: the paths, their former names, Files: folders around them);
    with no index yet, the face (which builds it).
    """
    import os
    import sqlite3

    from brv_vc.services.code_links import concerned
    from brv_vc.tree.statedb import index_db_path

    db = index_db_path(project)
    if not db.is_file():
        from brv_vc.services import code_links

        return code_links.linked_entries(project, paths)
    top = workdir.resolve()
    base = Path(os.path.relpath(project.root.resolve(), top)).as_posix()
    conn = sqlite3.connect(db)
    try:
        return concerned(conn, top, "" if base == "." else base, project.state, paths)
    finally:
        conn.close()


def _verb(link: CodeLink) -> str:
    if link.renamed_to:
        return f"renamed to {link.renamed_to}"
    return _VERBS.get(link.change, "changed")


def commit_lines(links: Iterable[CodeLink]) -> list[str]:
    """One line per staged code file whose knowledge the commit leaves out."""
    return [f"{link.path} {_verb(link)}; knowledge that describes it: "
            f"{', '.join(link.entries)} (not in this commit)" for link in links]


Moves = list[tuple[str, str, str, str, str]]  # git.staged_moves rows


def staged_code(workdir: Path, index_file: str | None, prefix: str,
                moves: Moves | None = None) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """(staged code path -> letter, renames, staged tree paths): one ``git diff --cached``.

    ``prefix`` is the tree's path in the repository ("" when the repository holds no tree:
    the code repository of standalone mode). ``moves``: the staged change the hook listed
    already (``git.staged_moves``), not listed again.
    """
    if moves is None:
        moves = git.staged_moves(workdir, index_file)
    code, renames, every = _by_letter(moves)
    return code, renames, _tree_paths(every, prefix)


def _tree_paths(every: set[str], prefix: str) -> set[str]:
    """The tree paths among repository paths (none when the repository holds no tree)."""
    head = prefix + "/" if prefix else None
    return {p[len(head):] for p in every if head and p.startswith(head)}


def commit_note(project: Project, workdir: Path, index_file: str | None,
                prefix: str, moves: Moves | None = None
                ) -> tuple[str, tuple[CodeLink, ...], str | None]:
    """The pre-commit hook's step: (on_commit mode, staged code left without its knowledge, a warning).

    The warning is about a bad ``code_links.on_commit`` value (then ``warn`` is used).
    ``off`` reads nothing but the config; otherwise one ``git diff --cached`` (none when
    ``moves`` gives it) and one query of the links table for the staged code paths.
    """
    from brv_vc.tree.config import code_links_on_commit

    mode, warning = code_links_on_commit(project)
    if mode == "off":
        return mode, (), warning
    code, renames, tree = staged_code(workdir, index_file, prefix, moves)
    found = split_links(project, workdir, code, tree, renames)
    return mode, tuple(link for link in found.stale if link.change != "A"), warning


def note_text(links: tuple[CodeLink, ...]) -> str:
    """The warn-mode note: what the commit leaves out, then how to act on it."""
    lines = commit_lines(links[:SHOWN])
    if len(links) > SHOWN:
        lines.append(f"... and {len(links) - SHOWN} more code files with knowledge not in this "
                     "commit")
    return "\n  ".join([*lines, "update the entries in this commit if the change makes them "
                                "wrong ('brv about PATH' shows them; "
                                "code_links.on_commit: off silences this note)"])


def changed_code(workdir: Path, old: str, new: str) -> tuple[dict[str, str], dict[str, str],
                                                              set[str]]:
    """(code path -> letter, renames old -> new, all changed repository paths) of old..new.

    One ``git diff --raw -M``: a rename's old path is marked ``R`` (its entries
    name it), the new one ``A``.
    """
    moves: Moves = [(letter, path, "", "", source if letter in "RC" else "")
                    for letter, source, path, _, _ in git.compare(workdir, old, new)]
    return _by_letter(moves)


def _by_letter(moves: Moves) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """(code path -> letter, renames old -> new, all changed paths) of a change's rows."""
    code: dict[str, str] = {}
    renames: dict[str, str] = {}
    every: set[str] = set()
    for letter, path, _, _, source in moves:
        every.add(path)
        if letter in "RC":
            every.add(source)
            if letter == "R" and is_code(source):
                code[source], renames[source] = "R", path
            if is_code(path):
                code[path] = "A"
        elif is_code(path):
            code[path] = letter
    return code, renames, every


def range_knowledge(project: Project, workdir: Path, prefix: str, old: str,
                    new: str) -> CodeKnowledge:
    """The entries linked to the code ``old..new`` changed, split by whether it updates them.

    An added file is left out of "stale" (knowledge about a file that did not exist cannot
    describe an older version of it) but kept among the updated ones.
    """
    code, renames, every = changed_code(workdir, old, new)
    found = split_links(project, workdir, code, _tree_paths(every, prefix), renames)
    return found._replace(stale=tuple(link for link in found.stale if link.change != "A"))


def pull_note(found: CodeKnowledge, what: str = "pull") -> str:
    """The post-merge report: the knowledge the pull (or a rebase) made stale, a few lines."""
    entries: dict[str, list[str]] = {}
    for link in found.stale:
        for entry in link.entries:
            entries.setdefault(entry, []).append(f"{link.path} {_verb(link)}")
    n = len(entries)
    lines = [f"this {what} changed code that {plural(n, 'entry', 'entries')} "
             f"{agree(n, 'describes', 'describe')}; {agree(n, 'it', 'they')} may be stale:"]
    for entry in sorted(entries)[:SHOWN]:
        lines.append(f"{entry} ({'; '.join(entries[entry][:3])}"
                     f"{'; ...' if len(entries[entry]) > 3 else ''})")
    if len(entries) > SHOWN:
        lines.append(f"... and {len(entries) - SHOWN} more")
    lines.append("see 'brv stale' for all stale knowledge, 'brv about PATH' for one file")
    return "\n  ".join(lines)


def code_knowledge(project: Project, repo: KnowledgeRepo, spec: str | None) -> CodeKnowledge:
    """``brv vc diff A..B``'s section "Knowledge about the code this change touches".

    In-project mode only (a standalone tree's commits hold no code) and only for a commit
    range (``A..B``); anything else has no section.
    """
    if not repo.in_project or not spec or ".." not in spec or "..." in spec:
        return CodeKnowledge((), ())
    old, new = (side or "HEAD" for side in spec.split("..", 1))
    return range_knowledge(project, repo.workdir, repo.prefix, old, new)


def pull_notices(project: Project, repo: KnowledgeRepo, old: str | None,
                 new: str | None, changed: Collection[str] | None = None) -> tuple[str, ...]:
    """``brv vc pull``'s report of the knowledge it made stale (in-project: the same repository).

    As the post-merge hook's (which a ``brv vc pull`` skips: it runs the step itself); a
    failure says nothing (the pull is done). ``changed``: the repository paths ``old..new``
    changes, when the caller diffed already: no code among them, nothing to report (a rename
    pairs changed paths too).
    """
    if not repo.in_project or not old or not new or old == new:
        return ()
    if changed is not None and not any(map(is_code, changed)):
        return ()
    try:
        found = range_knowledge(project, repo.workdir, repo.prefix, old, new)
    except Exception:
        return ()
    return (pull_note(found),) if found.stale else ()


class CommitStep(NamedTuple):
    """What pre-commit's code step tells: notes (warn), problems (block), warnings."""

    notes: tuple[str, ...] = ()
    problems: tuple[StagedProblem, ...] = ()
    warnings: tuple[str, ...] = ()


def commit_step(project: Project, workdir: Path, index_file: str | None,
                prefix: str, moves: Moves | None = None) -> CommitStep:
    """pre-commit's step on staged code whose linked entries the commit leaves out.

    ``code_links.on_commit``: warn gives a note, block the problems that refuse the commit,
    off nothing. A failure is a warning: a note never stops a commit by accident.
    ``moves``: the staged change as the hook listed it (``git.staged_moves``).
    """
    try:
        mode, links, warning = commit_note(project, workdir, index_file, prefix, moves)
    except Exception as exc:
        return CommitStep(warnings=("the note on knowledge about the staged code could not "
                                    f"run: {type(exc).__name__}: {exc}",))
    told = (warning,) if warning else ()
    if not links:
        return CommitStep(warnings=told)
    if mode == "block":
        from brv_vc.services.vc.checks import StagedProblem

        hint = ("update those entries and stage them with this commit, or set "
                "code_links.on_commit: warn in .brv/config.yaml")
        return CommitStep(problems=tuple(
            StagedProblem(link.path, line.split(" ", 1)[1], hint, BLOCK_KEY)
            for link, line in zip(links, commit_lines(links), strict=True)), warnings=told)
    return CommitStep(notes=(note_text(links),), warnings=told)


def pull_step(project: Project, workdir: Path, prefix: str, orig: str,
              what: str = "pull") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(notes, warnings) of post-merge's (or a rebase's) report on ``orig..HEAD``; fails open."""
    try:
        found = range_knowledge(project, workdir, prefix, orig, "HEAD")
    except Exception as exc:
        return (), ("the report on knowledge made stale by the pull could not run: "
                    f"{type(exc).__name__}: {exc}",)
    return ((pull_note(found, what),) if found.stale else ()), ()
