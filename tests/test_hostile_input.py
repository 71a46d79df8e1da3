"""Malformed and hostile input ends in exit 1, a message naming the file and the fix, and no change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from brv_vc.tree.project import Project
from tests.conftest import REPO, snapshot

ENTRY = "api/auth/token_rotation.md"


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    result = brv("curate", "add", "api/auth", "--title", "Token rotation", "--content",
                 "Refresh tokens are single-use.", "--reason", "seed", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    return project


def refused(brv, root: Path, *args: str, input: str | None = None) -> str:
    """Runs brv, asserts exit 1 and an unchanged tree; returns stderr."""
    before = snapshot(root)
    result = brv(*args, cwd=root, input=input)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "internal error" not in result.stderr
    assert snapshot(root) == before
    return result.stderr


def run_process(*args: str, cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """A real ``brv`` process with a deadline: a hang fails the test instead of blocking it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


def test_deeply_nested_ops_json(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "deep.json"
    ops.write_text("[" * 100_000 + "]" * 100_000)
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "the operations nest too deeply" in err
    assert f"file: {ops}" in err
    assert "hint: give a flat JSON array" in err


@pytest.mark.parametrize("key", ["title", "content"])
def test_lone_surrogate_in_title_or_content(seeded: Project, brv, tmp_path: Path,
                                            key: str) -> None:
    op = {"type": "ADD", "path": "api/auth", "title": "Lone", "content": "text", "reason": "r"}
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([op]).replace(f'"{op[key]}"', f'"x\\ud800{op[key]}"'))
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert f"invalid operation at operations[0].{key}: it holds a lone surrogate (\\ud800)" in err
    assert "hint: send the character itself" in err


def test_ops_from_dev_zero_is_refused_without_reading_forever(seeded: Project) -> None:
    before = snapshot(seeded.root)
    proc = run_process("curate", "--ops", "/dev/zero", cwd=seeded.root, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "operations file '/dev/zero' is a character device, not a regular file" in proc.stderr
    assert "hint: give a regular JSON file, or '-' to read from stdin" in proc.stderr
    assert snapshot(seeded.root) == before


def test_nul_byte_in_content_is_refused_at_curate(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"type": "ADD", "path": "api/auth", "title": "Nul",
                                "content": "a\u0000b", "reason": "r"}]))
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "operations[0].content: it holds a NUL character" in err
    assert not (seeded.tree / "api/auth/nul.md").exists()


def test_oversized_content_is_refused_at_curate(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"type": "ADD", "path": "api/auth", "title": "Big",
                                "content": "word " * 300_000, "reason": "r"}]))
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "operations[0].content: is 1,500,000 characters long" in err


