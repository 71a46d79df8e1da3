"""The pull-request action's opt-in merge-base step: when plain git (a forge's merge button)
conflicts merging the base into the pull request's branch, brv's driver merges it and the
merge commit is pushed to a real bare "forge" remote; a true conflict is left to a person,
named in the job summary."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_brv
from test_pr_action import run_step
from vc_helpers import git

ENTRY = "payments/ledger/double_entry.md"


def _curate(root: Path, monkeypatch: pytest.MonkeyPatch, now: str, *args: str) -> None:
    monkeypatch.setenv("BRV_NOW", now)
    done = run_brv("curate", *args, "--reason", "test", cwd=root)
    assert done.exit_code == 0, done.stderr


def _commit_push(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    git(root, "push", "-q", "origin", "HEAD")


@pytest.fixture
def forge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A bare forge remote whose main has one entry, and a person's in-project clone."""
    remote = tmp_path / "forge.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    dev = tmp_path / "dev"
    git(tmp_path, "clone", "-q", str(remote), str(dev))
    git(dev, "checkout", "-q", "-b", "main")
    (dev / "app.py").write_text("print('v1')\n")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=dev).exit_code == 0
    _curate(dev, monkeypatch, "2026-01-05T09:00:00Z", "add", "payments/ledger",
            "--title", "Double entry", "--content", "## Narrative\nPostings sum to zero.",
            "--tags", "ledger,money")
    _commit_push(dev, "main")
    return remote, dev


def _pull_request(forge: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
                  feature: tuple[str, ...], base: tuple[str, ...]) -> Path:
    """feature: one curate from main, pushed; then main moves by another; returns the
    runner's checkout (a fresh clone at the feature commit, as actions/checkout leaves it)."""
    remote, dev = forge
    git(dev, "checkout", "-q", "-b", "feature")
    _curate(dev, monkeypatch, "2026-01-06T10:00:00Z", *feature)
    _commit_push(dev, "feature")
    git(dev, "checkout", "-q", "main")
    _curate(dev, monkeypatch, "2026-01-07T11:30:00Z", *base)
    _commit_push(dev, "main moves")
    checkout = remote.parent / "runner"
    git(remote.parent, "clone", "-q", "--branch", "feature", str(remote), str(checkout))
    git(checkout, "checkout", "-q", "--detach")
    return checkout


