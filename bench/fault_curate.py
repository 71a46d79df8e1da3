"""Fault script: kill -9 of curate DELETE / MERGE and of restore, and concurrent writers.

Each trial copies a prepared project, runs one real ``brv`` process and kills it (SIGKILL of
its process group) at a random moment of its measured run, at a targeted step through
``BRV_FAULT_AT`` (brv_vc/tree/fault.py: the process kills itself there; code without the
hook runs to its end), or at the n-th ``os.replace`` / ``os.unlink`` it makes (a
``sitecustomize`` wraps them: any version of brv, so the code before the fix is measured
at the same moments). Then the next command runs (``brv tree``; for restore ``brv search``,
the read path) and the trial checks:

- lost: an operation in the tree that the audit log does not show, or shown as not applied;
- half: a folder DELETE or a MERGE (target, source, backlinks) neither whole nor absent; a
  restore leaving both or neither of the entry and its archive (or search listing both);
- manual: the next command failed, or left a journal, a staging folder or a temp file.

``writers`` runs N ``brv curate --ops`` processes of M UPDATEs on one entry, each adding its
own ``## W<k>_<j>`` section, and counts the sections, the audit rows and updateCount.

Usage (about 10 minutes for the full count on two cores)::

    python bench/fault_curate.py --trials 100            # the code of this checkout
    python bench/fault_curate.py --code /tmp/old --trials 20 --json out.json

``--code DIR`` runs the brv found at DIR (a checkout) instead.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


# Kills at the n-th os.replace / os.unlink of the process, for any version of brv (the code
# before BRV_FAULT_AT included): a sitecustomize module wraps the call.
SITECUSTOMIZE = """
import os, signal
_spec = os.environ.get("BRV_OS_FAULT", "")
if _spec:
    _name, _, _nth = _spec.partition(":")
    _real, _count = getattr(os, _name), [0]

    def _patched(*args, **kwargs):
        _count[0] += 1
        if _count[0] >= int(_nth or 1):
            os.kill(os.getpid(), signal.SIGKILL)
        return _real(*args, **kwargs)

    setattr(os, _name, _patched)
    if _name == "unlink":
        os.remove = _patched
