"""Benchmark every ``brv vc`` row of issue 24 against plain git on the same repositories.

    python bench/bench_vc.py [--sizes 25000,100000] [--runs 5] [--modes standalone,in-project]
                             [--work /tmp/perf-vc-bench] [--rows status,acp,pull,commit,merge]
    python bench/bench_vc.py --rows start --runs 20   # a brv process's fixed cost
    python bench/bench_vc.py --sizes 25000 --modes in-project --rows commit,merge \
                             --old bbba61b,0dec064     # the hooks rows of older commits too

Budgets (DESIGN.md "Performance budgets"), at 25,000 and 100,000 entries, both git modes:
- ``brv vc status`` <= 1.5x ``git status`` (3 modified entries);
- ``brv vc add`` + ``commit`` + ``push`` of 100 changed entries <= 2x ``git add -A`` +
  ``git commit`` + ``git push`` with hooks off;
- ``brv vc pull`` of 100 changed entries <= 2x ``git pull`` with hooks off;
- the hooks add <= 150 ms to a 1-entry ``git commit`` (vs ``--no-verify``) and to a 1-entry
  ``git merge --ff-only`` (vs ``core.hooksPath=/dev/null``);
- each flat (within 1.5x) from 25,000 to 100,000 entries.

Each size and mode has its own generated project (``a``: the user, hooks installed by
``brv vc init``), a bare remote and a teammate's clone (``b``), built once under ``--work``
and reused. The brv and the plain git command of a row run interleaved (alternating which
goes first), each run on fresh edits; the table shows medians and the load average.

``--old COMMIT,...`` (the commit and merge rows): each commit's code, from a ``git archive``
snapshot under ``--work``, gets a twin of each project (``cp -a``, its hooks installed and its
index brought up to date by that code, untimed); every run then times this checkout's hooks
and each old commit's, on and off, in rotating order, so that the rows compare code at the
same load rather than figures from another hour.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_tree import generate  # noqa: E402


def _brv() -> list[str]:
    """The command users run: the ``brv`` console script installed beside this Python.

    ``python -m brv_vc`` pays runpy's imports (importlib.util, contextlib: ~1-2 ms of CPU)
    that the script does not, and the script imports ``re`` first: the two differ, so
    the bench times what a user types. Without the script (a bare checkout): ``-m``.
    """
    script = Path(sys.executable).with_name("brv")
    try:
        shebang = script.read_text(encoding="utf-8").partition("\n")[0]
    except (OSError, UnicodeDecodeError):
        return [sys.executable, "-m", "brv_vc"]
    python = Path(shebang.removeprefix("#!").strip())
    if os.access(script, os.X_OK) and python.exists() and (
            python.resolve() == Path(sys.executable).resolve()):
        return [str(script)]  # PYTHONPATH (ENV) still makes it import this checkout
    return [sys.executable, "-m", "brv_vc"]


BRV = _brv()
HOOKS_OFF = ["-c", "core.hooksPath=/dev/null"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    # an installed brv has compiled bytecode; never pay compiling in a timed run
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    for name in ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE"):
        env.pop(name, None)
    return env


ENV = _env()


class Code(NamedTuple):
    """The brv code a command runs: this checkout, or an ``--old`` commit's snapshot."""

    label: str
    brv: list[str]
    env: dict[str, str]


def old_code(work: Path, commit: str) -> Code:
    """A ``git archive`` snapshot of ``commit`` under ``work`` (made once), and its env."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.strip()
    snap = work / f"code-{sha[:12]}"
    if not (snap / "done").exists():
        shutil.rmtree(snap, ignore_errors=True)
        snap.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(snap)], input=archive, check=True)
        (snap / "done").touch()
    env = dict(ENV)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(snap), os.environ.get("PYTHONPATH")]))
    return Code(sha[:7], [sys.executable, "-m", "brv_vc"], env)


THIS = Code("this checkout", BRV, ENV)


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env or ENV, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} (in {cwd}) failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def git(*args: str, cwd: Path) -> str:
    return run(["git", *args], cwd)


class Sample(NamedTuple):
    """One measurement: wall time and the CPU time (user + system) of every process, ms.

    On a shared machine the wall time of a run stretches with the load (a load average of 10
    on 2 cores makes Python's start-up alone 5x slower); the CPU time of the processes does
    not, so both are reported.
    """

    wall: float
    cpu: float

    def __add__(self, other: object) -> Sample:  # type: ignore[override]
        assert isinstance(other, Sample)
        return Sample(self.wall + other.wall, self.cpu + other.cpu)


def timed(cmds: list[tuple[list[str], Path]], env: dict[str, str] | None = None) -> Sample:
    """Runs the commands one after the other (their hooks and children included)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    for cmd, cwd in cmds:
        run(cmd, cwd, env)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - used.ru_utime + after.ru_stime - used.ru_stime) * 1000
    return Sample(wall, cpu)


