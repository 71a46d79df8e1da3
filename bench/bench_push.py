"""``brv vc push`` of N changed entries against ``git push``, several brv checkouts interleaved.

    python bench/bench_push.py --project /tmp/w/25000-standalone/a --runs 15 \
        --variant base=/tmp/brv-main --variant new=.

``--project``: a project ``bench/bench_vc.py`` built (its tree tracks an upstream on a bare
remote, hooks installed). ``--variant NAME=DIR``: a folder holding a ``brv_vc`` package
(``git archive REV brv_vc | tar -x -C DIR`` gives one per revision), run with this Python.
Each run edits N entries, commits them with hooks off, then times one pusher: plain
``git push`` (hooks off) or ``python -m brv_vc vc push`` (hooks on, as users run it); the
order rotates. Prints the median wall and CPU time (the processes and their children) and
the CPU ratio to git, with the load average: on a shared machine read the ratios.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _env(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    if src:
        env["PYTHONPATH"] = str(Path(src).resolve())
    return env


def _timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    return wall, (after.ru_utime - used.ru_utime + after.ru_stime - used.ru_stime) * 1000


def _register_drivers(tree: Path, variants: dict[str, str]) -> None:
    """Every variant's driver config, so that none rewrites .git/config for the other.

    ``vc.prepare`` checks that its values are in the file verbatim; a key per variant keeps
    them there (the values name the checkout, which differs per variant).
    """
    for name, src in variants.items():
        script = ("from brv_vc.services.vc.configure import driver_config\n"
                  "for k, v in driver_config().items(): print(k + '\\0' + v, end='\\0\\0')")
        out = subprocess.run([sys.executable, "-c", script], env=_env(src), text=True,
                             capture_output=True, check=True).stdout
        for item in filter(None, out.split("\0\0")):
            key, _, value = item.partition("\0")
            subprocess.run(["git", "config", "--local", f"bench-{name}.{key.replace('.', '-')}",
                            value], cwd=tree, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--entries", type=int, default=100)
    parser.add_argument("--variant", action="append", default=[], help="NAME=DIR")
    args = parser.parse_args()
    project = args.project.resolve()
    tree = project / ".brv/context-tree"
    top = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=tree, text=True,
                              capture_output=True, check=True).stdout.strip())
    variants = dict(v.split("=", 1) for v in args.variant)
    _register_drivers(top, variants)
    pushers = [("git", ["git", "-c", "core.hooksPath=/dev/null", "push", "-q"], top, _env(None))]
    pushers += [(name, [sys.executable, "-m", "brv_vc", "vc", "push"], project, _env(src))
                for name, src in variants.items()]
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=tree, text=True, capture_output=True,
                            check=True).stdout.split("\0")
    paths = [p for p in listed if p.endswith(".md") and p.count("/") >= 2
             and not p.rsplit("/", 1)[-1].startswith(("_", "context.md"))]
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name, *_ in pushers}
    for i in range(args.runs):
        for name, cmd, cwd, env in pushers[i % len(pushers):] + pushers[:i % len(pushers)]:
            for rel in random.sample(paths, args.entries):
                with (tree / rel).open("a", encoding="utf-8") as handle:
                    handle.write(f"\nbench_push {i} {name}\n")
            subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "commit", "-qam",
                            f"bench_push {i} {name}"], cwd=tree, check=True)
            samples[name].append(_timed(cmd, cwd, env))
    with open("/proc/loadavg", encoding="ascii") as handle:
        load = " ".join(handle.read().split()[:3])
    floor = statistics.median(cpu for _, cpu in samples["git"])
    print(f"{project}: {args.entries} entries a push, {args.runs} runs, load {load}")
    for name, runs in samples.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name:10s} wall {wall:6.0f} ms  CPU {cpu:6.0f} ms  CPU/git {cpu / floor:.2f}x")


if __name__ == "__main__":
    main()
