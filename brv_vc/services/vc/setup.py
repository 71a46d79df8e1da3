"""``brv vc init``, ``clone`` and ``remote``, and :func:`prepare`, run by every vc command.

git config is per clone, so the merge and diff drivers are registered again by every vc
command (cheap: one ``git config`` read when nothing is missing), and the managed
``.gitignore``/``.gitattributes`` blocks are rewritten when they drifted.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import brv_vc
from brv_vc.errors import ConflictError, GitError, NotFoundError, UsageError
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions, git
from brv_vc.vc.repo import KnowledgeRepo, locate

DEFAULT_BRANCH = "main"


def brv_command() -> str:
    """The shell command git runs to call back into this brv (drivers, textconv).

    ``PYTHONPATH`` names the folder holding ``brv_vc`` so a checkout that is not installed
    (a development tree, a vendored copy) works the same as an installed one.
    """
    parent = Path(brv_vc.__file__).resolve().parent.parent
    return (f"PYTHONPATH={shlex.quote(str(parent))}${{PYTHONPATH:+:$PYTHONPATH}} "
            f"{shlex.quote(sys.executable)} -m brv_vc")


def _with_fallback(name: str, args: str, fallback: str) -> str:
    """A shell snippet for git that finds a working brv, as the hook shims do.

    Trigger: git runs the textconv on every ``git diff`` of a knowledge file and the merge
    driver on every merge. Why: the recorded interpreter may be gone (a removed virtualenv,
    an upgraded Python), and then plain ``git diff`` would fail outright (in in-project mode
    for code too). Outcome: the recorded brv when its interpreter and package are still
    there (checked without starting Python), else ``brv`` on PATH, else ``fallback`` (plain
    git behaviour). git appends the file arguments (``"$@"``) after the function name.
    """
    parent = Path(brv_vc.__file__).resolve().parent.parent
    python = shlex.quote(sys.executable)
    package = shlex.quote(str(parent / "brv_vc"))
    return (f"{name}() {{ if [ -x {python} ] && [ -d {package} ]; then {brv_command()} "
            f"{args}; elif command -v brv >/dev/null 2>&1; then brv {args}; "
            f"else {fallback}; fi; }}; {name}")


def driver_config() -> dict[str, str]:
    """The per-clone git config that enables the knowledge merge and diff drivers."""
    # without brv, a merge falls back to git's own line merge and a diff to the raw text
    merge = _with_fallback("brv_merge", 'merge-driver "$@"',
                           'git merge-file -L ours -L base -L theirs "$2" "$1" "$3"')
    textconv = _with_fallback("brv_textconv", 'vc textconv "$1"', 'cat "$1"')
    return {
        "merge.brv.name": "brv knowledge-aware merge (frontmatter by key, body by section)",
        "merge.brv.driver": f"{merge} %O %A %B %P",
        "diff.brv.textconv": textconv,
    }


def config_file_form(value: str) -> str:
    """``value`` as ``git config`` writes it into ``.git/config`` (quoted and escaped).

    The rules of git's config writer: backslash, double quote, newline and tab are escaped;
    the whole value is double-quoted when it holds ``;`` or ``#`` or starts or ends with a
    space.
    """
    escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
               .replace("\t", "\\t"))
    if ";" in value or "#" in value or value.startswith(" ") or value.endswith(" "):
        return f'"{escaped}"'
    return escaped


def register_drivers(repo: KnowledgeRepo) -> list[str]:
    """Sets the driver config keys that are missing or stale; returns the keys written."""
    config = repo.workdir / ".git" / "config"
    if config.is_file():
        # fast path (every vc command runs this): all values already there, verbatim
        text = config.read_text(encoding="utf-8", errors="replace")
        if all(f"= {config_file_form(value)}\n" in text for value in driver_config().values()):
            return []
    out = repo.git_ok("config", "--local", "--get-regexp", r"^(merge|diff)\.brv\.") or ""
    current = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    written = []
    for key, value in driver_config().items():
        if current.get(key) != value:
            repo.git("config", "--local", key, value)
            written.append(key)
    return written


def prepare(project: Project) -> KnowledgeRepo:
    """Locates the knowledge repository and brings its exclusions and drivers up to date.

    Raises:
        NotInitializedError: the tree is not under version control.
    """
    repo = locate(project)
    rewritten = exclusions.ensure_files(repo.tree)
    if register_drivers(repo) or rewritten:
        git.discard_prefetched()  # a git status started before the rewrite may be stale
    return repo


@dataclass(frozen=True)
class InitResult:
    """What ``brv vc init`` / ``clone`` did."""

    mode: str  # standalone | in-project
    workdir: str
    prefix: str
    reinitialized: bool
    written: tuple[str, ...] = ()
    url: str | None = None
    hooks: tuple[str, ...] = ()  # "<hook>: <action>" for each git hook installed
    notes: tuple[str, ...] = ()


def project_at(cwd: Path) -> Project:
    """The project for ``cwd`` (where ``brv init`` would put it); nothing is created yet."""
    from brv_vc.services.init import init_root_for

    return Project(init_root_for(cwd).resolve())


def create_brv(project: Project) -> None:
    """Creates ``.brv/`` (idempotent); called only once every check has passed."""
    from brv_vc.services.init import init_project

    init_project(project.root)


def ignore_brv_in_project_repo(project: Project) -> bool:
    """Appends ``.brv/`` to the project's ``.gitignore`` when the project is a git repo."""
    proc = git.run(["rev-parse", "--show-toplevel"], project.root, check=False)
    if proc.returncode != 0:
        return False
    path = project.root / ".gitignore"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if any(line.strip() in (".brv/", ".brv", "/.brv/", "/.brv") for line in text.splitlines()):
        return False
    sep = "" if not text or text.endswith("\n") else "\n"
    from brv_vc.tree.store import write_atomic

    write_atomic(path, (text + sep + ".brv/\n").encode("utf-8"))
    return True