def _run(checkout: Path, tmp_path: Path) -> tuple[str, dict[str, str], str]:
    """The diff step (it finds the mode), then merge-base; (stdout, outputs, job summary)."""
    main = git(checkout, "ls-remote", "origin", "refs/heads/main").split()[0]
    proc, out = run_step("diff", checkout, tmp_path, base=main, head="HEAD")
    assert proc.returncode == 0, proc.stderr
    summary = tmp_path / "summary.md"
    summary.write_text("")
    proc, merged = run_step("merge-base", checkout, tmp_path, steps={"mode": out["mode"]},
                            extra_env={"GITHUB_STEP_SUMMARY": str(summary)},
                            merge_base="true", base_ref="main", head_ref="feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout, merged, summary.read_text()


def _plain_merge_conflicts(remote: Path, tmp_path: Path, name: str) -> bool:
    """Whether plain git (no driver configured, as a forge) conflicts merging feature into main."""
    clone = tmp_path / name
    git(tmp_path, "clone", "-q", "--branch", "main", str(remote), str(clone))
    return git(clone, "merge", "--no-edit", "-q", "origin/feature", check=False) != "" or bool(
        git(clone, "diff", "--name-only", "--diff-filter=U"))


def test_knowledge_conflicts_are_merged_by_brv_and_pushed(
    forge: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote, _ = forge
    checkout = _pull_request(forge, monkeypatch,
                             feature=("update", ENTRY, "--tags", "ledger,money,audit"),
                             base=("update", ENTRY, "--tags", "ledger,money,payouts"))
    before = git(checkout, "rev-parse", "HEAD").strip()
    old_feature = git(remote, "rev-parse", "feature").strip()
    assert _plain_merge_conflicts(remote, tmp_path, "before")  # what the forge would say

    stdout, out, summary = _run(checkout, tmp_path)

    assert out["result"] == "pushed", stdout
    parents = git(remote, "rev-list", "--parents", "-n", "1", "feature").split()
    assert parents[1:] == [old_feature, git(remote, "rev-parse", "main").strip()]
    merged = git(remote, "show", f"feature:.brv/context-tree/{ENTRY}")
    assert '"audit"' in merged
    assert '"payouts"' in merged
    assert "<<<<<<<" not in merged
    assert "brv merged `main` into `feature`" in summary
    assert git(checkout, "rev-parse", "HEAD").strip() == before  # the checkout stays put
    assert not _plain_merge_conflicts(remote, tmp_path, "after")  # the forge can merge now


def test_a_shallow_checkout_as_actions_checkout_leaves_it(
    forge: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """actions/checkout fetches one commit by default: the step fetches the history it needs."""
    remote, _ = forge
    checkout = _pull_request(forge, monkeypatch,
                             feature=("update", ENTRY, "--tags", "ledger,money,audit"),
                             base=("update", ENTRY, "--tags", "ledger,money,payouts"))
    shutil.rmtree(checkout)
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", f"file://{remote}",
        str(checkout))
    assert git(checkout, "rev-parse", "--is-shallow-repository").strip() == "true"

    _, out, _ = _run(checkout, tmp_path)

    assert out["result"] == "pushed"
    assert '"payouts"' in git(remote, "show", f"feature:.brv/context-tree/{ENTRY}")


def test_a_true_conflict_names_the_command_and_pushes_nothing(
    forge: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote, _ = forge
    checkout = _pull_request(
        forge, monkeypatch,
        feature=("update", ENTRY, "--content", "## Narrative\nPostings balance per currency."),
        base=("update", ENTRY, "--content", "## Narrative\nPostings balance per account."))
    old_feature = git(remote, "rev-parse", "feature").strip()

    stdout, out, summary = _run(checkout, tmp_path)

    assert out["result"] == "conflict"
    assert git(remote, "rev-parse", "feature").strip() == old_feature
    command = "brv vc pull origin main && brv vc push"
    assert command in summary
    assert f".brv/context-tree/{ENTRY}" in summary
    assert "::warning::" in stdout
    # the command, run by a reviewer on the branch, stops on that conflict with brv's merge
    person = tmp_path / "person"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(remote), str(person))
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=person).exit_code == 0
    done = run_brv(*command.split(" && ")[0].split()[1:], cwd=person)
    assert done.exit_code == 1, done.stdout + done.stderr
    assert git(person, "diff", "--name-only", "--diff-filter=U").split() == [
        f".brv/context-tree/{ENTRY}"]
    text = (person / ".brv/context-tree" / ENTRY).read_text()
    assert text.count("<<<<<<<") == 1
    assert text.index("<<<<<<<") > text.index("\n---\n", 3)  # the frontmatter merged


def test_the_one_line_a_person_runs_merges_and_pushes(
    forge: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/vc.md's one-liner on the pull request's branch: the forge can merge after it."""
    remote, _ = forge
    _pull_request(forge, monkeypatch, feature=("update", ENTRY, "--tags", "ledger,money,audit"),
                  base=("update", ENTRY, "--tags", "ledger,money,payouts"))
    person = tmp_path / "person"
    git(tmp_path, "clone", "-q", "--branch", "feature", str(remote), str(person))
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=person).exit_code == 0
    for command in "brv vc pull origin main && brv vc push".split(" && "):
        done = run_brv(*command.split()[1:], cwd=person)
        assert done.exit_code == 0, done.stdout + done.stderr
    merged = git(remote, "show", f"feature:.brv/context-tree/{ENTRY}")
    assert '"audit"' in merged
    assert '"payouts"' in merged
    assert not _plain_merge_conflicts(remote, tmp_path, "after")


def test_a_base_plain_git_merges_is_left_to_the_forge(
    forge: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote, _ = forge
    checkout = _pull_request(
        forge, monkeypatch, feature=("update", ENTRY, "--tags", "ledger,money,audit"),
        base=("add", "payments/ledger", "--title", "Refunds", "--content", "Within 30 days."))
    old_feature = git(remote, "rev-parse", "feature").strip()

    _, out, summary = _run(checkout, tmp_path)

    assert out["result"] == "clean"
    assert git(remote, "rev-parse", "feature").strip() == old_feature
    assert summary == ""


def test_missing_branches_fail_with_a_clear_message(
    forge: tuple[Path, Path], tmp_path: Path
) -> None:
    _, dev = forge
    proc, _ = run_step("merge-base", dev, tmp_path, steps={"mode": "in-project"},
                       merge_base="true")
    assert proc.returncode == 1
    assert "merge-base needs the base and head branches" in proc.stdout


def test_a_standalone_knowledge_repository(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The checkout is the knowledge repository itself (its root is the tree)."""
    remote = tmp_path / "forge.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    dev = tmp_path / "dev"
    dev.mkdir()
    assert run_brv("vc", "init", "--no-hooks", cwd=dev).exit_code == 0
    tree = dev / ".brv" / "context-tree"
    git(tree, "checkout", "-q", "-B", "main")
    git(tree, "remote", "add", "origin", str(remote))
    _curate(dev, monkeypatch, "2026-01-05T09:00:00Z", "add", "payments/ledger",
            "--title", "Double entry", "--content", "## Narrative\nPostings sum to zero.",
            "--tags", "ledger,money")
    _commit_push(tree, "main")
    checkout = _pull_request((remote, tree), monkeypatch,
                             feature=("update", ENTRY, "--tags", "ledger,money,audit"),
                             base=("update", ENTRY, "--tags", "ledger,money,payouts"))
    # _pull_request curated in the tree's own folder: brv finds the project above it
    _, out, _ = _run(checkout, tmp_path)

    assert out["result"] == "pushed"
    merged = git(remote, "show", f"feature:{ENTRY}")
    assert '"audit"' in merged
    assert '"payouts"' in merged
