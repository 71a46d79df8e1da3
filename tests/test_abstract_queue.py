"""The abstract/overview queue: retries with backoff, a broken file fails alone, a killed
run resumes, changed entries are refreshed within the time budget."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from conftest import REPO, snapshot
from summary_support import derived_files, write_entry

from bench.gen_tree import generate
from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.derived.summaries import summarize
from brv_vc.summary import abstracts, queue
from brv_vc.summary.engine import EXTRACTIVE
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 2, 1, tzinfo=UTC)
BROKEN = b'---\ntitle: "Broken\nsummary: [unclosed\n---\nbody\n'


def test_abstract_and_overview_follow_the_seed(project: Project) -> None:
    write_entry(project, "auth/jwt/tokens.md", "JWT Tokens", summary="Access tokens last 24h.",
                facts="- **jwt_secret**: Tokens are signed with RS256 [convention]\n"
                      "- Pairs are stored for revocation [project]",
                narrative="### Structure\nTokens come in pairs. More text.\n\n"
                          "### Rules\n- Refresh tokens are single-use\n")
    summarize(project, NOW)
    abstract = (project.tree / "auth/jwt/tokens.abstract.md").read_text()
    overview = (project.tree / "auth/jwt/tokens.overview.md").read_text()
    assert abstract.count("\n") == 1
    assert abstract.startswith("JWT Tokens: Access tokens last 24h.")
    assert "## Key points\n- jwt_secret: Tokens are signed with RS256" in overview
    assert "- Pairs are stored for revocation" in overview
    assert "## Entities\n" in overview
    assert "- jwt_secret" in overview
    assert "- kw" in overview
    assert "## Patterns\n- Refresh tokens are single-use" in overview


def attempts(project: Project) -> dict[str, tuple[str, int]]:
    """(state, attempts) of every queue row, by path."""
    conn = open_state(project)
    try:
        rows = conn.execute("SELECT path, state, attempts FROM summary_queue").fetchall()
    finally:
        conn.close()
    return {path: (state, count) for path, state, count in rows}


def test_broken_entry_fails_at_once_and_the_queue_goes_on(project: Project) -> None:
    write_entry(project, "a/b/first.md", "First")
    (project.tree / "a/b/middle.md").write_bytes(BROKEN)
    write_entry(project, "a/b/last.md", "Last")
    slept: list[float] = []
    result = summarize(project, NOW, sleep=slept.append)
    assert slept == []  # a parse error is permanent: no backoff
    assert attempts(project)["a/b/middle.md"] == ("failed", 1)
    assert [problem.path for problem in result.failed] == ["a/b/middle.md"]
    assert "malformed YAML" in result.failed[0].message
    assert result.done == 2
    assert result.remaining == 0
    assert (project.tree / "a/b/first.abstract.md").exists()
    assert (project.tree / "a/b/last.overview.md").exists()
    assert not (project.tree / "a/b/middle.abstract.md").exists()
    assert (project.tree / "a/b/middle.md").read_bytes() == BROKEN
    # the folder summary still lists it by name
    assert "middle.md" in (project.tree / "a/b/_index.md").read_text()
    # the same broken bytes are reported again without being tried again
    again = summarize(project, NOW, sleep=slept.append)
    assert [problem.path for problem in again.failed] == ["a/b/middle.md"]
    assert attempts(project)["a/b/middle.md"] == ("failed", 1)
    # once fixed, the entry is processed
    write_entry(project, "a/b/middle.md", "Middle")
    fixed = summarize(project, NOW, sleep=slept.append)
    assert fixed.failed == ()
    assert fixed.done == 1
    assert (project.tree / "a/b/middle.abstract.md").exists()
    assert slept == []


def test_three_broken_entries_are_all_reported_without_retries(project: Project, brv) -> None:
    write_entry(project, "a/b/good.md", "Good")
    for name in ("one", "two", "three"):
        (project.tree / f"a/b/{name}.md").write_bytes(b"---\ntitle: [broken\n---\n")
    result = brv("summarize", "--json", cwd=project.root)
    assert result.exit_code == 0
    payload = result.json()
    assert payload["ok"] is True
    assert [f["path"] for f in payload["failed"]] == ["a/b/one.md", "a/b/three.md", "a/b/two.md"]
    assert all("malformed YAML" in f["message"] for f in payload["failed"])
    assert payload["done"] == 1
    assert "3 file(s) could not be summarized" in result.stderr
    rows = attempts(project)
    assert {rows[f"a/b/{n}.md"] for n in ("one", "two", "three")} == {("failed", 1)}


class FlakyEngine:
    """The extractive engine behind a connection that times out ``failures`` times first."""

    name = "flaky"

    def __init__(self, failures: int) -> None:
        self.failures = failures

    def __getattr__(self, kind: str):  # type: ignore[no-untyped-def]
        method = getattr(EXTRACTIVE, kind)

        def call(*args: object):  # type: ignore[no-untyped-def]
            if self.failures:
                self.failures -= 1
                raise TimeoutError("the provider did not answer in time")
            return method(*args)

        return call


def test_transient_errors_are_retried_with_backoff(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    write_entry(project, "a/b/two.md", "Two")
    conn = open_state(project)
    queue.enqueue(conn, ["a/b/one.md", "a/b/two.md"])
    slept: list[float] = []
    report = abstracts.drain(project, conn, FlakyEngine(2), sleep=slept.append)  # type: ignore[arg-type]
    assert slept == [0.5, 1.0]
    assert report.done == ("a/b/one.md", "a/b/two.md")
    slept.clear()
    queue.enqueue(conn, ["a/b/one.md"])
    report = abstracts.drain(project, conn, FlakyEngine(10), sleep=slept.append)  # type: ignore[arg-type]
    assert slept == [0.5, 1.0, 2.0]
    assert report.failed == (("a/b/one.md", "TimeoutError: the provider did not answer in time"),)
    conn.close()
    assert attempts(project)["a/b/one.md"] == ("failed", 4)


def test_permanent_and_transient_errors() -> None:
    from brv_vc.errors import FormatError, ProviderError

    assert abstracts.is_permanent(FormatError("bad"))
    assert abstracts.is_permanent(FileNotFoundError())
    assert abstracts.is_permanent(UnicodeDecodeError("utf-8", b"", 0, 1, "bad"))
    assert not abstracts.is_permanent(ProviderError("HTTP 503"))
    assert not abstracts.is_permanent(TimeoutError())
    assert not abstracts.is_permanent(sqlite3.OperationalError("database is locked"))


def test_broken_entry_through_the_cli(project: Project, brv) -> None:
    write_entry(project, "a/b/first.md", "First")
    summarize(project, NOW)
    (project.tree / "a/b/middle.md").write_bytes(BROKEN)
    before = snapshot(project.tree)
    result = brv("summarize", cwd=project.root)
    assert result.exit_code == 0  # the rest was done; the failure is listed (docs/derived.md)
    assert "0 generated, 1 failed, 0 still queued" in result.stdout
    assert "failed a/b/middle.md: malformed YAML in the frontmatter" in result.stdout
    assert ("brv: warning: 1 file(s) could not be summarized; fix them and run "
            "'brv summarize' again") in result.stderr
    after = snapshot(project.tree)
    assert {k for k in after if after[k] != before.get(k)} <= {"_manifest.json", "a/b/_index.md",
                                                                "a/_index.md", "_index.md"}
    # agents get the failures as objects; unchanged bytes are not tried again
    as_json = brv("summarize", "--json", cwd=project.root)
    assert as_json.exit_code == 0
    payload = as_json.json()
    assert payload["ok"] is True
    assert payload["failed"][0]["path"] == "a/b/middle.md"
    assert payload["failed"][0]["message"].startswith("malformed YAML")


def test_claimed_row_of_a_dead_worker_is_resumed(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    write_entry(project, "a/b/two.md", "Two")
    conn = open_state(project)
    queue.enqueue(conn, ["a/b/one.md", "a/b/two.md"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    # a worker that claimed "one" with a long lease, then died before finishing
    conn.execute("UPDATE summary_queue SET state='claimed', owner=?, lease_until=? "
                 "WHERE path='a/b/one.md'", (dead.pid, time.time() + 3600))
    report = abstracts.drain(project, conn, EXTRACTIVE)
    assert sorted(report.done) == ["a/b/one.md", "a/b/two.md"]
    assert report.remaining == 0
    assert queue.counts(conn) == {"done": 2}
    conn.close()


def test_live_claim_is_left_alone_until_its_lease_ends(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    conn = open_state(project)
    queue.enqueue(conn, ["a/b/one.md"])
    assert queue.claim(conn) is not None  # held by this (living) process
    assert queue.claim(conn) is None
    assert queue.claim(conn, wall=lambda: time.time() + queue.LEASE_SECONDS + 1) is not None
    conn.close()


def test_sigkilled_summarize_resumes_and_matches_a_clean_run(tmp_path: Path) -> None:
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    generate(killed, 500, seed=3)
    generate(clean, 500, seed=3)
    env = {**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": "2026-02-01T00:00:00Z"}
    proc = subprocess.Popen([sys.executable, "-m", "brv_vc", "summarize"], cwd=killed, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = killed / ".brv/state/brv.db"
    deadline = time.monotonic() + 60
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(db, timeout=1) as conn:
                done = conn.execute(
                    "SELECT COUNT(*) FROM summary_queue WHERE state='done'").fetchone()[0]
        except sqlite3.OperationalError:
            done = 0
        if done >= 20:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as conn:
        left = conn.execute(
            "SELECT COUNT(*) FROM summary_queue WHERE state != 'done'").fetchone()[0]
    assert done >= 20, "the kill must land mid-queue"
    assert left > 0, "the kill must land mid-queue"

    rerun = subprocess.run([sys.executable, "-m", "brv_vc", "summarize", "--json"], cwd=killed,
                           env=env, capture_output=True, text=True, check=False)
    assert rerun.returncode == 0, rerun.stderr
    subprocess.run([sys.executable, "-m", "brv_vc", "summarize"], cwd=clean, env=env,
                   capture_output=True, check=True)
    assert derived_files(killed / ".brv/context-tree") == derived_files(clean / ".brv/context-tree")


def test_refresh_regenerates_siblings_of_changed_entries(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", summary="First version.")
    summarize(project, NOW)
    write_entry(project, "a/b/one.md", "One", summary="Second version.")
    report = refresh(project, ["a/b/one.md"], NOW)
    assert report.problems == ()
    assert "Second version." in (project.tree / "a/b/one.abstract.md").read_text()
    assert any(step.startswith("abstracts: 1 done") for step in report.steps)
    (project.tree / "a/b/one.md").unlink()
    refresh(project, ["a/b/one.md"], NOW)
    assert not (project.tree / "a/b/one.abstract.md").exists()
    assert not (project.tree / "a/b/one.overview.md").exists()


def test_refresh_fails_a_broken_entry_at_once(project: Project) -> None:
    (project.tree / "a/b").mkdir(parents=True)
    (project.tree / "a/b/bad.md").write_bytes(BROKEN)
    report = refresh(project, ["a/b/bad.md"], NOW)
    # the index skips it and the abstract queue fails it without waiting for retries
    assert report.problems[0] == (
        "skipped a/b/bad.md: malformed YAML in the frontmatter (line 4, column 1): "
        "found unexpected end of stream"
    )
    assert report.problems[1].startswith("abstract of a/b/bad.md failed: malformed YAML")
    conn = open_state(project)
    assert queue.counts(conn) == {"failed": 1}
    conn.close()


def test_a_budgeted_drain_gives_back_a_claim_instead_of_sleeping(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    conn = open_state(project)
    queue.enqueue(conn, ["a/b/one.md"])
    slept: list[float] = []
    report = abstracts.drain(project, conn, FlakyEngine(1), budget_seconds=0.2,  # type: ignore[arg-type]
                             sleep=slept.append, clock=lambda: 100.0)
    # the 0.5 s retry would overrun the budget: left queued for brv summarize
    assert slept == []
    assert report.remaining == 1
    assert queue.counts(conn) == {"pending": 1}
    conn.close()


PROSE = """Our deployment pipeline runs on GitHub Actions and ships images to ECR. Every merge to
main builds an image tagged with the commit sha.