def median(samples: list[Sample]) -> Sample:
    return Sample(statistics.median(s.wall for s in samples),
                  statistics.median(s.cpu for s in samples))


class Setup:
    """One size and mode: the user's project ``a``, the bare remote, the teammate's ``b``."""

    def __init__(self, work: Path, size: int, mode: str) -> None:
        self.size, self.mode = size, mode
        self.home = work / f"{size}-{mode}"
        self.a, self.b, self.remote = self.home / "a", self.home / "b", self.home / "remote.git"
        sub = ".brv/context-tree" if mode == "standalone" else "."
        self.repo_a, self.repo_b = self.a / sub, self.b / sub  # git's work trees
        self.tree_a, self.tree_b = self.a / ".brv/context-tree", self.b / ".brv/context-tree"
        self.spec = "." if mode == "standalone" else ".brv/context-tree"
        self.cursor = 0  # entries are edited in order, each once per bench run
        self.paths: list[str] = []

    def build(self, work: Path) -> None:
        ready = self.home / "ready"
        if not ready.exists():
            started = time.perf_counter()
            seed = work / f"gen-{self.size}"
            if not (seed / "done").exists():
                shutil.rmtree(seed, ignore_errors=True)
                generate(seed, self.size, seed=0)
                (seed / "done").touch()
            shutil.rmtree(self.home, ignore_errors=True)
            self.home.mkdir(parents=True)
            subprocess.run(["cp", "-a", str(seed), str(self.a)], check=True)
            (self.a / "done").unlink()
            in_project = [] if self.mode == "standalone" else ["--in-project"]
            if in_project:
                git("init", "-q", "-b", "main", cwd=self.a)
            run([*BRV, "vc", "init", *in_project], self.a)
            self._identity(self.repo_a)
            git("add", "-A", cwd=self.repo_a)
            git(*HOOKS_OFF, "commit", "-q", "-m", "generated tree", cwd=self.repo_a)
            git("clone", "-q", "--bare", str(self.repo_a), str(self.remote), cwd=self.home)
            git("remote", "add", "origin", str(self.remote), cwd=self.repo_a)
            git("fetch", "-q", "origin", cwd=self.repo_a)
            git("branch", "-q", "-u", "origin/main", cwd=self.repo_a)
            if in_project:
                git("clone", "-q", str(self.remote), str(self.b), cwd=self.home)
                self._identity(self.b)
                run([*BRV, "vc", "init", "--in-project"], self.b)
            else:
                self.b.mkdir()
                run([*BRV, "vc", "clone", str(self.remote)], self.b)
                self._identity(self.repo_b)
            for folder in (self.a, self.b):  # the index as a user has it, built once
                run([*BRV, "index"], folder)
            ready.write_text(f"{time.perf_counter() - started:.0f} s\n")
        # a project copied from another --work dir (cp -a) still names that dir's remote by
        # absolute path: pushing there would change someone else's bench
        for repo in (self.repo_a, self.repo_b):
            if git("remote", "get-url", "origin", cwd=repo).strip() != str(self.remote):
                git("remote", "set-url", "origin", str(self.remote), cwd=repo)
        # ... and hooks naming the Python that installed them there, maybe gone since (the
        # shim then finds no brv and the merge row measures nothing): this Python's brv
        for folder in (self.a, self.b):
            run([*BRV, "hooks", "install"], folder)
        listed = git("ls-files", "-z", "--", self.spec, cwd=self.repo_a).split("\0")
        self.paths = sorted(p for p in listed if p.endswith(".md") and p.count("/") >= 2
                            and not p.rsplit("/", 1)[-1].startswith(("_", "context.md")))
        # clean up what an interrupted earlier run left behind
        git("reset", "-q", "--hard", "origin/main", cwd=self.repo_a)
        git(*HOOKS_OFF, "pull", "-q", "--ff-only", cwd=self.repo_b)
        run([*BRV, "hook-impl", "post-merge", "0"], self.repo_b)

    @staticmethod
    def _identity(repo: Path) -> None:
        git("config", "user.name", "bench", cwd=repo)
        git("config", "user.email", "bench@example.com", cwd=repo)
        git("config", "gc.auto", "0", cwd=repo)

    def twin(self, code: Code) -> Path:
        """The git work tree of ``a``'s twin for ``code`` (an ``--old`` commit), made once.

        A ``cp -a`` of ``a`` (its remote stays the shared bare one: the rows that use a twin
        never push); the twin's hooks are ``code``'s and its index is brought up to date
        by ``code`` each time, untimed.
        """
        home = self.home.parent / f"{self.home.name}-{code.label}"
        a = home / "a"
        repo = a / (".brv/context-tree" if self.mode == "standalone" else ".")
        if not (home / "ready").exists():
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir(parents=True)
            subprocess.run(["cp", "-a", str(self.a), str(a)], check=True)
            (home / "ready").touch()
        run(["git", "reset", "-q", "--hard", "origin/main"], repo, code.env)
        run([*code.brv, "hooks", "install"], a, code.env)
        run([*code.brv, "index"], a, code.env)
        return repo

    def edit(self, count: int, stamp: str, repo: Path | None = None) -> list[str]:
        """Appends a line to the next ``count`` entries of ``a`` (or of the git work tree
        ``repo``, a twin); their repo paths."""
        chosen = [self.paths[(self.cursor + i) % len(self.paths)] for i in range(count)]
        self.cursor += count
        for rel in chosen:
            with ((repo or self.repo_a) / rel).open("a", encoding="utf-8") as handle:
                handle.write(f"\nEdited by bench_vc {stamp}.\n")
        return chosen


