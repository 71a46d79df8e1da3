"""Hostile files, JSON, YAML and names are refused with exit 1, a message and nothing changed."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from test_hostile_input import run_process

from brv_vc.cli.input_files import MAX_OPS_BYTES, read_source
from brv_vc.errors import FormatError
from brv_vc.tree.project import Project

OP = {"type": "ADD", "path": "api/auth", "title": "Fresh", "content": "text", "reason": "r"}


def _rows(db: Path) -> str:
    """A database's rows, table by table: the audit log aside (it records each refusal)."""
    try:
        conn = sqlite3.connect(db)
        conn.execute("SELECT 1 FROM sqlite_master").fetchall()
    except sqlite3.OperationalError:  # a read-only folder: no -shm can be made; nothing moves
        conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    with conn:
        tables = [t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
                  if t not in ("curate_log", "sqlite_sequence")]
        return repr([(t, sorted(map(repr, conn.execute(f"SELECT * FROM {t}")))) for t in tables])


def disk(root: Path) -> dict[str, str]:
    """A hash of every file of the project, ``.brv/state`` included: its databases by their
    rows (SQLite may checkpoint its -wal into the file on any open)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.endswith(("-wal", "-shm")) or "/.git/" in f"/{rel}":
            continue
        data = _rows(path).encode() if rel.endswith(".db") else path.read_bytes()
        out[rel] = hashlib.sha256(data).hexdigest()
    return out


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    result = brv("curate", "add", "api/auth", "--title", "Token rotation", "--content",
                 "Refresh tokens are single-use.", "--reason", "seed", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert brv("search", "rotation", cwd=project.root).exit_code == 0  # state settled
    return project


def refused(brv, root: Path, *args: str, input: str | None = None) -> str:
    """Runs brv, asserts exit 1 and an unchanged tree and state; returns stderr."""
    before = disk(root)
    result = brv(*args, cwd=root, input=input)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "internal error" not in result.stderr
    assert disk(root) == before
    return result.stderr


def refused_process(root: Path, *args: str, timeout: float = 30) -> str:
    """As :func:`refused`, in a real process with a deadline (a hang fails the test)."""
    before = disk(root)
    proc = run_process(*args, cwd=root, timeout=timeout)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "internal error" not in proc.stderr
    assert disk(root) == before
    return proc.stderr


def test_a_300_character_path_segment_in_ops(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{**OP, "path": "api/" + "a" * 300}]))
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "has a name of 300 characters; no file system stores a name longer than 255 bytes" \
        in err
    assert "hint: use names of at most 100 characters" in err
    err = refused(brv, seeded.root, "show", "api/" + "a" * 300 + "/x.md")
    assert "has a name of 300 characters" in err


def test_a_long_cjk_title_makes_a_name_within_name_max(seeded: Project, brv) -> None:
    result = brv("curate", "add", "api/auth", "--title", "設定" * 80, "--content", "c",
                 "--reason", "r", "--json", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    name = result.json()["applied"][0]["file"].rsplit("/", 1)[1]
    assert len(name.encode()) <= 203  # 200 bytes and '.md': room for .overview.md


def test_an_entry_named_before_the_byte_cut_is_still_found(seeded: Project, brv) -> None:
    title = "設定" * 40  # 240 bytes: the name an earlier version gave it
    old = seeded.tree / "api/auth" / (title + ".md")
    old.write_text(f'---\ntitle: "{title}"\n---\nold text\n', encoding="utf-8")
    result = brv("curate", "update", "api/auth", "--title", title, "--content", "new text",
                 "--reason", "r", "--json", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert result.json()["applied"][0]["file"] == f"api/auth/{title}.md"
    assert "new text" in old.read_text(encoding="utf-8")


@pytest.mark.parametrize(("path", "why"), [
    ("api/auth/con.md", "is a device name on Windows"),
    ("api/auth/nul.md", "is a device name on Windows"),
    ("api/auth/COM1.md", "is a device name on Windows"),
    ("api/aux/entry.md", "is a device name on Windows"),
    ("api/lpt9/entry.md", "is a device name on Windows"),
    ("api/auth./entry.md", "ends with a dot or a space"),
    ("api/au:th/entry.md", "holds ':', which Windows does not allow"),
    ("api/a*b/entry.md", "holds '*', which Windows does not allow"),
    ("api/a?b/entry.md", "holds '?', which Windows does not allow"),
    ("api/a|b/entry.md", "holds '|', which Windows does not allow"),
    ('api/a"b/entry.md', "holds '\"', which Windows does not allow"),
    ("api/a<b/entry.md", "holds '<', which Windows does not allow"),
])
def test_names_a_windows_clone_cannot_check_out_are_refused(seeded: Project, brv,
                                                           path: str, why: str) -> None:
    err = refused(brv, seeded.root, "curate", "upsert", path, "--title", "T", "--content", "x")
    assert why in err
    assert "so a Windows clone could not check it out" in err
    assert "hint: choose another name" in err


@pytest.mark.parametrize("title", ["con", "NUL", "com1", "Aux"])
def test_a_title_that_is_a_device_name_gets_a_hashed_file_name(seeded: Project, brv,
                                                               title: str) -> None:
    result = brv("curate", "add", "api/auth", "--title", title, "--content", "x",
                 "--reason", "r", "--json", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    name = result.json()["applied"][0]["file"].rsplit("/", 1)[1]
    assert name.startswith(f"{title.lower()}_")
    assert len(name) == len(title) + 1 + 6 + 3


def test_100000_deep_json_to_dream_apply_and_ops(seeded: Project, brv, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    err = refused(brv, seeded.root, "dream", "apply", str(deep), "--force")
    assert "the decisions nest too deeply to be read" in err
    assert f"file: {deep}" in err
    assert "hint: give a flat JSON array" in err
    err = refused(brv, seeded.root, "curate", "--ops", str(deep))
    assert "the operations nest too deeply to be read" in err
    # deep enough to overflow the validators, not json.loads
    deep.write_text(json.dumps([{**OP, "tags": json.loads("[" * 500 + "]" * 500)}]))
    err = refused(brv, seeded.root, "curate", "--ops", str(deep))
    assert "more than 64 levels" in err


@pytest.mark.parametrize(("command", "doc", "key"), [
    (("curate", "--ops"), '[{"type": "ADD", "type": "DELETE", "path": "api/auth", '
     '"title": "Token rotation", "reason": "r"}]', "type"),
    (("dream", "apply"), '[{"operation": "prune", "action": "KEEP", "file": "a/b/c.md", '
     '"reason": "r", "reason": "x"}]', "reason"),
])
def test_duplicate_json_keys_are_refused(seeded: Project, brv, tmp_path: Path,
                                         command: tuple[str, ...], doc: str, key: str) -> None:
    source = tmp_path / "doc.json"
    source.write_text(doc)
    err = refused(brv, seeded.root, *command, str(source), *(["--force"] if "dream" in command
                                                               else []))
    assert f"repeat the key '{key}' in one JSON object" in err
    assert "the first would be silently ignored; nothing was applied" in err
    assert f"file: {source}" in err
    assert "hint: give each key once per object" in err
    assert (seeded.tree / "api/auth/token_rotation.md").exists()


def test_dream_apply_dev_zero_is_refused_at_once(seeded: Project) -> None:
    started = time.monotonic()
    err = refused_process(seeded.root, "dream", "apply", "/dev/zero", "--force", timeout=30)
    assert time.monotonic() - started < 20
    assert "decisions file '/dev/zero' is a character device, not a regular file" in err
    assert "hint: give a regular JSON file, or '-' to read from stdin" in err


@pytest.mark.parametrize("args", [("curate", "--ops", "{fifo}"),
                                  ("curate", "add", "api/auth", "--title", "T", "--file",
                                   "{fifo}"),
                                  ("dream", "apply", "{fifo}", "--force")])
def test_a_fifo_never_blocks(seeded: Project, tmp_path: Path, args: tuple[str, ...]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    err = refused_process(seeded.root, *(a.format(fifo=fifo) for a in args), timeout=30)
    assert f"file '{fifo}' is a FIFO (named pipe), not a regular file; nothing was read" in err


def test_a_50_mb_ops_file_is_refused_from_its_size(seeded: Project, brv,
                                                   tmp_path: Path) -> None:
    ops = tmp_path / "big.json"
    with ops.open("w") as out:
        out.write("[")
        out.write(",".join([json.dumps({**OP, "content": "x" * 5000})] * 10_000))
        out.write("]")
    assert ops.stat().st_size > 50_000_000
    started = time.perf_counter()
    with pytest.raises(FormatError) as caught:
        read_source(str(ops), "operations")
    assert time.perf_counter() - started < 0.1  # refused from the stat: nothing read
    assert f"is {ops.stat().st_size:,} bytes, above brv's limit of 16 MiB" in caught.value.message
    err = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "hint: split it into smaller files" in err
    assert MAX_OPS_BYTES < 50_000_000


def test_oversized_stdin_and_content_file(seeded: Project, brv, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * (2 << 20))
    err = refused(brv, seeded.root, "curate", "add", "api/auth", "--title", "Big", "--file",
                  str(big), "--reason", "r")
    assert "above brv's limit of 1 MiB" in err
    assert "an entry holds at most 40,000 characters" in err
    err = refused(brv, seeded.root, "curate", "--ops", "-", input=" " * (MAX_OPS_BYTES + 10))
    assert "operations file '<stdin>' is more than 16 MiB, above brv's limit of 16 MiB" in err


def test_50000_deep_yaml_in_config(seeded: Project) -> None:
    seeded.config_path.write_text("version: 1\nx: " + "[" * 50_000 + "]" * 50_000 + "\n")
    started = time.monotonic()
    err = refused_process(seeded.root, "search", "rotation", timeout=30)
    assert time.monotonic() - started < 20
    assert "the YAML nests more than 64 levels deep" in err
    assert "file: .brv/config.yaml" in err


def test_deep_yaml_frontmatter_is_a_problem_not_a_crash(seeded: Project, brv) -> None:
    (seeded.tree / "api/auth/deep.md").write_text(
        '---\ntitle: "Deep"\ntags: ' + "[" * 5000 + "]" * 5000 + "\n---\nbody\n")
    err = refused(brv, seeded.root, "show", "api/auth/deep.md")
    assert "the YAML nests more than 64 levels deep" in err
    result = brv("index", "--json", cwd=seeded.root)
    listed = {p["path"]: p["message"] for p in result.json()["problems"]}
    assert "nests more than 64 levels deep" in listed["api/auth/deep.md"]


def test_an_argument_that_is_not_utf8_is_refused(seeded: Project) -> None:
    # argv bytes that are not UTF-8 reach Python as lone surrogates (surrogateescape)
    err = refused_process(seeded.root, "curate", "add", "api/auth", "--title", "Bad",
                          "--content", "caf\udce9", "--reason", "r")
    assert "is not valid UTF-8" in err
