"""git's history read through ``git log``: the one home of brv's log formats.

Each walk names its format here and parses its records with the one ``--raw`` reader
(``vc/git/raw.py``); services ask typed questions (:func:`history`, :func:`last_touches`)
instead of building ``git log`` argv.
"""

from __future__ import annotations

from brv_vc.vc.git.process import _git_bytes, run, stream
from brv_vc.vc.git.raw import records

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from brv_vc.vc.git.raw import Change

HISTORY_FORMAT = "%x01%H%x00%P%x00%ct%x00%cI%x00%s"
# a commit of one entry's history: sha, parents, author, ISO author date, subject
ENTRY_FORMAT = "%x01%H%x00%P%x00%an%x00%aI%x00%s"
# a commit that touched paths: sha, committer time, ISO date, subject
TOUCH_FORMAT = "%x01%H%x00%ct%x00%cI%x00%s"
# a commit of ``brv vc log``: sha, author, email, ISO author date, subject
LIST_FORMAT = "%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e"


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
    proc = stream(["log", "--no-renames", "--name-only", "-z", f"--format={TOUCH_FORMAT}",
                   "--", *paths], repo)
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


def touches(repo: Path, paths: Sequence[str], revs: str = "HEAD"
            ) -> list[tuple[str, str, str, str]]:
    """Every commit of ``revs`` that touched ``paths`` (files or folders), newest first.

    Each as ``(sha, committer time, ISO date, subject)``; none when ``revs`` is unknown.
    """
    proc = run(["log", "-z", f"--format={TOUCH_FORMAT}", revs, "--", *paths], repo, check=False)
    return [(sha, time, date, subject)
            for (sha, time, date, subject, *_), _ in records(proc.stdout, 4)]


def had_path(repo: Path, path: str) -> bool:
    """True when a commit of HEAD's history touched ``path`` (a file, or a folder's files).

    ``path`` is literal: ``*`` or ``:`` in it are characters, not a pattern or magic.
    """
    proc = run(["--literal-pathspecs", "log", "-1", "--format=%H", "HEAD", "--", path], repo,
               check=False)
    return bool(proc.stdout.strip())


def path_commits(repo: Path, start: str, path: str, limit: int
                 ) -> list[tuple[list[str], list[Change]]]:
    """The newest ``limit`` commits from ``start`` that touched ``path``, with their changes.

    Each as (:data:`ENTRY_FORMAT`'s five fields, the path's raw changes, full blob ids);
    renames are not followed (none when ``start`` is unknown).
    """
    proc = run(["log", "--no-abbrev", "--raw", "-z", f"-n{limit}", f"--format={ENTRY_FORMAT}",
                start, "--", path], repo, check=False)
    return list(records(proc.stdout, 5))


def newest(repo: Path, revs: Sequence[str], pathspec: Sequence[str], limit: int
           ) -> list[list[str]]:
    """The newest ``limit`` commits of ``revs`` touching ``pathspec``, as five fields each.

    ``pathspec``: git arguments from ``--`` (none: every commit); the fields are
    :data:`LIST_FORMAT`'s.

    Raises:
        GitError: git refused, in :func:`errors.translate`'s words.
    """
    from brv_vc.vc.git.errors import translate

    args = ["log", f"-n{limit}", f"--format={LIST_FORMAT}", *revs, *pathspec]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        raise translate(args, proc)
    rows = [r.strip("\n").split("\x1f") for r in proc.stdout.split("\x1e") if r.strip()]
    return [row for row in rows if len(row) == 5]


def head_subject(repo: Path) -> tuple[str, str]:
    """HEAD's commit id and subject line.

    Raises:
        GitError: no commit yet, in :func:`errors.translate`'s words.
    """
    from brv_vc.vc.git.errors import translate

    args = ["log", "-1", "--format=%H%x1f%s"]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        raise translate(args, proc)
    sha, _, subject = proc.stdout.strip().partition("\x1f")
    return sha, subject


def boundary_walk(repo: Path, old: str, target: str
                  ) -> tuple[list[tuple[str, str, str]], set[str]] | None:
    """The commits of ``target`` not in ``old``, and the commits of ``old`` they stand on.

    One ``git log --boundary TARGET ^OLD``: (each commit as (id, parent ids, message), oldest
    first; the boundary commits). None when git failed or a record is not git's shape.
    """
    from brv_vc.vc.git.files import object_id

    # -z: records end in NUL, which no message holds (git refuses one); a message may hold
    # any other byte, so each record's fixed fields are checked before it is believed
    proc = run(["log", "-z", "--reverse", "--boundary", "--format=%m%x1f%H%x1f%P%x1f%B",
                target, f"^{old}", "--"], repo, check=False)
    if proc.returncode != 0:
        return None
    commits: list[tuple[str, str, str]] = []
    borders: set[str] = set()
    for record in proc.stdout.split("\0"):
        if not record:
            continue
        mark, _, rest = record.partition("\x1f")
        sha, _, rest = rest.partition("\x1f")
        parents, _, message = rest.partition("\x1f")
        if mark not in ("-", ">") or not object_id(sha) or not all(
                object_id(p) for p in parents.split(" ") if parents):
            return None  # not git's shape
        if mark == "-":
            borders.add(sha)
        else:
            commits.append((sha, parents, message))
    return commits, borders


def messages_with(repo: Path, text: str, revs: Sequence[str]) -> list[tuple[str, str, str]]:
    """The commits of ``revs`` whose message holds ``text`` (``log -F --grep``), oldest first.

    Each as (id, parent ids, message); git picks them, so no other message is read.

    Raises:
        GitError: git refused (an unknown revision), in :func:`errors.translate`'s words.
    """
    args = ["log", "--reverse", "-F", f"--grep={text}", "--format=%x1e%H%x1f%P%x1f%B", *revs,
            "--"]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        from brv_vc.vc.git.errors import translate

        raise translate(args, proc)
    found = []
    for record in proc.stdout.split("\x1e")[1:]:
        sha, _, rest = record.partition("\x1f")
        parents, _, message = rest.partition("\x1f")
        found.append((sha.strip(), parents, message))
    return found


def last_change(repo: Path, rev: str, path: str) -> tuple[str, str]:
    """The newest commit of ``rev``'s history that touched ``path``: (id, parent ids).

    ("", "") when none did.

    Raises:
        GitError: git refused (an unknown revision), in :func:`errors.translate`'s words.
    """
    args = ["log", "-1", "--format=%H%x1f%P", rev, "--", path]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        from brv_vc.vc.git.errors import translate

        raise translate(args, proc)
    sha, _, parents = proc.stdout.strip().partition("\x1f")
    return sha, parents


def commit_time(repo: Path, rev: str, path: str | None = None) -> int | None:
    """The committer time (Unix seconds) of ``rev``, or of its history's last commit of ``path``.

    None when none did, or git could not say.
    """
    proc = run(["log", "-1", "--format=%ct", rev, *(("--", path) if path else ())], repo,
               check=False)
    out = proc.stdout.strip() if proc.returncode == 0 else ""
    return int(out) if out.isdigit() else None


def commit_count(repo: Path, span: str) -> int:
    """How many commits ``span`` (``A..B`` or a revision) holds; 0 when git failed."""
    proc = run(["rev-list", "--count", span], repo, check=False)
    out = proc.stdout.strip() if proc.returncode == 0 else ""
    return int(out) if out.isdigit() else 0
