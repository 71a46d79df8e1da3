"""The pull-request action (action.yml): its shell steps, extracted and run with bash and the
environment GitHub sets, on real repositories with a feature branch (both vc modes)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, run_brv
from vc_helpers import git

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
STEPS = {step["id"]: step for step in ACTION["runs"]["steps"]}


def _expand(value: str, inputs: dict[str, str], steps: dict[str, str] | None = None) -> str:
    """``${{ inputs.x }}`` and ``${{ steps.diff.outputs.x }}`` as GitHub substitutes them."""
    value = re.sub(r"\$\{\{\s*steps\.diff\.outputs\.([\w-]+)\s*\}\}",
                   lambda m: (steps or {}).get(m.group(1), ""), value)
    return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], value)


def run_step(step_id: str, workspace: Path, tmp: Path, *, python: str = sys.executable,
             steps: dict[str, str] | None = None, extra_env: dict[str, str] | None = None,
             **given: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Runs one step as GitHub does: ``bash --noprofile --norc -eo pipefail``, its ``env:``
    with the inputs (and the diff step's ``steps``) substituted, GITHUB_ACTION_PATH,
    GITHUB_OUTPUT, RUNNER_TEMP set."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({k.replace("_", "-"): v for k, v in given.items()}, python=python)
    inputs = {k: ("" if "${{" in v else v) for k, v in inputs.items()}  # github.* are unset
    step = STEPS[step_id]
    outputs = tmp / f"github_output_{step_id}"
    outputs.write_text("")
    (tmp / "runner").mkdir(exist_ok=True)
    env = {**os.environ, "GITHUB_ACTION_PATH": str(REPO), "GITHUB_OUTPUT": str(outputs),
           "RUNNER_TEMP": str(tmp / "runner"), "GITHUB_WORKSPACE": str(workspace),
           **(extra_env or {})}
    env.update({k: _expand(str(v), inputs, steps) for k, v in step.get("env", {}).items()})
    script = tmp / f"{step_id}.sh"
    script.write_text(step["run"])
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=workspace, env=env, capture_output=True, text=True, check=False)
    return proc, _outputs(outputs.read_text())


def _outputs(text: str) -> dict[str, str]:
    """Parses GITHUB_OUTPUT: ``k=v`` lines and ``k<<DELIM`` blocks."""
    found, lines = {}, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<")[0]:
            key, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            found[key] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        key, _, value = line.partition("=")
        found[key] = value
        i += 1
    return found


def _knowledge(root: Path, title: str, content: str) -> None:
    done = run_brv("curate", "add", "payments/ledger", "--title", title, "--content", content,
                   "--summary", f"{title}: the rule", cwd=root)
    assert done.exit_code == 0, done.stderr


@pytest.fixture
def in_project(tmp_path: Path) -> Path:
    """A project tracking its tree (in-project mode), main with one entry."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "app.py").write_text("print('v1')\n")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    _knowledge(root, "Double entry", "Postings sum to zero.")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "main")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def test_a_knowledge_change_gives_the_comment_body(in_project: Path, tmp_path: Path) -> None:
    sections = "\n\n".join(f"## Rule {n}\n" + "\n".join(f"line {n}.{i}" for i in range(30))
                           for n in range(4))
    _knowledge(in_project, "Refund window", sections)
    git(in_project, "add", "-A")
    git(in_project, "commit", "-qm", "feature: refunds")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out["changed"] == "true"
    body = Path(out["comment-file"]).read_text()
    assert out["body"] == body.rstrip("\n")
    assert body.startswith("## Knowledge changes")
    assert "payments/ledger/refund_window.md" in body
    assert "> Refund window: the rule" in body  # the summary
    assert "<details><summary>Rule 0 (30 lines)</summary>" in body  # folded sections
    assert "+ line 0.0" in body
    assert "more lines cut" in body  # cut at the budget, with a count
    assert re.search(r"1 more section \(30 lines\) cut", body) or "more sections" in body


def test_a_deleted_entry_shows_what_was_lost(in_project: Path, tmp_path: Path) -> None:
    gone = run_brv("curate", "delete", "payments/ledger/double_entry.md", "--reason", "wrong",
                   cwd=in_project)
    assert gone.exit_code == 0, gone.stderr
    git(in_project, "add", "-A")
    git(in_project, "commit", "-qm", "feature: drop")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    body = out["body"]
    assert "**Knowledge removed**" in body
    assert "- Postings sum to zero." in body