ArgoCD syncs the cluster within two minutes. Rollbacks always go through ArgoCD, never through
kubectl by hand.

Database migrations run with Flyway before the new pods start. Migrations must stay backward
compatible for one release.

Alerts page the on-call engineer through PagerDuty. A slow canary opens a Jira ticket instead.
"""


def test_a_prose_entry_gets_several_key_points_entities_and_patterns(project: Project) -> None:
    from brv_vc.format.body import build_body
    from brv_vc.format.entry import Entry, serialize_entry
    from brv_vc.format.tokens import count_tokens
    from brv_vc.summary.budgets import ABSTRACT_TOKENS
    from brv_vc.summary.extract import abstract, entities, key_points, overview, patterns

    # an entry written as prose: one section, no facts, no summary (curate add --file)
    data = serialize_entry(Entry(title="Deployment pipeline", body=build_body([("Narrative", PROSE)])))
    doc = abstracts.document("ops/pipeline/deployment_pipeline.md", data)
    points = key_points(doc)
    assert 3 <= len(points) <= 7
    assert points[:4] == [
        "Our deployment pipeline runs on GitHub Actions and ships images to ECR.",
        "ArgoCD syncs the cluster within two minutes.",
        "Database migrations run with Flyway before the new pods start.",
        "Alerts page the on-call engineer through PagerDuty.",
    ]
    assert {"GitHub Actions", "ECR", "ArgoCD", "Flyway", "PagerDuty", "Jira"} <= set(entities(doc))
    assert patterns(doc) == [
        "Rollbacks always go through ArgoCD, never through kubectl by hand.",
        "Migrations must stay backward compatible for one release.",
    ]
    text = overview(doc, 1500, False)
    assert text.count("\n- ") >= 3 + 6 + 2
    line = abstract(doc, ABSTRACT_TOKENS, False)
    assert line.startswith("Deployment pipeline: Our deployment pipeline runs on GitHub Actions")
    assert "ArgoCD syncs the cluster" in line
    assert count_tokens(line) <= ABSTRACT_TOKENS


def test_the_next_seq_is_read_from_an_index_not_the_backlog() -> None:
    """Every enqueue (each vc commit and pull) reads MAX(seq): a 25,000-row backlog is not scanned."""
    conn = sqlite3.connect(":memory:")
    queue.enqueue(conn, [f"d/t/e{i}.md" for i in range(2000)])
    plan = " ".join(str(row[-1]) for row in conn.execute(
        "EXPLAIN QUERY PLAN SELECT COALESCE(MAX(seq), 0) FROM summary_queue"))
    assert "summary_queue_seq" in plan, plan
    assert queue.enqueue(conn, ["d/t/new.md"]) == 1
    assert conn.execute("SELECT seq FROM summary_queue WHERE path = 'd/t/new.md'").fetchone() == (2001,)
