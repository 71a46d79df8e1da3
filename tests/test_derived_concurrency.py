"""No false "edited by hand" warnings when commands run at once.

The races are replayed deterministically: the functions are called in the racy order,
with two connections standing for two processes.
"""

from __future__ import annotations

from datetime import UTC, datetime

from summary_support import small_tree, write_entry

from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.derived.summaries import summarize
from brv_vc.summary.records import Records
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 2, 1, tzinfo=UTC)


def test_a_write_between_reading_the_file_and_its_record_is_no_hand_edit(
    project: Project,
) -> None:
    target = project.tree / "a/_index.md"
    target.parent.mkdir(parents=True)
    first, second = open_state(project), open_state(project)
    writer, reader = Records(first), Records(second)
    writer.write(target, "a/_index.md", "h1", b"one\n")
    seen = target.read_bytes()  # the reader reads the file...
    writer.write(target, "a/_index.md", "h2", b"two\n")  # ...another process rewrites both...
    assert not reader.edited("a/_index.md", target, seen)  # ...then the reader's record
    target.write_bytes(b"by hand\n")
    assert reader.edited("a/_index.md", target, target.read_bytes())
    first.close()
    second.close()


def _stale_records(project: Project, paths: list[str]) -> dict[str, tuple[str, str]]:
    conn = open_state(project)
    try:
        return {p: conn.execute("SELECT input_hash, sha FROM derived_files WHERE path = ?",
                                (p,)).fetchone() for p in paths}
    finally:
        conn.close()


def _put_back(project: Project, rows: dict[str, tuple[str, str]]) -> None:
    conn = open_state(project)
    try:
        for path, (input_hash, digest) in rows.items():
            conn.execute("UPDATE derived_files SET input_hash = ?, sha = ? WHERE path = ?",
                         (input_hash, digest, path))
    finally:
        conn.close()


def test_files_written_but_not_yet_recorded_are_no_hand_edits(project: Project) -> None:
    small_tree(project)
    summarize(project, NOW)
    paths = ["auth/jwt/_index.md", "auth/_index.md", "_index.md", "_manifest.json",
             "auth/jwt/token_rotation.abstract.md"]
    before = _stale_records(project, paths)
    # process A writes the new derived files; its records have not landed when B looks
    write_entry(project, "auth/jwt/token_rotation.md", "Token Rotation", summary="Rotated.")
    refresh(project, ["auth/jwt/token_rotation.md"], NOW)
    assert "Rotated." in (project.tree / "auth/jwt/token_rotation.abstract.md").read_text()
    _put_back(project, before)
    report = refresh(project, ["auth/jwt/token_rotation.md"], NOW)
    assert not [p for p in report.problems if "edited by hand" in p]
    result = summarize(project, NOW)
    assert not [w for w in result.warnings if "edited by hand" in w]


def test_a_real_hand_edit_is_still_reported(project: Project) -> None:
    small_tree(project)
    summarize(project, NOW)
    (project.tree / "auth/jwt/_index.md").write_text("mine\n")
    (project.tree / "_manifest.json").write_text("{}\n")
    report = refresh(project, ["auth/jwt/token_rotation.md"], NOW)
    edits = sorted(p.split()[0] for p in report.problems if "edited by hand" in p)
    assert edits == ["_manifest.json", "auth/jwt/_index.md"]
    assert (project.tree / "auth/jwt/_index.md").read_text() != "mine\n"
