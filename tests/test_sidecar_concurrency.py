"""Concurrent writers of the scoring sidecar lose no increment (real processes, real SQLite)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from brv_vc.lifecycle import sidecar
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from tests.conftest import REPO

_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from brv_vc.lifecycle import sidecar
    from brv_vc.tree.project import Project
    from brv_vc.tree.statedb import open_state
    project, kind, count = Project(Path(sys.argv[1])), sys.argv[2], int(sys.argv[3])
    paths = ["api/auth/a.md", "api/auth/b.md"]
    for _ in range(count):
        conn = open_state(project)
        try:
            if kind == "update":
                sidecar.record_updates(conn, paths, time.time())
            else:
                sidecar.record_hits(conn, paths, time.time())
        finally:
            conn.close()
""")


def _writers(project: Project, kind: str, writers: int, count: int) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(project.root), kind, str(count)],
                         cwd=REPO)
        for _ in range(writers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * writers


def test_four_writers_lose_no_update_or_hit(project: Project) -> None:
    _writers(project, "update", 4, 100)
    _writers(project, "hit", 4, 25)
    conn = open_state(project)
    try:
        rows = sidecar.get_many(conn, ["api/auth/a.md", "api/auth/b.md"])
    finally:
        conn.close()
    assert {p: s.update_count for p, s in rows.items()} == {
        "api/auth/a.md": 400, "api/auth/b.md": 400}
    assert {p: s.access_count for p, s in rows.items()} == {
        "api/auth/a.md": 100, "api/auth/b.md": 100}


def test_an_update_inside_a_callers_transaction_joins_it(project: Project) -> None:
    conn = open_state(project)
    try:
        sidecar.ensure_schema(conn)
        conn.execute("BEGIN IMMEDIATE")
        sidecar.record_updates(conn, ["x/y/z.md"], 1.0)
        conn.execute("ROLLBACK")
        assert sidecar.get_many(conn, ["x/y/z.md"]) == {}
        sidecar.record_updates(conn, ["x/y/z.md", "x/y/z.md"], 1.0)
        assert sidecar.get_many(conn, ["x/y/z.md"])["x/y/z.md"].update_count == 1
    finally:
        conn.close()


def test_writers_through_the_cli_lose_no_update_count(project: Project, tmp_path: Path) -> None:
    from tests.conftest import brv_process

    assert brv_process("curate", "add", "api/auth", "--title", "Shared", "--content", "x",
                       cwd=project.root).exit_code == 0
    procs = [
        subprocess.Popen(
            [sys.executable, "-c",
             "import sys\nfrom brv_vc.cli.main import main\n"
             f"for i in range(5): \n"
             "    try:\n"
             f"        main(['-C', {str(project.root)!r}, 'curate', 'update',"
             f" 'api/auth/shared.md', '--content', f'w{{sys.argv[1]}} {{i}}', '--reason', 'r'])\n"
             "    except SystemExit as e:\n"
             "        assert not e.code, e.code\n", str(n)],
            cwd=REPO, stdout=subprocess.DEVNULL,
        )
        for n in range(4)
    ]
    assert [p.wait(timeout=300) for p in procs] == [0] * 4
    conn = open_state(project)
    try:
        row = sidecar.get_many(conn, ["api/auth/shared.md"])["api/auth/shared.md"]
    finally:
        conn.close()
    assert row.update_count == 20
