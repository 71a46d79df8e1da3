"""`brv vc commit` and `pull` skip what only an unusual case needs (vc.status, the ascii codec...)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, in_project_app, team  # noqa: F401

from brv_vc.vc import git_checked

ROT = "auth/jwt/token_rotation.md"
# brv_vc.vc.status: its Change names an unmerged path (commit) or a conflict (pull); the
# encodings.ascii codec: loaded by a text file opened with encoding="ascii" (the HEAD ref,
# the checked-commit record), where bytes decoded as ascii load nothing; code_notes: the
# code a pull made stale is told in-project only; contextvars: for an index a resident
# process (brv ui) lends, made when first named; incoming: local changes an arriving path
# would clash with, asked by a true merge (a fast-forward leaves that check to git's merge)
UNUSED = ("brv_vc.vc.status", "encodings.ascii", "brv_vc.services.vc.code_notes", "contextvars",
          "brv_vc.services.vc.incoming")


# add and push hash nothing (brv_vc.digest loads a hash module at its first use); a plain
# add names no file whose markers it reads (vc.status); collections.abc: annotations only
ADD_PUSH_UNUSED = ("_sha1", "_sha256", "_sha2", "brv_vc.vc.status", "collections.abc")


def _run(cwd: Path, *argv: str, unused: tuple[str, ...] = UNUSED) -> tuple[int, list[str], str]:
    """(exit code, which of ``unused`` brv imported, stderr) of a console-script style process.

    Modules the interpreter had before brv started (a site ``.pth`` may import some) are not
    brv's: only those new since the script's first line count.
    """
    script = ("import sys; started = set(sys.modules)\n"
              f"import re; sys.argv = ['brv', *{list(argv)!r}]\n"
              "code = 0\n"
              "try:\n    from brv_vc.cli.entry import main\n    main()\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              f"print(','.join(m for m in {unused!r} if m in sys.modules and m not in started),"
              " file=sys.stderr)\n"
              "sys.exit(code)")
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("COVERAGE", "COV_CORE", "BRV_NOW"))}
    full.update(PYTHONPATH=str(REPO), LC_ALL="C.UTF-8")
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=full,
                          capture_output=True, check=False)
    *said, imported = done.stderr.rstrip("\n").split("\n")
    return done.returncode, [m for m in imported.split(",") if m], "\n".join(said)


def test_commit_push_and_pull_import_neither(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="lean commit")
    code, imported, said = _run(team.alice.root, "vc", "add", unused=ADD_PUSH_UNUSED)
    assert (code, imported) == (0, []), said
    code, imported, said = _run(team.alice.root, "vc", "commit", "-m", "lean")
    assert (code, imported) == (0, []), said
    # the record vc commit wrote (bytes) is read back by push, which then skips its checks
    assert git_checked.checked(team.alice.tree / ".git") is not None
    code, imported, said = _run(team.alice.root, "vc", "push", unused=(*UNUSED, *ADD_PUSH_UNUSED))
    assert (code, imported) == (0, []), said
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")
    code, imported, said = _run(team.bob.root, "vc", "pull")
    assert (code, imported) == (0, []), said
    assert team.bob.text(ROT) == team.alice.text(ROT)


def test_an_in_project_add_and_commit_import_none_of_them_either(tmp_path: Path) -> None:
    """In-project (the code repository's own git), the same modules stay off the path."""
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="lean in-project")
    code, imported, said = _run(app.root, "vc", "add", unused=ADD_PUSH_UNUSED)
    assert (code, imported) == (0, []), said
    code, imported, said = _run(app.root, "vc", "commit", "-m", "lean in-project")
    assert (code, imported) == (0, []), said
    assert app.git("log", "-1", "--format=%s").strip() == "lean in-project"


# the post-merge hook of a plain pull that changes an entry brv never removed here: the
# re-application's MERGE rule (merged_away), its fault points (signal) and the sidecar's
# write lock (scoring) are imported only once the log holds a removal of a changed entry; the
# credential mask (scrub) once something is said, an archive's blob reader once one is read
POST_MERGE_UNUSED = ("brv_vc.services.vc.merged_away", "brv_vc.tree.fault", "signal",
                     "brv_vc.lifecycle.sidecar", "brv_vc.lifecycle.scoring", "brv_vc.scrub",
                     "brv_vc.vc.git.objects")


