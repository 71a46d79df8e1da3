"""git as a process: the one place a git command is started, its environment and transports.

Every git failure becomes a :class:`GitError` carrying the command and git's own words.
Hooks run with ``GIT_DIR``/``GIT_INDEX_FILE`` exported; :func:`no_git_env` strips them so
a git call made from inside a hook acts on the repository we name, not the one git set.
"""

from __future__ import annotations

import os

from brv_vc.errors import GitError

# Annotations only: this module is imported before the CLI when 'brv vc status' prefetches
# git status (vc/git/prefetch.py), so its runtime imports stay at os (not even typing: ~2 ms
# before git can start). subprocess (with locale, threading, selectors: ~5 ms of CPU) is
# imported on first use: a status that adopts the prefetched git never needs it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any, Protocol

    class Worktree(Protocol):
        """The repository a typed question runs in: ``vc/repo.KnowledgeRepo``'s shape.

        Its ``git`` runs in ``workdir`` through ``worktree.in_worktree`` (the borrowed
        identity of a committing command, a failure worded by :func:`errors.translate`);
        ``pathspec`` limits a command to knowledge (``-- <prefix>``).
        """

        @property
        def workdir(self) -> Path:
            """The work tree's top folder, where git runs."""

        def pathspec(self) -> list[str]:
            """``-- <prefix>``: the knowledge."""

        def git(self, *args: str, check: bool = True, index_file: Path | None = None,
                what: str | None = None, input: str | None = None,
                env: dict[str, str] | None = None) -> Completed:
            """Runs git; with ``check``, a failure raises in ``what``'s words."""

        def git_ok(self, *args: str) -> str | None:
            """The output of git, None when it failed."""

        def identity_env(self) -> dict[str, str] | None:
            """The environment of a committing command: a borrowed identity, or None."""
else:

    class _Subprocess:
        """``subprocess``, imported when one of its names is first read."""

        def __getattr__(self, name: str) -> object:
            import subprocess

            globals()["subprocess"] = subprocess  # later reads skip this proxy
            return getattr(subprocess, name)

    subprocess = _Subprocess()

_HOOK_VARS = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")


def no_git_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Returns the environment without the variables git exports to hooks."""
    from brv_vc import environment

    env = environment.child() if base is None else dict(base)
    for name in _HOOK_VARS:
        env.pop(name, None)
    env.setdefault("GIT_TERMINAL_PROMPT", "0")
    return env


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    check: bool = True,
    input: str | None = None,
    env: Mapping[str, str] | None = None,
    index_file: Path | None = None,
) -> Completed:
    """Runs ``git <args>`` in ``cwd`` and returns the completed process.

    ``index_file`` points git at another index (``GIT_INDEX_FILE``); the hook variables are
    stripped first, so this is the only way one reaches git. Text as ``subprocess.run(...,
    text=True)`` gives it (the locale's encoding, universal newlines), without subprocess
    where ``os.posix_spawnp`` is (``vc/git/spawn.py``).

    Raises:
        GitError: git is missing, or (with ``check``) exited non-zero.
    """
    full_env = no_git_env(env)
    if index_file is not None:
        full_env["GIT_INDEX_FILE"] = str(index_file)
    from brv_vc.vc.git.spawn import text

    data = None
    if input is not None:
        import io

        data = input.encode(io.TextIOWrapper(io.BytesIO()).encoding)  # as text=True encodes
    code, out, err = _exec(args, cwd, full_env, data)
    proc = Completed(["git", *args], code, text(out), text(err))
    if check and proc.returncode != 0:
        words = (proc.stderr or proc.stdout).strip()
        raise GitError(f"git {' '.join(args[:2])} failed: {words}")
    return proc


def merge_file(ours: bytes, base: bytes, theirs: bytes, cwd: Path) -> tuple[bytes, bool]:
    """Line-level 3-way merge by ``git merge-file`` (the fallback of the merge driver).

    Returns:
        (merged bytes with standard markers where needed, True when conflicts remain).

    Raises:
        GitError: git merge-file itself failed (crashed, or exited with an error code).
    """
    import tempfile  # only merges need it; keep it off the 'vc status' path

    with tempfile.TemporaryDirectory(prefix="brv-merge-") as tmp:
        names = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = os.path.join(tmp, name)
            with open(path, "wb") as handle:
                handle.write(data)
            names.append(path)
        proc = subprocess.run(
            ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *names],
            cwd=cwd, capture_output=True, env=no_git_env(), check=False,
        )
    if proc.returncode < 0 or proc.returncode > 127:
        raise GitError(f"git merge-file failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout, proc.returncode != 0


class Completed:
    """A finished git command: ``subprocess.CompletedProcess``'s fields, without subprocess."""

    __slots__ = ("args", "returncode", "stderr", "stdout")

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str) -> None:
        self.args, self.returncode, self.stdout, self.stderr = args, returncode, stdout, stderr