def init_repo(cwd: Path, *, in_project: bool = False, hooks: bool = True,
              now: datetime | None = None) -> InitResult:
    """``brv vc init``: put the tree under version control (idempotent).

    Args:
        cwd: a folder of the project.
        in_project: track the tree in the project's own repository.
        hooks: also install brv's git hooks (pre-commit, post-merge, post-checkout,
            post-rewrite) into the repository, so plain git keeps knowledge healthy.
        now: the clock; when given and the tree already holds knowledge (a cloned
            project, an existing tree), derived files are refreshed (fail open).

    Raises:
        GitError: ``--in-project`` outside a git repository.
        ConflictError: switching modes on a tree that already has the other one (either
            way: a nested repository, or a tree the project's repository tracks).
    """
    project = project_at(cwd)
    result = _init_in_project(project) if in_project else _init_standalone(project)
    if now is not None:
        result = _refresh_existing(project, result, now)
    return with_hooks(project, result) if hooks else result


def _refresh_existing(project: Project, result: InitResult, now: datetime) -> InitResult:
    """Builds derived files (indexes, abstracts) for knowledge that arrived without them.

    Trigger: 'git clone' of a project that tracks its tree, or init on an existing tree.
    Why: derived files are never committed, so nothing else would create them. Outcome:
    summaries exist; a failure is a note, never an error (the repository is ready).
    """
    if not any(project.tree.rglob("*.md")):
        return result
    try:
        from brv_vc.services.derived import refresh

        problems = refresh(project, None, now).problems
    except Exception as exc:  # fail open: init must not fail over derived state
        problems = (f"derived files not refreshed: {exc}",)
    return replace(result, notes=(*result.notes, *problems))


def with_hooks(project: Project, result: InitResult) -> InitResult:
    """Installs the git hooks and records what happened.

    A hook that cannot be installed is a note, not a failure: the repository itself is ready.
    """
    from brv_vc.errors import BrvError
    from brv_vc.services.hooks import install_hooks

    try:
        report = install_hooks(project)
    except BrvError as error:
        note = f"git hooks not installed: {error.message}" + (
            f" ({error.hint})" if error.hint else "")
        return replace(result, notes=(*result.notes, note))
    return replace(result, hooks=tuple(f"{h.name}: {h.action}" for h in report.hooks),
                   notes=(*result.notes, *report.notes))


def _refuse_tracked_by_project(project: Project) -> None:
    """Refuses a nested repository for a tree the project's own repository already tracks.

    Trigger: 'brv vc init' in a clone of a project that tracks its tree (in-project mode).
    Why: a second repository would take the tree over silently and '.brv/' would be added to
    the project's .gitignore, so new knowledge would no longer reach the team. Outcome: a
    ConflictError before anything is written.
    """
    top = git.run(["rev-parse", "--show-toplevel"], project.root, check=False)
    if top.returncode != 0 or not top.stdout.strip():
        return
    workdir = Path(top.stdout.strip()).resolve()
    try:
        prefix = project.tree.resolve().relative_to(workdir).as_posix()
    except ValueError:
        return
    tracked = git.run(["ls-files", "-z", "--", prefix], workdir, check=False)
    if tracked.returncode == 0 and tracked.stdout.strip("\0"):
        raise ConflictError(
            "the context tree is already tracked by the project's repository (in-project mode)",
            file=prefix,
            hint="keep in-project mode: run 'brv vc init --in-project' (a fresh clone needs it "
                 "once for the drivers and hooks); for a separate knowledge repository, untrack "
                 f"the tree first (git rm -r --cached {prefix}) before 'brv vc init'",
        )