def test_symlink_loop_in_the_tree(seeded: Project, brv) -> None:
    folder = seeded.tree / "api/auth"
    os.symlink("loop_b.md", folder / "loop_a.md")
    os.symlink("loop_a.md", folder / "loop_b.md")
    err = refused(brv, seeded.root, "show", "api/auth/loop_a.md")
    assert "'api/auth/loop_a.md' goes through a symlink ('api/auth/loop_a.md' -> loop_b.md)" in err
    assert "hint: replace the link with the real file or folder, or remove it: rm " in err
    result = brv("index", "--json", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    listed = {p["path"]: p["message"] for p in result.json()["problems"]}
    assert "is a symlink, not a regular file" in listed["api/auth/loop_a.md"]
    assert "api/auth/loop_b.md" in listed
    assert brv("search", "rotation", cwd=seeded.root).exit_code == 0


def test_huge_entry_is_listed_as_a_problem_and_not_indexed(seeded: Project, brv) -> None:
    big = seeded.tree / "api/auth/huge.md"
    big.write_text('---\ntitle: "Huge"\n---\n' + "zyzzyva " * 200_000)
    result = brv("index", "--json", cwd=seeded.root)
    listed = {p["path"]: p["message"] for p in result.json()["problems"]}
    assert "larger than brv's limit of 1,048,576 bytes" in listed["api/auth/huge.md"]
    found = brv("search", "zyzzyva", "--json", cwd=seeded.root).json()
    assert found["results"] == []
    err = refused(brv, seeded.root, "show", "api/auth/huge.md")
    assert "hint: split it into smaller entries" in err


def test_fifo_named_like_an_entry_never_hangs(seeded: Project) -> None:
    os.mkfifo(seeded.tree / "api/auth/pipe.md")
    proc = run_process("show", "api/auth/pipe.md", cwd=seeded.root, timeout=30)
    assert proc.returncode == 1
    assert "'api/auth/pipe.md' is a FIFO (named pipe), not a regular file" in proc.stderr
    assert "rm .brv/context-tree/api/auth/pipe.md" in proc.stderr
    for args in (("index",), ("search", "rotation"), ("summarize",), ("tree",)):
        assert run_process(*args, cwd=seeded.root, timeout=60).returncode in (0, 1), args


def _laughs() -> str:
    lines = ['---', 'title: "Laughs"', 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        prev, name = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join([*lines, "---", "", "body", ""])


def test_billion_laughs_entry_is_refused(seeded: Project, brv) -> None:
    (seeded.tree / "api/auth/laughs.md").write_text(_laughs())
    proc = run_process("show", "api/auth/laughs.md", cwd=seeded.root, timeout=30)
    assert proc.returncode == 1
    assert "an alias (*a) is not allowed in frontmatter" in proc.stderr
    assert "file: api/auth/laughs.md" in proc.stderr
    assert "hint: write the value out in full instead of the *alias" in proc.stderr
    proc = run_process("index", "--json", cwd=seeded.root, timeout=60)
    assert any(p["path"] == "api/auth/laughs.md" for p in json.loads(proc.stdout)["problems"])


def test_huge_config_is_refused_quickly(seeded: Project) -> None:
    with open(seeded.config_path, "a", encoding="utf-8") as out:
        out.write(("# padding " + "x" * 1000 + "\n") * 50_000)
    before = snapshot(seeded.root)
    proc = run_process("search", "rotation", cwd=seeded.root, timeout=30)
    assert proc.returncode == 1
    assert "config.yaml is 50," in proc.stderr
    assert "above the limit of 262,144 bytes" in proc.stderr
    assert "file: .brv/config.yaml" in proc.stderr
    assert snapshot(seeded.root) == before


def test_config_with_yaml_aliases_is_refused(seeded: Project, brv) -> None:
    seeded.config_path.write_text(_laughs().split("---")[1].replace('title: "Laughs"', "version: 1"))
    err = refused(brv, seeded.root, "search", "rotation")
    assert "an alias (*a) is not allowed" in err
    assert "file: .brv/config.yaml" in err


def test_entry_with_a_yaml_python_tag_is_never_executed(seeded: Project, brv,
                                                        tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    (seeded.tree / "api/auth/evil.md").write_text(
        f'---\ntitle: !!python/object/apply:os.system ["touch {marker}"]\n---\nbody\n')
    err = refused(brv, seeded.root, "show", "api/auth/evil.md")
    assert "file: api/auth/evil.md" in err
    result = brv("index", "--json", cwd=seeded.root)
    assert any(p["path"] == "api/auth/evil.md" for p in result.json()["problems"])
    assert not marker.exists()


@pytest.mark.parametrize("path", ["../outside", "api/../../etc", "api/auth/../../../x.md"])
def test_dot_dot_paths_are_refused(seeded: Project, brv, path: str) -> None:
    err = refused(brv, seeded.root, "curate", "upsert", path, "--title", "T", "--content", "x")
    assert "leaves the context tree ('..')" in err
    err = refused(brv, seeded.root, "show", path)
    assert "leaves the context tree ('..')" in err