Proc = Completed  # what run() returns


class Running:
    """git commands started with :func:`start`; :meth:`wait` collects them in order.

    A process is anything with ``communicate()`` and ``returncode``: a ``Popen``, or the
    process ``spawn.Spawned`` started.
    """

    def __init__(self, commands: Sequence[Sequence[str]], procs: list[Any]) -> None:
        self._commands = commands
        self._procs = procs

    def wait(self) -> list[Completed]:
        """Waits for every command and returns the completed processes (not checked)."""
        done = []
        for args, proc in zip(self._commands, self._procs, strict=True):
            out, err = proc.communicate()
            done.append(Completed(["git", *args], proc.returncode, out, err))
        return done


def start(commands: Sequence[Sequence[str]], cwd: Path) -> Running:
    """Starts several read-only git commands at once, without waiting.

    ``brv vc status`` splits git status into tracked changes and the untracked walk, which
    run side by side, while Python finishes its own imports.

    Raises:
        GitError: git is missing.
    """
    from brv_vc.vc.git import spawn

    env = no_git_env()
    try:
        procs: list[Any] = [
            spawn.Spawned(["git", "-C", str(cwd), *args], env) if spawn.available()
            else subprocess.Popen(["git", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            for args in commands
        ]
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None
    return Running(commands, procs)


def _git_bytes(
    args: Sequence[str],
    cwd: Path,
    *,
    input: bytes | None = None,
    index_file: str | None = None,
    ok: tuple[int, ...] = (0,),
) -> bytes:
    env = no_git_env()
    if index_file:
        env["GIT_INDEX_FILE"] = index_file
    code, out, err = _exec(args, cwd, env, input)
    if code not in ok:
        words = err.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args[:2])} failed: {words}")
    return out


# git's transports that a brv command must never run, whatever the remote's configuration:
# 'fd::N' talks over descriptor N of the process, which in brv is its own (a lock, a pipe)
# and hung 'brv vc push' forever; 'ext::CMD' runs a command. git's own protocol.<name>.allow
# refuses them (git help config: protocol.allow); errors.translate words the refusal.
REFUSED_TRANSPORTS = ("fd", "ext")
_NO_HANGING_TRANSPORTS = tuple(x for name in REFUSED_TRANSPORTS
                               for x in ("-c", f"protocol.{name}.allow=never"))
_NETWORK_VERBS = frozenset({"push", "fetch", "pull", "clone", "ls-remote"})
# git reads 'NAME::ADDRESS' as remote helper NAME when NAME is RFC 3986 unreserved characters
# but '_' (transport.c, transport_get)
_HELPER_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.~")


def refused_transport(url: str) -> str | None:
    """The transport of :data:`REFUSED_TRANSPORTS` a remote URL names (``fd`` for ``fd::3``).

    The same rule as the ``protocol.<name>.allow=never`` every network verb runs with, asked
    of a URL before it is stored (``brv vc remote add``, ``set-url``, ``clone``).
    """
    name, sep, _ = url.partition("::")
    if sep and name in REFUSED_TRANSPORTS and set(name) <= _HELPER_NAME:
        return name
    return None


def _exec(args: Sequence[str], cwd: Path, env: dict[str, str], data: bytes | None
          ) -> tuple[int, bytes, bytes]:
    """Runs ``git <args>`` in ``cwd``: (exit code, stdout, stderr), ``data`` on its stdin.

    Spawned without ``subprocess`` where ``os.posix_spawnp`` is (``vc/git/spawn.py``: its
    import with locale, signal, threading and selectors cost every vc process ~4 ms);
    ``-C`` is the spawned process's folder. The one place :func:`run` and the bytes runner
    start git.

    Raises:
        GitError: git is missing.
    """
    from brv_vc.vc.git import spawn

    if args and args[0] in _NETWORK_VERBS:
        args = [*_NO_HANGING_TRANSPORTS, *args]
    held = next((a for a in args if "\0" in a), None)
    if held is not None:  # no git name can hold one, and spawning would raise ValueError
        shown = held.replace("\0", "\\0")
        raise GitError(f"'{shown}' holds a NUL character, which no git name or ref can hold; "
                       "nothing was run", hint="give the name without the NUL character")
    try:
        if spawn.available():
            return spawn.run_bytes(["git", "-C", str(cwd), *args], env, data)
        done = subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True,
                              env=env, check=False)
        return done.returncode, done.stdout, done.stderr
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None


def stream(args: Sequence[str], cwd: Path) -> subprocess.Popen[str]:
    """Starts ``git <args>`` with its stdout as a text pipe to read as it comes (stderr dropped).

    For a walk the caller may stop early (it kills the process when done).

    Raises:
        GitError: git is missing.
    """
    try:
        return subprocess.Popen(["git", *args], cwd=cwd, env=no_git_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                errors="surrogateescape")
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH",
                       hint="install git (https://git-scm.com)") from None
