"""The per-clone git config that wires brv into a knowledge repository, and :func:`prepare`.

git config is per clone, so every vc command runs :func:`prepare`: it registers the merge and
diff drivers again (cheap: one read of ``.git/config`` when nothing is missing) and rewrites
the managed ``.gitignore``/``.gitattributes`` blocks when they drifted.
"""

from __future__ import annotations

from pathlib import Path

import brv_vc
from brv_vc.interpreter import interpreter
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions, git
from brv_vc.vc.git import prefetch
from brv_vc.vc.repo import KnowledgeRepo, locate

# what shlex.quote leaves bare (its [^\w@%+=:,./-], ASCII); shlex (with its regex) is not
# imported for it: every vc command, 'vc status' included, builds these strings
_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def _quote(text: str) -> str:
    """``shlex.quote(text)``: the same string, so ``.git/config`` compares verbatim."""
    if text and all(char in _SHELL_SAFE for char in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def brv_command() -> str:
    """The shell command git runs to call back into this brv (drivers, textconv).

    ``PYTHONPATH`` names the folder holding ``brv_vc`` so a checkout that is not installed
    (a development tree, a vendored copy) works the same as an installed one. Started as the
    console script starts (``-c``, not ``-m``: runpy's imports cost ~4 ms of CPU, paid by every
    file a ``git diff`` converts), ``-P``: the folder git runs in is not on the import path.
    """
    parent = Path(brv_vc.__file__).resolve().parent.parent
    return (f"PYTHONPATH={_quote(str(parent))}${{PYTHONPATH:+:$PYTHONPATH}} "
            f"{_quote(interpreter())} -P -c 'from brv_vc.cli.entry import main; main()'")


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
    python = _quote(interpreter())
    package = _quote(str(parent / "brv_vc"))
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
    current = dict(git.config_values(repo.workdir, r"^(merge|diff)\.brv\.", "--local"))
    written = []
    for key, value in driver_config().items():
        if current.get(key) != value:
            git.set_config(repo.workdir, key, value)
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
        prefetch.discard_prefetched()  # a git status started before the rewrite may be stale
    return repo
