"""The picture of the links at scale: time and size of link_graph's pictures on a big tree.

For the most linked entry (a hub), entries taken evenly through the tree, the largest
domain and the tree's domains: nodes drawn, neighbours left off, SVG bytes, and the time of
building the picture (index open and sync included, as a page pays it) and of rendering it.
Two ways to be asked: by a resident process (brv ui lends its open, watched index) and by a
one-shot process (it opens and syncs the index each time; the floor, measured interleaved
in the same run, is that opening alone). "first" is a picture not yet cached, "cached" the
same one asked again, the tree unchanged. Times in ms, medians.

    python bench/gen_tree.py /tmp/tree25k --entries 25000   # once
    python bench/bench_link_graph.py /tmp/tree25k
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brv_vc.services import link_graph
from brv_vc.services.derived import RESIDENT, with_index
from brv_vc.services.link_graph import graph as graph_module
from brv_vc.services.query import SearchSession
from brv_vc.tree.project import Project


def _ms(work, rounds: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(rounds):
        started = time.perf_counter()
        out = work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    project = Project(args.root)

    def ask(sql: str) -> list[tuple]:
        return with_index(project, lambda o: o.conn.execute(sql).fetchall())[0]

    hub = ask("SELECT target, count(*) c FROM links GROUP BY target ORDER BY c DESC LIMIT 1")[0][0]
    hub = hub if hub.endswith(".md") else hub + ".md"
    every = ask("SELECT path FROM docs WHERE kind = 'entry' ORDER BY path")
    picks = [every[i][0] for i in range(0, len(every), max(1, len(every) // 5))][:5]
    domain = ask("SELECT substr(path, 1, instr(path, '/') - 1) d, count(*) c FROM docs "
                 "GROUP BY d ORDER BY c DESC LIMIT 1")[0][0]
    cases = [("hub entry", lambda: link_graph.entry_graph(project, hub))]
    cases += [(f"entry {i}", lambda p=p: link_graph.entry_graph(project, p)) for i, p in enumerate(picks)]
    cases += [(f"domain {domain}", lambda: link_graph.folder_graph(project, domain)),
              ("all domains", lambda: link_graph.folder_graph(project, ""))]
    print(f"{len(every)} entries; {args.rounds} rounds; load {Path('/proc/loadavg').read_text().split()[:3]}")
    print("resident: brv ui lends its open index (derived.RESIDENT); one-shot: open + sync each time")
    print(f"{'picture':<22} {'nodes':>5} {'more':>6} {'svg KB':>7} {'resident first':>14} "
          f"{'cached':>7} {'render':>7} {'one-shot first':>14} {'floor':>7} {'x floor':>7}")
    session = SearchSession(project)
    for name, build in cases:

        def first(build=build):
            graph_module._CACHE.clear()
            return build()

        floor, _ = _ms(lambda: with_index(project, lambda o: None), args.rounds)
        cold, _ = _ms(first, args.rounds)
        lent = RESIDENT.set(session)
        try:
            took, graph = _ms(first, args.rounds)
            again, _ = _ms(build, args.rounds)
        finally:
            RESIDENT.reset(lent)
        drawn, svg = _ms(lambda g=graph: link_graph.render_svg(g), args.rounds)
        print(f"{name:<22} {len(graph.nodes):>5} {graph.more:>6} {len(svg) / 1024:>7.1f} "
              f"{took:>14.1f} {again:>7.2f} {drawn:>7.2f} {cold:>14.1f} {floor:>7.1f} {cold / floor:>7.2f}")
    session.close()


if __name__ == "__main__":
    main()
