"""brv ui: server-side time per page at 25,000 entries (DESIGN budget: p50 <= 100 ms).

Builds a generated tree once (bench/gen_tree.py) under version control with a second commit
on one entry (its history page has two diffs) and three curate DELETEs waiting in the review
queue, then starts a real ``brv ui --no-open --json`` process and asks every page ROUNDS
times, round-robin. Reported per page: the server's own time (its Server-Timing header, the
app from request to response start) and the round trip on loopback, p50 and p90, and the
ratio to the floor measured interleaved in the same run (a static asset, /static/ui.css).

    python bench/bench_ui.py --entries 25000 --work /tmp/ui-server-bench
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_tree import generate  # noqa: E402


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def run(*cmd: str, cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def brv(*args: str, cwd: Path) -> str:
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd)


def build(work: Path, entries: int) -> tuple[Path, list[str]]:
    home = work / f"tree{entries}"
    listing = work / f"tree{entries}.paths.json"
    if not (work / f"tree{entries}.ready").exists():
        started = time.perf_counter()
        paths = generate(home, entries)
        git = ("git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com")
        run("git", "init", "-q", "-b", "main", cwd=home)
        brv("vc", "init", "--in-project", "--no-hooks", cwd=home)
        run(*git, "add", "-A", cwd=home)
        run(*git, "commit", "-qm", "generated knowledge", cwd=home)
        brv("curate", "update", paths[0], "--content", "Edited once for the history page.",
            cwd=home)
        run(*git, "commit", "-qam", "edit one entry", cwd=home)
        brv("review", "--enable", cwd=home)
        for path in paths[-3:]:
            brv("curate", "delete", path, "--reason", "bench: a pending review", cwd=home)
        brv("search", "warm the index", cwd=home)
        listing.write_text(json.dumps(paths[:-3]))
        (work / f"tree{entries}.ready").write_text("")
        print(f"built {entries} entries in {time.perf_counter() - started:.0f} s", flush=True)
    return home, json.loads(listing.read_text())


def pages(paths: list[str]) -> dict[str, str]:
    entry = paths[0]
    domain = entry.split("/")[0]
    topic = entry.rsplit("/", 1)[0]
    return {
        "floor (static asset)": "/static/ui.css",
        "tree root": "/",
        "tree domain": f"/?path={domain}",
        "tree topic (entries)": f"/?path={topic}",
        "entry (with history)": f"/entry?path={entry}",
        "search page": "/search?q=token+rotation+retry",
        "search api (as you type)": "/api/search?q=token+rot",
        "review queue (3 pending)": "/review",
        "dream logs": "/dreams",
        "vc status (+ unpushed/incoming)": "/vc",
        "vc uncommitted diff": "/vc?uncommitted=1",
        "graph": f"/graph?entry={entry}",
    }


def ask(port: int, cookie: str, path: str) -> tuple[float, float, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", "Cookie": cookie})
    reply = conn.getresponse()
    reply.read()
    wall = (time.perf_counter() - start) * 1000
    conn.close()
    timing = reply.getheader("server-timing") or "app;dur=nan"
    return float(timing.split("dur=")[1]), wall, reply.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/ui-server-bench"))
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    home, paths = build(args.work, args.entries)
    proc = subprocess.Popen([sys.executable, "-m", "brv_vc", "ui", "--no-open", "--json"],
                            cwd=home, env=_env(), stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        started = json.loads(proc.stdout.readline())
        port, token = started["port"], started["url"].split("token=")[1]
        cookie = f"brv_ui_{port}={token}"
        wanted = pages(paths)
        first: dict[str, float] = {}
        for name, path in wanted.items():  # the first call of each opens what it keeps
            first[name], _, status = ask(port, cookie, path)
            assert status == 200, (path, status)
        server: dict[str, list[float]] = {name: [] for name in wanted}
        wall: dict[str, list[float]] = {name: [] for name in wanted}
        git_status: list[float] = []  # the vc page's own floor: git itself on this tree
        for _ in range(args.rounds):
            for name, path in wanted.items():
                s, w, _ = ask(port, cookie, path)
                server[name].append(s)
                wall[name].append(w)
            began = time.perf_counter()
            run("git", "status", "--porcelain", cwd=home)
            git_status.append((time.perf_counter() - began) * 1000)
    finally:
        proc.terminate()
        proc.wait(10)
    load = Path("/proc/loadavg").read_text().split()[:3]
    floor = statistics.median(server["floor (static asset)"])
    print(f"\nbrv ui at {args.entries:,} entries, {args.rounds} rounds, load average "
          f"{' '.join(load)}\n")
    print(f"git status --porcelain on the same tree, interleaved: p50 "
          f"{statistics.median(git_status):.1f} ms\n")
    print("| page | server p50 ms | server p90 ms | round trip p50 ms | x floor | first view ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in wanted:
        p50 = statistics.median(server[name])
        p90 = statistics.quantiles(server[name], n=10)[-1]
        print(f"| {name} | {p50:.1f} | {p90:.1f} | {statistics.median(wall[name]):.1f} | "
              f"{p50 / floor if floor else float('nan'):.0f} | {first[name]:.0f} |")


if __name__ == "__main__":
    main()