def test_the_post_merge_hook_of_a_common_pull_imports_no_fold(team: Team) -> None:  # noqa: F811
    team.bob.write("auth/jwt/old_keys.md", "Old keys", narrative="Keys of 2019.")
    team.bob.ok("curate", "delete", "auth/jwt/old_keys.md", "--reason", "stale")  # logged
    team.alice.edit(ROT, summary="pulled by git")
    team.alice.sync("one")
    team.bob.git("-c", "core.hooksPath=/dev/null", "pull", "-q")
    code, imported, said = _run(team.bob.tree, "hook-impl", "post-merge", "0",
                                unused=POST_MERGE_UNUSED)
    assert (code, imported) == (0, []), said
    assert team.bob.read(ROT).summary == "pulled by git"
    assert ROT in team.bob.ok("search", "pulled by git").stdout  # refreshed by the hook


def test_the_checked_commit_record_reads_as_before(tmp_path: Path) -> None:
    """Bytes in, bytes out: the same three fields; a record that is not ascii is no record."""
    from brv_vc import __version__

    where = tmp_path / git_checked.RECORD
    commit, parent = "a" * 40, "b" * 40
    where.write_text(f"{commit} {parent} {__version__}\r\n", encoding="ascii")
    assert git_checked.checked(tmp_path) == (commit, parent)
    where.write_bytes(f"{commit} {parent} {__version__}\n".encode() + b"\xff")
    assert git_checked.checked(tmp_path) is None
    where.write_text(f"{commit} {parent} 0.0.0-other\n", encoding="ascii")
    assert git_checked.checked(tmp_path) is None


def test_a_loose_head_reads_as_before(tmp_path: Path) -> None:
    """loose_head: the id in the ref file, None for anything that is not one object id."""
    from brv_vc.vc.git import loose_head

    heads = tmp_path / "refs" / "heads"
    heads.mkdir(parents=True)
    (heads / "main").write_bytes(b"c" * 40 + b"\n")
    assert loose_head(tmp_path, tmp_path, "main") == "c" * 40
    (tmp_path / "HEAD").write_bytes(b"d" * 64 + b"\r\n")
    assert loose_head(tmp_path, tmp_path, "HEAD") == "d" * 64
    (heads / "main").write_bytes(b"c" * 39 + b"\xe9\n")
    assert loose_head(tmp_path, tmp_path, "main") is None
    (heads / "main").write_bytes(b"ref: refs/heads/other\n")
    assert loose_head(tmp_path, tmp_path, "main") is None
    assert loose_head(tmp_path, tmp_path, "gone") is None


def test_a_lent_index_is_used_and_its_variable_made_once() -> None:
    """derived.RESIDENT, made at its first naming, is one variable; with_index uses what it lends."""
    script = ("import sys\n"
              "started = 'contextvars' in sys.modules\n"
              "from brv_vc.services.derived import index\n"
              "before = 'contextvars' in sys.modules\n"
              "from brv_vc.services.derived import RESIDENT\n"
              "print(started or before, RESIDENT is index.RESIDENT, 'contextvars' in sys.modules)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    done = subprocess.run([sys.executable, "-c", script], text=True, capture_output=True,
                          env={**env, "PYTHONPATH": str(REPO)}, check=True)
    assert done.stdout.split() == ["False", "True", "True"]

    from brv_vc.services.derived import index

    project = object()

    class Opened:
        notes = ("lent",)

    class Lent:
        def __init__(self) -> None:
            self.project = project
            self.given = Opened()

        def opened(self) -> Opened:
            return self.given

    lent = Lent()
    token = index.RESIDENT.set(lent)
    try:
        assert index.with_index(project, lambda opened: opened) == (lent.given, ["lent"])  # type: ignore[arg-type]
    finally:
        index.RESIDENT.reset(token)