def _init_standalone(project: Project) -> InitResult:
    tree = project.tree
    reinit = (tree / ".git").exists()
    if not reinit:
        _refuse_tracked_by_project(project)
    create_brv(project)
    if not reinit:
        git.run(["init", "-q", "-b", DEFAULT_BRANCH], tree)
    repo = KnowledgeRepo(tree, "")
    written = exclusions.ensure_files(tree)
    register_drivers(repo)
    if ignore_brv_in_project_repo(project):
        written.append("../../.gitignore")
    return InitResult("standalone", str(tree), "", reinit, tuple(written))


def _init_in_project(project: Project) -> InitResult:
    tree = project.tree
    if (tree / ".git").exists():
        raise ConflictError(
            "the context tree already has its own repository (standalone mode)",
            file=str(tree / ".git"),
            hint="keep standalone mode, or move the history elsewhere and delete "
                 ".brv/context-tree/.git before 'brv vc init --in-project'",
        )
    top = git.run(["rev-parse", "--show-toplevel"], project.root, check=False)
    if top.returncode != 0:
        raise GitError(
            f"{project.root} is not inside a git repository, so it cannot track the tree",
            hint="run 'git init' first, or use 'brv vc init' for a separate knowledge repository",
        )
    workdir = Path(top.stdout.strip()).resolve()
    prefix = tree.resolve().relative_to(workdir).as_posix()
    probe = git.run(["check-ignore", "-q", "--no-index", f"{prefix}/probe.md"], workdir,
                    check=False)
    if probe.returncode == 0:
        raise ConflictError(
            "the project's .gitignore ignores the context tree (.brv/), so git cannot track it",
            file=".gitignore",
            hint="remove the '.brv/' line from the project's .gitignore, then run "
                 "'brv vc init --in-project' again",
        )
    reinit = (tree / ".gitattributes").exists()
    create_brv(project)
    repo = KnowledgeRepo(workdir, prefix)
    written = exclusions.ensure_files(tree)
    register_drivers(repo)
    return InitResult("in-project", str(workdir), prefix, reinit, tuple(written))


def mask_url(url: str) -> str:
    """Hides a password in ``https://user:secret@host/...``."""
    return re.sub(r"(://[^/:@]+):[^/@]+@", r"\1:***@", url)


@dataclass(frozen=True)
class RemoteResult:
    """The remotes after ``brv vc remote ...``."""

    remotes: dict[str, str]
    action: str = "list"
    name: str | None = None


def remote(project: Project, action: str = "list", name: str | None = None,
           url: str | None = None) -> RemoteResult:
    """Lists, adds, re-points or removes a remote (any URL git accepts).

    Raises:
        UsageError: a missing name or URL.
        NotFoundError: ``set-url``/``remove`` of an unknown remote.
        ConflictError: ``add`` of an existing remote.
    """
    repo = prepare(project)
    current = list_remotes(repo)
    if action != "list":
        if not name or (action in ("add", "set-url") and not url):
            raise UsageError(f"'brv vc remote {action}' needs a name"
                             + (" and a URL" if action != "remove" else ""),
                             hint="example: brv vc remote add origin git@github.com:team/kb.git")
        if action == "add" and name in current:
            raise ConflictError(f"remote '{name}' already exists ({mask_url(current[name])})",
                                hint=f"change it with 'brv vc remote set-url {name} URL'")
        if action in ("set-url", "remove") and name not in current:
            raise NotFoundError(f"no remote named '{name}'",
                                hint="list remotes with 'brv vc remote'")
        args = {"add": ["remote", "add", name, url or ""],
                "set-url": ["remote", "set-url", name, url or ""],
                "remove": ["remote", "remove", name]}[action]
        repo.git(*args)
    return RemoteResult({k: mask_url(v) for k, v in list_remotes(repo).items()}, action, name)


def list_remotes(repo: KnowledgeRepo) -> dict[str, str]:
    """Remote name -> URL (unmasked), from the repository's config."""
    out = repo.git_ok("config", "--get-regexp", r"^remote\..*\.url$") or ""
    found = {}
    for line in out.splitlines():
        key, _, value = line.partition(" ")
        found[key[len("remote."):-len(".url")]] = value
    return found