def interleave(runs: int, brv: Callable[[int], Sample], plain: Callable[[int], Sample]
               ) -> tuple[Sample, Sample]:
    """Medians of ``brv`` and ``plain``, alternating which runs first."""
    mine: list[Sample] = []
    theirs: list[Sample] = []
    for i in range(runs):
        if i % 2:
            theirs.append(plain(i))
            mine.append(brv(i))
        else:
            mine.append(brv(i))
            theirs.append(plain(i))
    return median(mine), median(theirs)


def row_status(s: Setup, runs: int) -> tuple[Sample, Sample]:
    edited = s.edit(3, "status")
    brv = ([*BRV, "vc", "status"], s.a)
    plain = (["git", "status"], s.repo_a)
    timed([brv, plain])  # warm the page cache and git's index stat data
    result = interleave(runs, lambda _: timed([brv]), lambda _: timed([plain]))
    git("checkout", "-q", "--", *edited, cwd=s.repo_a)
    return result


def row_acp(s: Setup, runs: int, parts: dict[str, list[Sample]]) -> tuple[Sample, Sample]:
    def brv(i: int) -> Sample:
        s.edit(100, f"acp brv {i}")
        times = [timed([([*BRV, "vc", what, *extra], s.a)])
                 for what, extra in (("add", []), ("commit", ["-m", f"brv {i}"]), ("push", []))]
        for name, value in zip(("add", "commit", "push"), times, strict=True):
            parts.setdefault(name, []).append(value)
        pull_b("brv")
        return times[0] + times[1] + times[2]

    def plain(i: int) -> Sample:
        s.edit(100, f"acp git {i}")
        took = timed([(["git", "add", "-A", "--", s.spec], s.repo_a),
                      (["git", *HOOKS_OFF, "commit", "-q", "-m", f"git {i}"], s.repo_a),
                      (["git", *HOOKS_OFF, "push", "-q"], s.repo_a)])
        pull_b("git")
        return took

    pulls: dict[str, list[Sample]] = {"brv": [], "git": []}

    def pull_b(who: str) -> None:
        """The teammate pulls what was just pushed: the pull row's measurement."""
        if who == "brv":
            pulls["brv"].append(timed([([*BRV, "vc", "pull"], s.b)]))
        else:
            pulls["git"].append(timed([(["git", *HOOKS_OFF, "pull", "-q"], s.repo_b)]))
            # what the hook skipped, untimed: the next brv pull starts from a processed HEAD
            run([*BRV, "hook-impl", "post-merge", "0"], s.repo_b)

    result = interleave(runs, brv, plain)
    parts["pull brv"] = pulls["brv"]
    parts["pull git"] = pulls["git"]
    return result


def rotate(runs: int, fns: list[Callable[[int], Sample]]) -> list[Sample]:
    """Medians of each of ``fns``, run ``runs`` times each, the first one rotating.

    With two, :func:`interleave`'s alternation.
    """
    samples: list[list[Sample]] = [[] for _ in fns]
    for i in range(runs):
        for k in range(len(fns)):
            j = (i + k) % len(fns)
            samples[j].append(fns[j](i))
    return [median(each) for each in samples]