"""


@dataclass
class Runner:
    """Runs brv from a checkout as real processes."""

    code: Path
    site: Path | None = None  # the folder of the sitecustomize above

    def env(self, fault: str = "") -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("BRV_FAULT_AT", "BRV_OS_FAULT")}
        env["PYTHONPATH"] = str(self.code)
        if fault.startswith("os:") and self.site is not None:
            env["BRV_OS_FAULT"] = fault[3:]
            env["PYTHONPATH"] = f"{self.site}{os.pathsep}{self.code}"
        elif fault:
            env["BRV_FAULT_AT"] = fault
        return env

    def run(self, root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=root, env=self.env(),
                              capture_output=True, text=True, timeout=600)
        if check and proc.returncode not in (0,):
            raise RuntimeError(f"brv {' '.join(args)}: {proc.returncode}\n{proc.stderr}")
        return proc

    def start(self, root: Path, *args: str, fault: str = "") -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "brv_vc", *args], cwd=root,
                                env=self.env(fault), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)


def kill_after(proc: subprocess.Popen[bytes], delay: float) -> bool:
    """SIGKILLs the process group after ``delay`` s; True when it was still running."""
    try:
        proc.wait(timeout=delay)
        return proc.returncode == -signal.SIGKILL  # killed itself at a fault point
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return True


def ops_file(folder: Path, name: str, ops: list[dict[str, Any]]) -> Path:
    path = folder / name
    path.write_text(json.dumps(ops), encoding="utf-8")
    return path


def log_rows(root: Path, reason: str) -> list[tuple[str, str, str]]:
    """(type, path, status) of the audit rows with ``reason``."""
    db = root / ".brv/state/brv.db"
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, path, status FROM curate_log WHERE reason = ? "
                            "ORDER BY id", (reason,)).fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def leftovers(root: Path) -> list[str]:
    state = root / ".brv/state"
    found = [p.name for p in state.glob(".curate-staging-*")]
    found += [p.name for p in (state / "pending").glob("*")] if (state / "pending").is_dir() else []
    found += [p.name for p in (state / "tmp").glob("*")] if (state / "tmp").is_dir() else []
    return found


@dataclass
class Tally:
    """Trials, kills and the three kinds of failure of one scenario."""

    name: str
    trials: int = 0
    kills: int = 0
    lost: int = 0
    half: int = 0
    manual: int = 0
    notes: list[str] = field(default_factory=list)

    def fail(self, kind: str, message: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.notes) < 12:
            self.notes.append(f"{kind}: {message}")

    def row(self) -> dict[str, Any]:
        return {"scenario": self.name, "trials": self.trials, "kills": self.kills,
                "lost": self.lost, "half": self.half, "manual": self.manual,
                "notes": self.notes}


class Scenario:
    """A prepared project, the command to kill, its fault steps and its check."""

    name = ""
    steps: tuple[str, ...] = ()
    os_calls: tuple[tuple[str, int], ...] = ()  # (os call, about how many a run makes)

    def __init__(self, runner: Runner, work: Path) -> None:
        self.runner, self.work = runner, work
        self.template = work / f"{self.name}-template"

    def prepare(self) -> None:
        raise NotImplementedError

    def command(self) -> tuple[str, ...]:
        raise NotImplementedError

    def next_command(self, root: Path, tally: Tally, label: str) -> bool:
        proc = self.runner.run(root, "tree", check=False)
        if proc.returncode != 0:
            tally.fail("manual", f"{label}: the next command failed: {proc.stderr[-300:]}")
            return False
        return True

    def check(self, root: Path, tally: Tally, label: str) -> None:
        raise NotImplementedError

    def measure(self) -> float:
        times = []
        for _ in range(3):
            probe = self.work / f"{self.name}-probe"
            shutil.rmtree(probe, ignore_errors=True)
            shutil.copytree(self.template, probe)
            began = time.monotonic()
            self.runner.run(probe, *self.command(), check=False)
            times.append(time.monotonic() - began)
            shutil.rmtree(probe)
        return statistics.median(times)

    def trials(self, count: int, rng: random.Random, targeted_share: float,
               os_share: float) -> Tally:
        tally = Tally(self.name)
        full = self.measure()
        for number in range(count):
            root = self.work / f"{self.name}-t{number}"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(self.template, root)
            fault = ""
            draw = rng.random()
            if self.os_calls and draw < os_share:
                call, most = rng.choice(self.os_calls)
                fault = f"os:{call}:{rng.randint(1, most)}"
                delay = full * 20 + 30  # the process kills itself
                label = f"trial {number} ({fault})"
            elif self.steps and draw < os_share + targeted_share:
                step = rng.choice(self.steps)
                fault = f"{step}:{rng.randint(1, self.passes(step))}"
                delay = full * 20 + 30
                label = f"trial {number} ({fault})"
            else:
                delay = rng.uniform(0.0, full * 1.05)
                label = f"trial {number} (kill at {delay:.2f}s of {full:.2f}s)"
            tally.trials += 1
            tally.kills += kill_after(self.runner.start(root, *self.command(), fault=fault),
                                      delay)
            if self.next_command(root, tally, label):
                if leftovers(root):
                    tally.fail("manual", f"{label}: left after the next command: "
                                         f"{leftovers(root)[:3]}")
                self.check(root, tally, label)
            shutil.rmtree(root, ignore_errors=True)
        return tally

    def passes(self, step: str) -> int:
        return 1


def _entry(title: str, body: str, related: list[str] | None = None) -> str:
    rel = "".join(f"\n  - {r}" for r in related or [])
    return (f'---\ntitle: "{title}"\nsummary: "{title}"\n'
            + (f"related:{rel}\n" if related else "")
            + f"---\n\n## Narrative\n\n{body}\n")


class DeleteScenario(Scenario):
    """A batch ADD, folder DELETE (FOLDER entries), ADD."""

    name = "curate-delete"
    steps = ("curate-staged", "curate-rename", "curate-delete", "curate-applied")
    os_calls = (("unlink", 320), ("replace", 8))
    FOLDER = 300

    def prepare(self) -> None:
        root = self.template
        root.mkdir(parents=True)
        self.runner.run(root, "init")
        tree = root / ".brv/context-tree"
        for i in range(self.FOLDER):
            path = tree / f"big/t{i % 6}/e{i}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_entry(f"Big {i}", f"big body {i}"))
        for i in range(10):
            path = tree / f"other/t{i % 2}/o{i}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_entry(f"Other {i}", f"other body {i}"))
        self.runner.run(root, "index")
        self.ops = ops_file(self.work, "delete-ops.json", [
            {"type": "ADD", "path": "other/t0", "title": "Fresh one", "content": "x",
             "reason": "fault"},
            {"type": "DELETE", "path": "big", "reason": "fault"},
            {"type": "ADD", "path": "other/t1", "title": "Fresh two", "content": "y",
             "reason": "fault"},
        ])

    def command(self) -> tuple[str, ...]:
        return ("curate", "--ops", str(self.ops))

    def passes(self, step: str) -> int:
        return {"curate-rename": 2, "curate-delete": 1}.get(step, 1)

    def check(self, root: Path, tally: Tally, label: str) -> None:
        tree = root / ".brv/context-tree"
        left = len(list((tree / "big").rglob("e*.md"))) if (tree / "big").exists() else 0
        fresh = [(tree / "other/t0/fresh_one.md").exists(), (tree / "other/t1/fresh_two.md").exists()]
        rows = log_rows(root, "fault")
        if 0 < left < self.FOLDER:
            tally.fail("half", f"{label}: {left} of {self.FOLDER} entries of the deleted "
                               f"folder left; log {[r[2] for r in rows]}")
            return
        applied = {"ADD other/t0": fresh[0], "DELETE big": left == 0, "ADD other/t1": fresh[1]}
        if not rows:
            if any(applied.values()):
                tally.fail("lost", f"{label}: applied {applied} but nothing logged")
            return
        logged = {f"{t} {p}": s == "success" for t, p, s in rows}
        if logged != applied:
            kind = "half" if any(applied.values()) and not all(applied.values()) else "lost"
            tally.fail(kind, f"{label}: tree {applied}, log {logged}")


class MergeScenario(Scenario):
    """MERGE a source with LINKS backlinks into a target."""

    name = "curate-merge"
    steps = ("curate-staged", "curate-rename", "curate-delete", "curate-applied")
    os_calls = (("replace", 310), ("unlink", 4))
    LINKS = 300

    def prepare(self) -> None:
        root = self.template
        root.mkdir(parents=True)
        self.runner.run(root, "init")
        tree = root / ".brv/context-tree"
        for rel, title in (("src/a/source.md", "Source"), ("dst/a/target.md", "Target")):
            path = tree / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_entry(title, f"{title.lower()} body words"))
        for i in range(self.LINKS):
            path = tree / f"links/t{i % 6}/l{i}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_entry(f"Link {i}", f"link body {i}", ["src/a/source.md"]))
        self.runner.run(root, "index")
        self.ops = ops_file(self.work, "merge-ops.json", [
            {"type": "MERGE", "path": "src/a/source.md", "target": "dst/a/target.md",
             "reason": "fault"}])

    def command(self) -> tuple[str, ...]:
        return ("curate", "--ops", str(self.ops))

    def passes(self, step: str) -> int:
        return {"curate-rename": self.LINKS + 1}.get(step, 1)

    def check(self, root: Path, tally: Tally, label: str) -> None:
        tree = root / ".brv/context-tree"
        source = (tree / "src/a/source.md").exists()
        target = (tree / "dst/a/target.md").read_text()
        merged = "source body words" in target
        links = [p.read_text() for p in (tree / "links").rglob("l*.md")]
        repointed = sum("dst/a/target.md" in t and "src/a/source.md" not in t for t in links)
        rows = log_rows(root, "fault")
        whole = not source and merged and repointed == self.LINKS
        absent = source and not merged and repointed == 0
        state = f"source {'there' if source else 'gone'}, target {'merged' if merged else 'not'}" \
                f", {repointed}/{self.LINKS} backlinks repointed"
        wrong_log = (rows != [("MERGE", "src/a/source.md", "success")] if whole
                     else rows not in ([], [("MERGE", "src/a/source.md", "failed")]))
        if not (whole or absent):
            tally.fail("half", f"{label}: {state}; log {[r[2] for r in rows]}")
        elif wrong_log:
            tally.fail("lost", f"{label}: {state}; log {[r[2] for r in rows]}")


class RestoreScenario(Scenario):
    """``brv restore`` of an archived entry; the next command is a search."""

    name = "restore"
    steps = ("restore-written", "restore-unlinked")
    os_calls = (("replace", 4), ("unlink", 4))
    ENTRY = "arch/a/old_note.md"

    def prepare(self) -> None:
        root = self.template
        root.mkdir(parents=True)
        self.runner.run(root, "init")
        tree = root / ".brv/context-tree"
        for i in range(20):
            path = tree / f"keep/t{i % 2}/k{i}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_entry(f"Keep {i}", f"keep body {i}"))
        path = tree / self.ENTRY
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_entry("Old note", "zebracorn archived knowledge"))
        self.original = path.read_bytes()
        self.runner.run(root, "index")
        self.runner.run(root, "archive", self.ENTRY)

    def command(self) -> tuple[str, ...]:
        return ("restore", self.ENTRY)

    def passes(self, step: str) -> int:
        return {"restore-unlinked": 2}.get(step, 1)

    def next_command(self, root: Path, tally: Tally, label: str) -> bool:
        proc = self.runner.run(root, "search", "zebracorn", "--json", check=False)
        if proc.returncode != 0:
            tally.fail("manual", f"{label}: brv search failed: {proc.stderr[-300:]}")
            return False
        found = [r["path"] for r in json.loads(proc.stdout)["results"]]
        if self.ENTRY in found and any(p.startswith("_archived/") for p in found):
            tally.fail("half", f"{label}: search lists the entry and its archive: {found}")
        return True

    def check(self, root: Path, tally: Tally, label: str) -> None:
        tree = root / ".brv/context-tree"
        entry = tree / self.ENTRY
        full = tree / "_archived/arch/a/old_note.full.md"
        stub = tree / "_archived/arch/a/old_note.stub.md"
        restored = entry.exists() and not full.exists() and not stub.exists()
        archived = not entry.exists() and full.exists() and stub.exists()
        if not (restored or archived):
            tally.fail("half", f"{label}: entry {entry.exists()}, full {full.exists()}, "
                               f"stub {stub.exists()}")
        elif restored and entry.read_bytes() != self.original:
            tally.fail("lost", f"{label}: the restored entry differs from the original")


def writers(runner: Runner, work: Path, count: int, each: int) -> dict[str, Any]:
    """N concurrent ``brv curate --ops`` of M UPDATEs each on one entry."""
    root = work / "writers"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    runner.run(root, "init")
    runner.run(root, "curate", "add", "conc/topic", "--title", "Entry 0", "--content", "base",
               "--reason", "seed")
    rel = "conc/topic/entry_0.md"
    files = [ops_file(work, f"writer{k}.json", [
        {"type": "UPDATE", "path": rel, "content": f"## W{k}_{j}\n\nline {k} {j}",
         "reason": "writers"} for j in range(each)]) for k in range(count)]
    began = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "brv_vc", "curate", "--ops", str(f),
                               "--json"], cwd=root, env=runner.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for f in files]
    outputs = [p.communicate(timeout=900) for p in procs]
    seconds = time.monotonic() - began
    reported = 0
    for out, _ in outputs:
        with contextlib.suppress(ValueError, KeyError):
            reported += json.loads(out)["summary"]["updated"]
    text = (root / ".brv/context-tree" / rel).read_text()
    sections = sum(line.startswith("## W") for line in text.splitlines())
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    logged = conn.execute("SELECT count(*) FROM curate_log WHERE reason = 'writers' AND "
                          "status = 'success'").fetchone()[0]
    count_row = conn.execute("SELECT update_count FROM signals WHERE path = ?", (rel,)
                             ).fetchone()
    conn.close()
    total = count * each
    return {"writers": count, "ops_each": each, "reported_updated": reported,
            "sections_on_disk": sections, "audit_successes": logged,
            "updateCount": count_row[0] if count_row else None,
            "lost": total - sections, "seconds": round(seconds, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=REPO, help="the brv checkout to run")
    parser.add_argument("--trials", type=int, default=100, help="trials per scenario")
    parser.add_argument("--targeted", type=float, default=0.3,
                        help="share of trials killed at a fault step (BRV_FAULT_AT)")
    parser.add_argument("--os-targeted", type=float, default=0.3,
                        help="share of trials killed at the n-th os.replace / os.unlink")
    parser.add_argument("--work", type=Path, default=Path("/tmp/brv-fault-curate"))
    parser.add_argument("--scenarios", default="delete,merge,restore,writers")
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--ops", type=int, default=100)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None, help="also write the table here")
    args = parser.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    (args.work / "site").mkdir(parents=True)
    (args.work / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    runner = Runner(args.code.resolve(), args.work / "site")
    rng = random.Random(args.seed)
    wanted = args.scenarios.split(",")
    table: dict[str, Any] = {"code": str(runner.code), "loadavg": _load(), "scenarios": []}
    for cls in (DeleteScenario, MergeScenario, RestoreScenario):
        if cls.name.split("-")[-1] not in wanted:
            continue
        scenario = cls(runner, args.work)
        scenario.prepare()
        tally = scenario.trials(args.trials, rng, args.targeted, args.os_targeted)
        table["scenarios"].append(tally.row())
        print(f"{tally.name:14} trials {tally.trials:4}  kills {tally.kills:4}  lost "
              f"{tally.lost:3}  half {tally.half:3}  manual {tally.manual:3}", flush=True)
        for note in tally.notes[:5]:
            print(f"    {note[:220]}", flush=True)
    if "writers" in wanted:
        result = writers(runner, args.work, args.writers, args.ops)
        table["writers"] = result
        print(f"writers        {result}", flush=True)
    table["loadavg_end"] = _load()
    if args.json:
        args.json.write_text(json.dumps(table, indent=2))


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    except OSError:
        return ""


if __name__ == "__main__":
    main()
