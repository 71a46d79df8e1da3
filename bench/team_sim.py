"""Team simulation: N clones around a real git server on loopback, agents writing knowledge
through ``brv curate`` and ``brv mcp``, people sharing it with ``brv vc`` and with plain git,
a forge merging branches with plain git, and (``--kills``) ``kill -9`` of brv at random.

Each round every clone's agent writes one batch (ADD / UPDATE / UPSERT / MERGE / DELETE on
its own and on shared folders; CLI or MCP) while its person commits and shares (``brv vc
sync``, ``vc pull`` + ``push``, ``git pull`` + ``push``, ``git pull --rebase``, ``git stash``
+ ``pull`` + ``pop``, a branch merged back, a forge merge). Conflicts are resolved as a
person would (each file one counted manual step). At the end every clone syncs until quiet
and the checks run (``team_sim_checks``): lost writes, diverged clones, conflicts in brv's
generated files, true conflicts, search misses, audit-log mismatches.

    python bench/team_sim.py --clones 8 --rounds 50 --mode both --kills [--seed 1]
        [--workdir DIR] [--json]

The DESIGN.md budget: 0 lost writes, 0 diverged clones, 0 conflicts in generated files.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.git_server import git_daemon
from bench.team_sim_agents import Agent, Ledger, agent_turn
from bench.team_sim_checks import check
from bench.team_sim_people import person_turn
from bench.team_sim_world import Clone, World, base_env

MODES = ("standalone", "in-project")
SEED_OPS = [
    {"type": "ADD", "path": "shared/alpha", "title": "Common one", "reason": "seed",
     "content": "## Overview\nShared notes everyone writes to.\n"},
    {"type": "ADD", "path": "shared/alpha", "title": "Common two", "reason": "seed",
     "content": "## Overview\nMore shared notes.\n"},
    {"type": "ADD", "path": "shared/beta", "title": "Common three", "reason": "seed",
     "content": "## Overview\nA third shared entry.\n"},
]
COLUMNS = ("mode", "writes", "lost", "diverged", "generated conflicts", "true conflicts",
           "markers left", "search misses", "audit mismatches", "kills", "seconds")


def _must(ran: object, what: str) -> None:
    code = getattr(ran, "code", 0)
    if code != 0:
        raise RuntimeError(f"setup step failed: {what}: {getattr(ran, 'err', '')}"
                           f"{getattr(ran, 'out', '')}")


def _setup(world: World, clones: int, seed: int) -> None:
    """The seed project pushes three shared entries; each clone starts from the remote."""
    in_project = world.mode == "in-project"
    origin = Clone(99, world.base / "seed", in_project, random.Random(seed))
    origin.root.mkdir()
    if in_project:
        (origin.root / "app.py").write_text("print('app')\n")
        for argv in (["init", "-q", "-b", "main"], ["add", "."], ["commit", "-q", "-m", "code"]):
            _must(world.run(["git", *argv], origin.root), f"git {argv[0]}")
        _must(world.brv(origin, "vc", "init", "--in-project", killable=False), "vc init")
    else:
        _must(world.brv(origin, "vc", "init", killable=False), "vc init")
    _must(world.brv(origin, "curate", "--ops", "-", stdin=json.dumps(SEED_OPS),
                    killable=False), "seed curate")
    _must(world.brv(origin, "vc", "add", killable=False), "vc add")
    _must(world.brv(origin, "vc", "commit", "-m", "seed", killable=False), "vc commit")
    if in_project:
        _must(world.git(origin, "remote", "add", "origin", world.url), "remote add")
        _must(world.git(origin, "push", "-q", "-u", "origin", "main"), "git push")
    else:
        _must(world.brv(origin, "vc", "remote", "add", "origin", world.url, killable=False),
              "vc remote add")
        _must(world.brv(origin, "vc", "push", "-u", killable=False), "vc push -u")
    for k in range(clones):
        clone = Clone(k, world.base / f"c{k}", in_project, random.Random(f"{seed}-{world.mode}-{k}"))
        if in_project:
            _must(world.run(["git", "clone", "-q", world.url, clone.root.name], world.base),
                  "git clone")
            _must(world.brv(clone, "vc", "init", "--in-project", killable=False), "vc init")
        else:
            clone.root.mkdir()
            _must(world.brv(clone, "vc", "clone", world.url, killable=False), "vc clone")
        world.clones.append(clone)
    _must(world.run(["git", "clone", "-q", world.url, "forge"], world.base), "forge clone")


def run_mode(mode: str, clones: int, rounds: int, kills: bool, seed: int,
             workdir: Path) -> dict[str, object]:
    """One mode's simulation and checks; returns its figures."""
    started = time.monotonic()
    base = workdir / mode
    if base.exists():
        shutil.rmtree(base)
    served = base / "served"
    served.mkdir(parents=True)
    world_env = base_env(base)
    with git_daemon(served, world_env) as root_url:
        url = f"{root_url}/knowledge.git"
        world = World(mode, base, url, world_env, 0.0)
        _must(world.run(["git", "init", "-q", "--bare", "-b", "main",
                         str(served / "knowledge.git")], base), "git init --bare")
        _setup(world, clones, seed)
        world.kill_rate = 0.04 if kills else 0.0
        ledger = Ledger()
        agents = [Agent(c) for c in world.clones]
        with ThreadPoolExecutor(max_workers=2 * clones) as pool:
            for round_no in range(rounds):
                jobs = [pool.submit(agent_turn, world, a, ledger, round_no) for a in agents]
                jobs += [pool.submit(person_turn, world, c, round_no) for c in world.clones]
                for job in jobs:
                    job.result()
        world.kill_rate = 0.0
        figures = check(world, ledger)
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def table(rows: list[dict[str, object]]) -> str:
    """The summary: one line per mode."""
    widths = [max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in COLUMNS]
    line = "  ".join(c.rjust(w) for c, w in zip(COLUMNS, widths, strict=True))
    body = ["  ".join(str(r.get(c, "")).rjust(w) for c, w in zip(COLUMNS, widths, strict=True))
            for r in rows]
    return "\n".join([line, *body])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clones", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--mode", choices=(*MODES, "both"), default="both")
    parser.add_argument("--kills", action="store_true", help="kill -9 brv processes at random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", action="store_true", help="print every figure as JSON")
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="brv-team-sim-"))
    if not args.json:
        print(f"team simulation: {args.clones} clones x {args.rounds} rounds, seed {args.seed}, "
              f"kills {'on' if args.kills else 'off'} (work in {workdir})", flush=True)
    rows = []
    for mode in MODES if args.mode == "both" else (args.mode,):
        row = run_mode(mode, args.clones, args.rounds, args.kills, args.seed, workdir)
        rows.append(row)
        (workdir / f"{mode}.json").write_text(json.dumps(row, indent=2))
        if not args.json:
            print(table([row]), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(table(rows))
    for row in rows:
        print(f"\n{row['mode']}: events")
        for key, value in dict(row["events"]).items():  # type: ignore[call-overload]
            print(f"  {key}: {value}")
        for example in row["examples"]:  # type: ignore[attr-defined]
            print(f"  lost: {example}")
        for example in row["unfound"]:  # type: ignore[attr-defined]
            print(f"  not found by brv search: {example}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
