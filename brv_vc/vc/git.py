"""The git binary: porcelain and plumbing commands, run as processes.

One of the three adapters that talk to git (tests/test_layering.py): this one runs the
binary, ``git_objects`` reads objects in process through dulwich, and ``git_prefetch``
starts ``git status`` before the CLI is imported. Every git failure becomes a
:class:`GitError` carrying the command and git's own words.
Hooks run with ``GIT_DIR``/``GIT_INDEX_FILE`` exported; :func:`no_git_env` strips them so
a git call made from inside a hook acts on the repository we name, not the one git set.
"""

from __future__ import annotations

import os

from brv_vc.digest import sha1, sha256
from brv_vc.errors import GitError

# Annotations only: this module is imported before the CLI when 'brv vc status' prefetches
# git status (git_prefetch), so its runtime imports stay at os (not even typing: ~2 ms
# before git can start). subprocess (with locale, threading, selectors: ~5 ms of CPU) is
# imported on first use: a status that adopts the prefetched git never needs it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Mapping, Sequence
    from pathlib import Path
    from typing import Any
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
    env = dict(os.environ if base is None else base)
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
    where ``os.posix_spawnp`` is (``vc/git_spawn.py``).

    Raises:
        GitError: git is missing, or (with ``check``) exited non-zero.
    """
    full_env = no_git_env(env)
    if index_file is not None:
        full_env["GIT_INDEX_FILE"] = str(index_file)
    from brv_vc.vc.git_spawn import text

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


_NETWORK_WORDS = (
    "could not resolve host", "connection refused", "unable to connect",
    "could not read from remote",
    "does not appear to be a git repository", "unable to access", "connection timed out",
    "no route to host", "repository not found", "network is unreachable",
)


def failure_kind(words: str) -> str:
    """Classifies git's error output: identity, network, rejected, overwrite or other."""
    low = words.lower()
    if "please tell me who you are" in low or "author identity unknown" in low or (
        "empty ident name" in low
    ):
        return "identity"
    # the remote's branch moved between its advertisement and its update (a teammate's push
    # landed in between): "! [remote rejected] main -> main (cannot lock ref ...: is at X
    # but expected Y)"; as a non-fast-forward, a pull and a new push settle it
    moved = "[remote rejected]" in low and "but expected" in low
    if "[rejected]" in low or "non-fast-forward" in low or "fetch first" in low or moved:
        return "rejected"
    if "would be overwritten" in low:
        return "overwrite"
    if any(word in low for word in _NETWORK_WORDS) or (
        "repository '" in low and "does not exist" in low
    ):
        return "network"
    return "other"


class Completed:
    """A finished git command: ``subprocess.CompletedProcess``'s fields, without subprocess."""

    __slots__ = ("args", "returncode", "stderr", "stdout")

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str) -> None:
        self.args, self.returncode, self.stdout, self.stderr = args, returncode, stdout, stderr


Proc = Completed  # what run() returns


class Running:
    """git commands started with :func:`start`; :meth:`wait` collects them in order.

    A process is anything with ``communicate()`` and ``returncode``: a ``Popen``, or the
    process ``git_spawn.Spawned`` started.
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
    from brv_vc.vc import git_spawn

    env = no_git_env()
    try:
        procs: list[Any] = [
            git_spawn.Spawned(["git", "-C", str(cwd), *args], env) if git_spawn.available()
            else subprocess.Popen(["git", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            for args in commands
        ]
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None
    return Running(commands, procs)


# --- git hooks (issue #6): where hooks live and what a commit, merge or checkout changed ---
# Kept in one group; they run git with bytes I/O (blobs are bytes) and, for the pre-commit
# check, with the index file git handed to the hook (``git commit -a``/``git commit PATHS``
# stage into a temporary index exported as GIT_INDEX_FILE: that is what will be committed).

NULL_SHA = "0" * 40


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
# refuses them (git help config: protocol.allow); repo.translate words the refusal.
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

    Spawned without ``subprocess`` where ``os.posix_spawnp`` is (``vc/git_spawn.py``: its
    import with locale, signal, threading and selectors cost every vc process ~4 ms);
    ``-C`` is the spawned process's folder. The one place :func:`run` and the bytes runner
    start git.

    Raises:
        GitError: git is missing.
    """
    from brv_vc.vc import git_spawn

    if args and args[0] in _NETWORK_VERBS:
        args = [*_NO_HANGING_TRANSPORTS, *args]
    held = next((a for a in args if "\0" in a), None)
    if held is not None:  # no git name can hold one, and spawning would raise ValueError
        shown = held.replace("\0", "\\0")
        raise GitError(f"'{shown}' holds a NUL character, which no git name or ref can hold; "
                       "nothing was run", hint="give the name without the NUL character")
    try:
        if git_spawn.available():
            return git_spawn.run_bytes(["git", "-C", str(cwd), *args], env, data)
        done = subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True,
                              env=env, check=False)
        return done.returncode, done.stdout, done.stderr
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None