def test_a_code_only_change_writes_nothing(in_project: Path, tmp_path: Path) -> None:
    (in_project / "app.py").write_text("print('v2')\n")
    git(in_project, "commit", "-qam", "feature: code only")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out == {"changed": "false", "mode": "in-project"}
    assert not list((tmp_path / "runner").iterdir())  # no comment file at all


def test_standalone_knowledge_repository(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("vc", "init", "--no-hooks", cwd=root).exit_code == 0
    _knowledge(root, "Double entry", "Postings sum to zero.")
    assert run_brv("vc", "add", cwd=root).exit_code == 0
    assert run_brv("vc", "commit", "-m", "main", cwd=root).exit_code == 0
    # CI checks out the knowledge repository itself: its root is the tree
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(root / ".brv" / "context-tree"), str(checkout))
    git(checkout, "checkout", "-q", "-b", "feature")
    (checkout / "payments" / "ledger" / "chargebacks.md").write_text(
        '---\ntitle: "Chargebacks"\nsummary: "Disputed charges"\n---\n## Narrative\n'
        "A chargeback reverses a settled charge.\n")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-qm", "feature")
    proc, out = run_step("diff", checkout, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out["changed"] == "true"
    assert "payments/ledger/chargebacks.md" in out["body"]
    assert "> Disputed charges" in out["body"]
    assert git(checkout, "status", "--porcelain") == ""  # the checkout is left as it was


def test_missing_commits_fail_with_a_clear_message(in_project: Path, tmp_path: Path) -> None:
    proc, _ = run_step("diff", in_project, tmp_path, base="", head="")
    assert proc.returncode == 1
    assert "no base/head commits" in proc.stdout


@pytest.mark.slow
def test_the_install_step_installs_brv_from_the_action_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One real ``pip install "$GITHUB_ACTION_PATH"`` into a fresh virtualenv (~1 minute on a
    loaded machine: the build and its dependencies come from the package index)."""
    monkeypatch.delenv("PYTHONPATH", raising=False)  # only what the step installs counts
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    build = REPO / "build"
    had_build = build.exists()
    try:
        proc, _ = run_step("install", tmp_path, tmp_path, python=python)
    finally:
        if not had_build:  # setuptools builds in the source folder
            shutil.rmtree(build, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("brv, version")
    where = subprocess.run([python, "-c", "import brv_vc; print(brv_vc.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert str(venv) in where
    # pinned (action/constraints.txt), and without the MCP SDK's web stack (the [mcp] extra)
    assert subprocess.run([python, "-c", "import mcp"], capture_output=True,
                          check=False).returncode != 0
    frozen = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True,
                            check=True).stdout.lower()
    pins = [ln.lower() for ln in (REPO / "action/constraints.txt").read_text().splitlines()
            if ln and not ln.startswith("#")]
    assert [p for p in pins if p.split("==")[0] in frozen and p not in frozen] == []


def _feature_with_knowledge(root: Path) -> tuple[str, str]:
    _knowledge(root, "Refund window", "Refunds within 30 days.")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "feature: refunds")
    return git(root, "rev-parse", "main").strip(), git(root, "rev-parse", "feature").strip()


def test_a_depth_1_checkout_fetches_base_and_head(in_project: Path, tmp_path: Path) -> None:
    """actions/checkout's default: one commit. The action fetches what the range needs."""
    base, head = _feature_with_knowledge(in_project)
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "main",
        f"file://{in_project}", str(checkout))
    assert subprocess.run(["git", "cat-file", "-e", f"{head}^{{commit}}"], cwd=checkout,
                          check=False).returncode != 0  # really missing before the step
    proc, out = run_step("diff", checkout, tmp_path, base=base, head=head)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"brv: fetching {head}" in proc.stdout
    assert out["changed"] == "true"
    assert "payments/ledger/refund_window.md" in out["body"]


def test_a_commit_that_cannot_be_fetched_is_one_clear_error(in_project: Path,
                                                           tmp_path: Path) -> None:
    _, head = _feature_with_knowledge(in_project)
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature",
        f"file://{in_project}", str(checkout))
    proc, out = run_step("diff", checkout, tmp_path, base="f" * 40, head=head)
    assert proc.returncode == 1
    assert f"::error::brv: commit {'f' * 40} is not in the checkout" in proc.stdout
    assert "fetch-depth: 0" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "changed" not in out