Target = tuple[Code, Path]  # the code whose hooks run, and the git work tree they run in


def row_commit(s: Setup, runs: int, targets: list[Target]) -> list[tuple[Sample, Sample]]:
    """Per target: a 1-entry ``git commit`` with its hooks, and with ``--no-verify``."""
    def one(code: Code, repo: Path, i: int, extra: list[str]) -> Sample:
        (path,) = s.edit(1, f"commit {i} {extra} {code.label}", repo)
        run(["git", "add", "--", path], repo, code.env)
        return timed([(["git", "commit", "-q", *extra, "-m", f"one {i}"], repo)], code.env)

    fns: list[Callable[[int], Sample]] = []
    for code, repo in targets:
        fns.append(lambda i, c=code, r=repo: one(c, r, i, []))
        fns.append(lambda i, c=code, r=repo: one(c, r, i, ["--no-verify"]))
    medians = rotate(runs, fns)
    return [(medians[k], medians[k + 1]) for k in range(0, len(medians), 2)]


def row_merge(s: Setup, runs: int, targets: list[Target]) -> list[tuple[Sample, Sample]]:
    """Per target: a 1-entry ``git merge --ff-only`` with its hooks, and with hooks off."""
    bases: dict[Path, str] = {}
    for code, repo in targets:
        bases[repo] = run(["git", "rev-parse", "HEAD"], repo, code.env).strip()
        (path,) = s.edit(1, f"merge {code.label}", repo)
        run(["git", "checkout", "-q", "-B", "bench-feature"], repo, code.env)
        run(["git", "add", "--", path], repo, code.env)
        run(["git", *HOOKS_OFF, "commit", "-q", "-m", "one entry"], repo, code.env)
        run(["git", *HOOKS_OFF, "checkout", "-q", "main"], repo, code.env)

    def merge(code: Code, repo: Path, extra: list[str]) -> Sample:
        took = timed([(["git", *extra, "merge", "-q", "--ff-only", "bench-feature"], repo)],
                     code.env)
        run(["git", *HOOKS_OFF, "reset", "-q", "--hard", bases[repo]], repo, code.env)
        return took

    fns: list[Callable[[int], Sample]] = []
    for code, repo in targets:
        fns.append(lambda _, c=code, r=repo: merge(c, r, []))
        fns.append(lambda _, c=code, r=repo: merge(c, r, HOOKS_OFF))
    medians = rotate(runs, fns)
    for code, repo in targets:  # derived state back at base
        run([*code.brv, "hook-impl", "post-merge", "0"], repo, code.env)
    return [(medians[k], medians[k + 1]) for k in range(0, len(medians), 2)]


def loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    except OSError:
        return "?"


def row_start(work: Path, runs: int) -> list[Row]:
    """The fixed cost of a brv process: ``brv vc status`` in a 1-entry project (built once),
    against the interpreter's own start (``python -c pass``, the floor); with the console
    script, ``python -m brv_vc`` too (what the hooks and git's drivers run)."""
    root, ready = work / "start", work / "start.ready"
    if not ready.exists():
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        run([*BRV, "init"], root)
        run([*BRV, "vc", "init"], root)
        tree = root / ".brv/context-tree"
        Setup._identity(tree)
        (tree / "a/t").mkdir(parents=True)
        (tree / "a/t/one.md").write_text("---\ntitle: One\n---\nhello\n", encoding="utf-8")
        run([*BRV, "vc", "add"], root)
        run([*BRV, "vc", "commit", "-m", "one"], root)
        ready.touch()
    status = ([*BRV, "vc", "status"], root)
    floor = ([sys.executable, "-c", "pass"], root)
    timed([status, floor])  # warm; a first status also caches what it checks per HEAD
    b, g = interleave(runs, lambda _: timed([status]), lambda _: timed([floor]))
    rows: list[Row] = [("start-up: `brv vc status`, 1-entry project, vs `python -c pass`", b, g,
                        "-")]
    if BRV[0] != sys.executable:
        module = ([sys.executable, "-m", "brv_vc", "vc", "status"], root)
        b, g = interleave(runs, lambda _: timed([module]), lambda _: timed([floor]))
        rows.append(("start-up: `python -m brv_vc vc status` (hooks, drivers) vs `python -c "
                     "pass`", b, g, "-"))
    return rows


ROWS = ("status", "acp", "pull", "commit", "merge")  # and "start" (not by default)