def toplevel(start: Path) -> Path | None:
    """Returns the top folder of the work tree holding ``start``, or None outside git."""
    proc = run(["rev-parse", "--show-toplevel"], start, check=False)
    out = proc.stdout.strip()
    from pathlib import Path  # runtime import kept local: see the note on imports above

    return Path(out).resolve() if proc.returncode == 0 and out else None


def git_path(repo: Path, name: str) -> Path:
    """Returns ``git rev-parse --git-path NAME`` as an absolute path.

    It honours ``core.hooksPath`` (for ``hooks``) and linked worktrees (``hooks`` lives in the
    common git dir, ``rebase-merge`` in the worktree's own). A relative answer is relative to
    ``repo``, the folder git runs hooks in.
    """
    out = run(["rev-parse", "--git-path", name], repo).stdout.strip()
    from pathlib import Path

    return (repo / out).resolve() if not os.path.isabs(out) else Path(out)


def git_paths(repo: Path, *names: str) -> list[Path]:
    """:func:`git_path` of several names with one ``git rev-parse`` (a hook's start-up)."""
    args = [arg for name in names for arg in ("--git-path", name)]
    out = run(["rev-parse", *args], repo).stdout.splitlines()
    from pathlib import Path

    return [(repo / x).resolve() if not os.path.isabs(x) else Path(x) for x in out]


def commits_of(repo: Path, *revs: str) -> list[str | None]:
    """:func:`commit_of` of several names, with one ``git rev-parse`` when all exist."""
    proc = run(["rev-parse", "-q", *(f"{rev}^{{commit}}" for rev in revs)], repo, check=False)
    found = proc.stdout.split()
    if proc.returncode == 0 and len(found) == len(revs):
        return list(found)
    return [commit_of(repo, rev) for rev in revs]