def test_brvs_own_error_reaches_the_log(tmp_path: Path) -> None:
    """brv refuses (no brv project in a forced in-project mode): its message, no traceback."""
    plain = tmp_path / "plain"
    plain.mkdir()
    git(plain, "init", "-q", "-b", "main")
    for name in ("a", "b"):
        (plain / name).write_text(name)
        git(plain, "add", name)
        git(plain, "commit", "-qm", name)
    proc, out = run_step("diff", plain, tmp_path, base="HEAD~1", head="HEAD", mode="in-project")
    assert proc.returncode == 1
    assert "::error::brv: 'brv vc diff HEAD~1..HEAD' failed" in proc.stdout
    assert "brv init" in proc.stdout + proc.stderr  # brv's own hint, not swallowed
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "changed" not in out


class _GitHub:
    """The three REST calls of the comment step, on loopback: list, create, edit comments."""

    def __init__(self) -> None:
        self.comments: dict[int, str] = {7: "a reviewer's own comment"}
        self.calls: list[str] = []


def _serve(state: _GitHub):  # type: ignore[no-untyped-def]
    import json as _json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            pass

        def _answer(self, code: int, data: object) -> None:
            raw = _json.dumps(data).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _body(self) -> str:
            return str(_json.loads(self.rfile.read(int(self.headers["Content-Length"])))["body"])

        def do_GET(self) -> None:
            state.calls.append(f"GET {self.path}")
            assert self.headers["Authorization"] == "Bearer t0ken"
            self._answer(200, [{"id": i, "body": b} for i, b in state.comments.items()])

        def do_POST(self) -> None:
            state.calls.append(f"POST {self.path}")
            new = max(state.comments) + 1
            state.comments[new] = self._body()
            self._answer(201, {"id": new})

        def do_PATCH(self) -> None:
            state.calls.append(f"PATCH {self.path}")
            state.comments[int(self.path.rsplit("/", 1)[1])] = self._body()
            self._answer(200, {})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_one_comment_is_updated_on_every_push(in_project: Path, tmp_path: Path) -> None:
    state = _GitHub()
    server = _serve(state)
    env = {"GITHUB_API_URL": f"http://127.0.0.1:{server.server_address[1]}",
           "GITHUB_REPOSITORY": "acme/app"}
    try:
        base, head = _feature_with_knowledge(in_project)
        for push in (1, 2):
            if push == 2:
                _knowledge(in_project, "Chargebacks", "Disputes reverse a charge.")
                git(in_project, "add", "-A")
                git(in_project, "commit", "-qm", "feature: chargebacks")
                head = git(in_project, "rev-parse", "HEAD").strip()
            proc, out = run_step("diff", in_project, tmp_path, base=base, head=head)
            assert proc.returncode == 0, proc.stderr
            done, _ = run_step("comment", in_project, tmp_path, steps=out, extra_env=env,
                               pr="12", github_token="t0ken")
            assert done.returncode == 0, done.stdout + done.stderr
        assert [c.split("?")[0] for c in state.calls] == [
            "GET /repos/acme/app/issues/12/comments", "POST /repos/acme/app/issues/12/comments",
            "GET /repos/acme/app/issues/12/comments", "PATCH /repos/acme/app/issues/comments/8"]
        assert len(state.comments) == 2  # the reviewer's and brv's one
        assert state.comments[7] == "a reviewer's own comment"
        assert "payments/ledger/chargebacks.md" in state.comments[8]
        assert state.comments[8].startswith("<!-- brv-knowledge-diff -->\n")
    finally:
        server.shutdown()


def test_a_refused_token_is_one_clear_error(in_project: Path, tmp_path: Path) -> None:
    body = tmp_path / "body.md"
    body.write_text("## Knowledge changes\n")
    proc, _ = run_step("comment", in_project, tmp_path, steps={"comment-file": str(body)},
                       extra_env={"GITHUB_API_URL": "http://127.0.0.1:9",
                                  "GITHUB_REPOSITORY": "acme/app"}, pr="12", github_token="x")
    assert proc.returncode == 1
    assert proc.stdout.startswith("::error::brv: the pull-request comment failed: GET")
    assert "Traceback" not in proc.stdout + proc.stderr