Row = tuple[str, Sample, Sample, str]


def bench(s: Setup, runs: int, rows: set[str], olds: list[Code]) -> list[Row]:
    """(what, brv, plain git, budget) per row."""
    out: list[Row] = []
    if "status" in rows:
        b, g = row_status(s, runs)
        out.append(("`brv vc status` vs `git status` (3 modified)", b, g, "1.5x"))
    if rows & {"acp", "pull"}:
        parts: dict[str, list[Sample]] = {}
        b, g = row_acp(s, runs, parts)
        detail = ", ".join(f"{k} {median(parts[k]).wall / 1000:.2f}"
                           for k in ("add", "commit", "push"))
        out.append((f"`brv vc add`+`commit`+`push` vs git, 100 entries (s: {detail})", b, g,
                    "2x"))
        out.append(("`brv vc pull` vs `git pull` (hooks off), 100 entries",
                    median(parts["pull brv"]), median(parts["pull git"]), "2x"))
    targets: list[Target] = [(THIS, s.repo_a)]
    if rows & {"commit", "merge"}:
        targets += [(code, s.twin(code)) for code in olds]
    whose = [f", {code.label}" if olds else "" for code, _ in targets]
    if "commit" in rows:
        for (b, g), label in zip(row_commit(s, runs, targets), whose, strict=True):
            out.append((f"1-entry `git commit`, hooks on vs `--no-verify`{label}", b, g,
                        "+150 ms"))
    if "merge" in rows:
        for (b, g), label in zip(row_merge(s, runs, targets), whose, strict=True):
            out.append((f"1-entry `git merge --ff-only`, hooks on vs off{label}", b, g,
                        "+150 ms"))
    return out


def _compare(b: float, g: float, budget: str) -> str:
    if budget.startswith("+"):
        return f"+{b - g:.0f} ms"
    return f"{b / g:.2f}x"


def _editable_finder() -> bool:
    """True when this interpreter's site-packages load setuptools' editable-install finder.

    Its ``.pth`` imports pathlib, re and urllib at every start (~15 ms of CPU on this
    machine, ``python -c pass`` 28 vs 13 ms): a dev artefact no installed brv pays. The
    README's ``pip install -e '.[test]' --config-settings editable_mode=compat`` writes a
    plain path entry instead.
    """
    import site

    return any(name.startswith("__editable__") and name.endswith(".pth")
               and "import " in (Path(folder) / name).read_text(encoding="utf-8")
               for folder in site.getsitepackages() if Path(folder).is_dir()
               for name in os.listdir(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000,100000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--modes", default="standalone,in-project")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--work", type=Path, default=Path("/tmp/perf-vc-bench"))
    parser.add_argument("--old", default="", help="commits whose hooks the commit and merge "
                        "rows time too, in the same runs (comma-separated)")
    args = parser.parse_args()
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    olds = [old_code(work, commit) for commit in args.old.split(",") if commit]
    rows = set(args.rows.split(","))
    if _editable_finder():
        print("warning: this Python loads setuptools' editable finder at every start (~15 ms "
              "CPU a process, not in a regular install): reinstall as the README says "
              "(--config-settings editable_mode=compat)", file=sys.stderr)
    if "start" in rows:
        before = loadavg()
        table = row_start(work, args.runs)
        _print(f"start-up, medians of {args.runs} interleaved runs, load average {before} -> "
               f"{loadavg()}", table)
    for size in (int(x) for x in args.sizes.split(",")) if rows - {"start"} else ():
        for mode in args.modes.split(","):
            s = Setup(work, size, mode)
            s.build(work)
            before = loadavg()
            table = bench(s, args.runs, rows, olds)
            _print(f"{size:,} entries, {mode}, medians of {args.runs} interleaved runs, "
                   f"load average {before} -> {loadavg()}", table)


def _print(title: str, table: list[Row]) -> None:
    print(f"\n{title}")
    print("| operation | brv | plain git | ratio (wall) | brv CPU | git CPU | "
          "ratio (CPU) | budget |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for what, b, g, budget in table:
        print(f"| {what} | {_ms(b.wall)} | {_ms(g.wall)} | "
              f"{_compare(b.wall, g.wall, budget)} | {_ms(b.cpu)} | {_ms(g.cpu)} | "
              f"{_compare(b.cpu, g.cpu, budget)} | {'<= ' * (budget != '-')}{budget} |",
              flush=True)


def _ms(value: float) -> str:
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.0f} ms"


if __name__ == "__main__":
    main()