def config_value(repo: Path, key: str) -> str | None:
    """Returns the effective value of a git config key in ``repo``, or None when unset."""
    proc = run(["config", "--get", key], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def commit_of(repo: Path, rev: str) -> str | None:
    """Returns the commit id ``rev`` names (``ORIG_HEAD``, ``HEAD@{1}``...), or None."""
    proc = run(["rev-parse", "-q", "--verify", f"{rev}^{{commit}}"], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def changed_between(repo: Path, old: str, new: str, pathspec: str | None = None) -> list[str]:
    """Paths that differ between two commits (renames as delete + add), repo-relative."""
    args = ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", old, new]
    out = _git_bytes([*args, "--", pathspec] if pathspec else args, repo)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def staged_files(
    repo: Path, index_file: str | None = None, pathspec: str | None = None
) -> list[tuple[str, str, str]]:
    """The changes staged for the next commit, as ``(status, path, blob id)``.

    ``status`` is git's letter (A, M, D, T...); a deleted path has the null blob id.
    ``index_file`` is the GIT_INDEX_FILE git gave the hook, if any.
    """
    return [(status, path, blob) for status, path, blob, _ in
            staged_entries(repo, index_file, pathspec)]


def staged_entries(
    repo: Path, index_file: str | None = None, pathspec: str | list[str] | None = None
) -> list[tuple[str, str, str, str]]:
    """:func:`staged_files` with the staged mode: ``(status, path, blob id, mode)``.

    The mode (``120000`` for a symlink) comes with the change itself, so a check of the
    staged paths never lists the whole index. ``pathspec``: one path, or git arguments
    starting with ``--``.
    """
    args = ["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff"]
    if isinstance(pathspec, str):
        args += ["--", pathspec]
    elif pathspec:
        args += pathspec
    return _raw(_staged_diff(args, repo, index_file))


def staged_moves(repo: Path, index_file: str | None = None
                 ) -> list[tuple[str, str, str, str, str]]:
    """The whole staged change with git's renames: ``(status, path, blob id, mode, source)``.

    ``source`` is the old path of a rename (``R``) or copy (``C``), else "". One diff serves
    both of the pre-commit hook's readers: the check of staged knowledge (renames split back
    into a removal and an addition: :func:`unrenamed`) and the note on staged code.
    """
    args = ["diff", "--cached", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff"]
    fields = _staged_diff(args, repo, index_file).decode("utf-8", "surrogateescape").split("\0")
    found: list[tuple[str, str, str, str, str]] = []
    i = 0
    while i + 1 < len(fields) and fields[i].startswith(":"):
        parts = fields[i].split()  # ":old_mode new_mode old_id new_id status"
        letter = parts[4][:1]
        if letter in "RC" and i + 2 < len(fields):
            found.append((letter, fields[i + 2], parts[3], parts[1], fields[i + 1]))
            i += 3
        else:
            found.append((letter, fields[i + 1], parts[3], parts[1], ""))
            i += 2
    return found


def _staged_diff(args: list[str], repo: Path, index_file: str | None) -> bytes:
    """``git diff --cached ARGS``, as HEAD against the tree the index's cache-tree names.

    A hook's index (``git commit`` brings its cache-tree up to date before pre-commit) names
    the tree it commits (``git_index.committed_tree``): two trees are diffed without reading
    the index's entries, whatever the size of the tree. Otherwise, or when git cannot (no
    HEAD yet), the index itself.
    """
    tree = None
    if index_file:  # a hook's (vc add's own listing has none: no mmap, ~0.5 ms)
        from brv_vc.vc.git_index import committed_tree

        tree = committed_tree(index_file)
    if tree is not None:
        cut = args.index("--") if "--" in args else len(args)
        trees = [a for a in args[:cut] if a != "--cached"] + ["HEAD", tree] + args[cut:]
        try:
            return _git_bytes(trees, repo)
        except GitError:
            pass
    return _git_bytes(args, repo, index_file=index_file)


def unrenamed(moves: Sequence[tuple[str, str, str, str, str]]
              ) -> list[tuple[str, str, str, str]]:
    """:func:`staged_moves` rows as :func:`staged_entries` gives them (``--no-renames``).

    A rename is its source's removal plus its target's addition; a copy, the addition.
    Sorted by path, as git lists them.
    """
    rows: list[tuple[str, str, str, str]] = []
    for status, path, blob, mode, source in moves:
        if status == "R":
            rows.append(("D", source, NULL_SHA, "000000"))
        rows.append(("A" if status in "RC" else status, path, blob, mode))
    return sorted(rows, key=lambda row: row[1])


def changed_entries(repo: Path, old: str, new: str | None, pathspec: str | None = None
                    ) -> list[tuple[str, str, str, str]]:
    """``(status, path, blob id, mode)`` of every path that differs between two commits.

    Renames are a deletion plus an addition; the blob and mode are those at ``new``.
    ``new`` None: ``old`` is one range argument (``A...B``: from their merge base to B).
    """
    revs = [old] if new is None else [old, new]
    args = ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", *revs]
    return _raw(_git_bytes([*args, "--", pathspec] if pathspec else args, repo))


def _raw(out: bytes) -> list[tuple[str, str, str, str]]:
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    found: list[tuple[str, str, str, str]] = []
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        parts = meta.split()
        if len(parts) == 5:  # ":old_mode new_mode old_id new_id status"
            found.append((parts[4][:1], path, parts[3], parts[1]))
    return found


def read_blobs(repo: Path, shas: Sequence[str]) -> dict[str, bytes]:
    """The bytes of each blob id (hex) the repository has, loose ones read directly.

    :func:`_loose_blobs` reads the loose ones, one ``git cat-file --batch`` the others. The hooks read the few blobs a change touches this way: starting git costs a few
    milliseconds, opening the object store in process (dulwich) ~100 ms.
    """
    wanted = [s for s in dict.fromkeys(shas) if s and set(s) != {"0"}]
    found = _loose_blobs(repo, wanted) if wanted else {}
    wanted = [sha for sha in wanted if sha not in found]
    if not wanted:
        return found
    out = _git_bytes(["cat-file", "--batch"], repo,
                     input="".join(f"{sha}\n" for sha in wanted).encode("ascii"))
    at = 0
    for sha in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) != 3:  # "<sha> missing"
            continue
        size = int(header[2])
        if header[1] == b"blob":
            found[sha] = out[at:at + size]
        at += size + 1
    return found


def _loose_blobs(repo: Path, shas: Sequence[str]) -> dict[str, bytes]:
    """The blobs among ``shas`` that are loose objects, read without a git process.

    Trigger: :func:`read_blobs` of a change just staged or committed (``vc commit``, the
    hooks, ``vc push``), whose blobs git wrote loose. Why: ``cat-file`` cost ~7.5 ms of CPU
    for 100 blobs at 25,000 entries, reading them here ~2 ms. Outcome: what is found here
    (the bytes git would give); the rest (packed, alternates, a worktree's ``.git`` file, a
    repository with replace refs, which git would honour) is read by ``cat-file``.
    """
    git_dir = os.path.join(repo, ".git")
    if not os.path.isdir(git_dir) or os.path.exists(os.path.join(git_dir, "refs", "replace")):
        return {}
    try:
        with open(os.path.join(git_dir, "packed-refs"), "rb") as handle:
            if b" refs/replace/" in handle.read():
                return {}
    except FileNotFoundError:
        pass
    except OSError:
        return {}
    import zlib

    objects = os.path.join(git_dir, "objects")
    found: dict[str, bytes] = {}
    for sha in shas:
        if not object_id(sha):
            continue
        try:
            with open(os.path.join(objects, sha[:2], sha[2:]), "rb") as handle:
                raw = zlib.decompress(handle.read())
        except (OSError, zlib.error):
            continue
        head, sep, data = raw.partition(b"\0")
        kind, _, size = head.partition(b" ")
        if sep and kind == b"blob" and size.isdigit() and int(size) == len(data):
            found[sha] = data
    return found


def loose_head(git_dir: Path, common_dir: Path, branch: str) -> str | None:
    """The commit HEAD names, read from its loose ref file; None when git must be asked.

    ``branch``: the branch HEAD is on ("HEAD" when detached), as ``rev-parse
    --symbolic-full-name HEAD`` named it. Right after git wrote the ref (``vc commit``), the
    file holds it: the files backend writes every updated ref loose. None for anything else
    (a packed ref, reftable's placeholder files, a file that is not one object id).
    """
    where = git_dir / "HEAD" if branch == "HEAD" else common_dir / "refs" / "heads" / branch
    try:
        # bytes decoded, not read_text(encoding="ascii"): a text file would import the
        # encodings.ascii codec (~0.3 ms of every commit and pull)
        value = where.read_bytes().decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value if object_id(value) else None


def object_id(text: str) -> bool:
    """True for a full object id as git writes it (SHA-1 or SHA-256, lower-case hex)."""
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")


def ignored_paths(repo: Path, paths: Sequence[str]) -> set[str]:
    """The paths the repository's ignore rules exclude, tracked or not (``check-ignore``)."""
    if not paths:
        return set()
    data = "".join(f"{p}\0" for p in paths).encode("utf-8", "surrogateescape")
    out = _git_bytes(["check-ignore", "--no-index", "-z", "--stdin"], repo, input=data, ok=(0, 1))
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}


def changed_blobs(repo: Path, changes: Sequence[tuple[str, str, str, str]],
                  have: Mapping[str, bytes] | None = None) -> dict[str, bytes]:
    """The new blobs of ``changes`` (``git diff --raw`` rows), links and submodules aside.

    Each read where it is cheapest: the work-tree file when its bytes are the blob
    (:func:`worktree_blobs`), else the object store (:func:`read_blobs`). ``have``: blobs a
    caller read already, kept and not read again.
    """
    wanted = [(path, blob) for status, path, blob, mode in changes
              if status != "D" and mode not in ("120000", "160000")]  # a link, a submodule
    found = dict(have or {})
    found.update(worktree_blobs(repo, [(p, b) for p, b in wanted if b not in found]))
    found.update(read_blobs(repo, [b for _, b in wanted if b not in found]))
    return found


def worktree_blobs(repo: Path, wanted: Sequence[tuple[str, str]]) -> dict[str, bytes]:
    """The blobs among ``(path, blob id)`` whose work-tree file holds exactly their bytes.

    A file just committed or staged is usually unchanged on disk, and hashing it as git does
    (``blob <size>``, a NUL, the bytes) proves it without a ``cat-file`` process (~7 ms of
    CPU for 100 blobs, ~2 ms here). A file that differs (edited since, a clean filter, CRLF
    conversion), is not a plain file (a link is never followed, a FIFO never waited on) or
    cannot be read is left out: the caller asks git (:func:`read_blobs`).
    """
    import stat

    found: dict[str, bytes] = {}
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    for path, sha in wanted:
        if sha in found or len(sha) not in (40, 64) or set(sha) == {"0"}:
            continue
        try:
            fd = os.open(os.path.join(repo, path), flags)
            with open(fd, "rb") as handle:
                data = handle.read() if stat.S_ISREG(os.fstat(fd).st_mode) else None
        except OSError:
            continue
        if data is not None and _blob_id(data, len(sha)) == sha:
            found[sha] = data
    return found


def _blob_id(data: bytes, width: int) -> str:
    """The id git gives a blob holding ``data``: SHA-1 (40 hex digits) or SHA-256 (64)."""
    digest = (sha1 if width == 40 else sha256)(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


# --- code links (issue #27): the code repository's history in one walk ---------------------

HISTORY_FORMAT = "%x01%H%x00%P%x00%ct%x00%cI%x00%s"


def history(repo: Path, revs: Sequence[str]) -> bytes:
    """One walk of history with each commit's changes, renames detected (``log --raw -M``).

    Each commit starts with a 0x01 byte and :data:`HISTORY_FORMAT` (sha, parents, committer
    time, ISO date, subject); its raw changes follow, NUL-separated (full blob ids). Merges
    list no changes of their own: what they bring is listed by the commits they bring.

    Raises:
        GitError: a revision git does not know (the caller names it).
    """
    args = ["log", "-z", "--raw", "-M", "--no-abbrev", "--no-ext-diff", "--no-color",
            "--topo-order", f"--format={HISTORY_FORMAT}", *revs, "--"]
    return _git_bytes(args, repo)


def tree_blobs(repo: Path, rev: str = "HEAD") -> dict[str, str]:
    """Every file of a commit -> its blob id (``ls-tree -r``); empty before the first commit."""
    out = _git_bytes(["ls-tree", "-r", "-z", "--full-tree", rev], repo, ok=(0, 128))
    found: dict[str, str] = {}
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        meta, _, path = record.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob":
            found[path] = parts[2]
    return found


def work_changes(repo: Path, *pathspecs: str) -> list[str]:
    """Paths modified, staged or untracked in the work tree (``status --porcelain``)."""
    args = ["status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"]
    out = _git_bytes([*args, "--", *pathspecs] if pathspecs else args, repo)
    return [p[3:] for p in out.decode("utf-8", "surrogateescape").split("\0") if len(p) > 3]


def is_shallow(repo: Path) -> bool:
    """True in a shallow clone (history before its boundary commits is missing)."""
    out = run(["rev-parse", "--is-shallow-repository"], repo, check=False).stdout.strip()
    return out == "true"


def is_ancestor(repo: Path, older: str, newer: str) -> bool:
    """True when ``older`` is an ancestor of (or is) ``newer`` (``merge-base --is-ancestor``)."""
    return run(["merge-base", "--is-ancestor", older, newer], repo, check=False).returncode == 0


def last_touches(repo: Path, paths: Sequence[str]) -> dict[str, tuple[str, str, str, str]]:
    """The newest commit that touched each path: ``(sha, committer time, ISO date, subject)``.

    One ``git log -- PATHS`` read as it comes and stopped once every path was seen: entries
    are usually committed recently, so this rarely walks far (``brv about``'s freshness).
    Paths never committed are absent.
    """
    wanted = set(paths)
    found: dict[str, tuple[str, str, str, str]] = {}
    if not wanted:
        return found
    args = ["git", "log", "--no-renames", "--name-only", "-z",
            "--format=%x01%H%x00%ct%x00%cI%x00%s", "--", *paths]
    try:
        proc = subprocess.Popen(args, cwd=repo, env=no_git_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, errors="surrogateescape")
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH",
                       hint="install git (https://git-scm.com)") from None
    assert proc.stdout is not None
    head: tuple[str, str, str, str] | None = None
    buffer = ""
    try:
        while len(found) < len(wanted):
            chunk = proc.stdout.read(65536)
            if not chunk:
                break
            buffer += chunk
            records = buffer.split("\x01")
            buffer = records.pop()  # maybe incomplete
            for record in records:
                head = _touch(record, head, wanted, found)
        if buffer and len(found) < len(wanted):
            _touch(buffer, head, wanted, found)
    finally:
        proc.kill()  # done early: git need not finish the walk
        proc.wait()
    return found


def _touch(record: str, head: tuple[str, str, str, str] | None, wanted: set[str],
           found: dict[str, tuple[str, str, str, str]]) -> tuple[str, str, str, str] | None:
    fields = record.split("\0")
    if len(fields) < 4:
        return head
    head = (fields[0], fields[1], fields[2], fields[3].split("\n", 1)[0])
    for name in fields[4:]:
        name = name.strip("\n")
        if name in wanted and name not in found:
            found[name] = head
    return head
