"""Every ranking parameter chosen leave-one-set-out over the harness's sets (issue 37 item 5).

    python bench/tune_ranking.py --data /work/evaldata [--sets ...] [--questions 120] [--passes 5]
        [--workdir /tmp/brv-eval] [--cache /tmp/brv-tune.json] [--now --questions 0 [--set K=V]]

The sets are ``bench/eval_retrieval.py``'s (every shape: conversations, command pages, project
docs, FAQs, short records, long documents, code), built by its ``build`` (``--workdir`` is
shared with it: a built project is reused). Each set asks its first ``--questions``-th share
of questions (every n-th, so every project of a set is asked), through the service the CLI
uses, in process, without recording hits (``record=False``: the fresh mode's state).

A configuration is a value for every parameter in :data:`COORDS`; its figure on a set is
brv's nDCG@10 over the stemmed BM25's (bm25s, Snowball English stemmer, stop words, k1 1.5,
b 0.75) on the same questions, computed in the same run. The choice is coordinate ascent
from issue 26's values (``START``), each coordinate's candidates tried in turn (in the order
of :data:`COORDS`; one pass, or with ``--passes N`` passes until one makes no move, at most N),
on the objective mean ratio + worst ratio of the training sets
(a move needs to gain > 0.001). A second procedure, ``maximin`` (declared at stop 23 before any
of its held-out figures was read), maximises the worst training set alone and refuses a move
that costs any training set more than 0.005 (:data:`GUARD`); ``--procedures`` picks them
(both by default, each reported in turn, sharing the cache).

- **held out**: for each set, the parameters chosen on all the *other* sets, and that set's
  ratio under them (nDCG@10 and R@10): the figure the issue asks for, a set the choice never
  saw;
- **all sets**: the parameters chosen on every set, each set's ratio, beside brv's values
  and issue 26's (brv's defaults take a choice only when it also holds on every question:
  ``--now --questions 0 --set NAME=VALUE ...`` asks it; docs/retrieval.md).

Every configuration's figures are kept in ``--cache`` (JSON), so a second run only asks what
the first did not. A figure's key names what else changes it (:func:`fingerprint`): the index's
schema, the stemmer, and the questions and documents asked; a cache of another index (the
crude stems of schema 10) or another sample is never read back.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.eval_retrieval import (  # noqa: E402
    SETS,
    SHAPES,
    Built,
    build,
    load,
    mean,
    run_bm25s,
    scores,
    tune,
)

Value = Any
# (parameter, candidates): a parameter is module.CONST under brv_vc.index, or module.CONST[i]
# for one weight of a tuple; several joined by "+" move together (k1 and b).
COORDS: list[tuple[str, list[Value]]] = [
    ("lengths.K1+lengths.B", [(1.2, 0.75), (1.2, 0.5), (1.5, 0.5), (1.5, 0.75), (1.5, 0.9),
                              (2.0, 0.5), (2.0, 0.75), (2.0, 0.9), (2.0, 1.0)]),
    ("search.FIELD_WEIGHTS[0]", [1.0, 3.0, 5.0]),  # title
    ("search.FIELD_WEIGHTS[2]", [1.0, 1.5]),  # path
    ("search.FIELD_WEIGHTS[3]", [1.0, 3.0]),  # tags and keywords
    ("search.COVER", [0.0, 0.5, 1.0]),
    ("search.TITLE", [0.0, 0.25, 0.5]),
    ("search.PRF", [0.0, 0.2]),
    ("search.POOL", [50, 100]),
    ("term_scores.EXACT_TWICE", [0.0, 1.0]),
    ("term_scores.SAME_STEM", [0, 1]),
]


# Where every ascent starts: issue 26's values (chosen on the first five sets), so no fold
# starts from a choice that saw its held-out set.
START: dict[str, Value] = {
    "lengths.K1+lengths.B": (2.0, 1.0), "search.FIELD_WEIGHTS[0]": 3.0,
    "search.FIELD_WEIGHTS[2]": 1.5, "search.FIELD_WEIGHTS[3]": 3.0, "search.COVER": 0.5,
    "search.TITLE": 0.25, "search.PRF": 0.0, "search.POOL": 50, "term_scores.EXACT_TWICE": 1.0,
    "term_scores.SAME_STEM": 1,
}


def _target(name: str) -> tuple[object, str, int | None]:
    module, _, const = name.partition(".")
    index = None
    if const.endswith("]"):
        const, _, rest = const.partition("[")
        index = int(rest[:-1])
    return importlib.import_module(f"brv_vc.index.{module}"), const, index


def get(name: str) -> Value:
    values = []
    for part in name.split("+"):
        target, const, index = _target(part)
        value = getattr(target, const)
        values.append(value if index is None else value[index])
    return values[0] if len(values) == 1 else tuple(values)


def put(name: str, value: Value) -> None:
    parts = name.split("+")
    for part, one in zip(parts, value if len(parts) > 1 else (value,), strict=True):
        target, const, index = _target(part)
        old = getattr(target, const)
        if index is not None:
            one = (*old[:index], float(one), *old[index + 1:])
        elif isinstance(old, int) and not isinstance(old, bool):
            one = int(one)
        setattr(target, const, one)


Config = dict[str, Value]

# The two declared procedures (docs/retrieval.md, stop 23, fixed before any held-out figure
# was read): "mean+worst" maximises the training sets' mean ratio plus their worst; "maximin"
# maximises the worst training set alone, and refuses a move that costs any training set
# more than GUARD against the configuration it leaves.
PROCEDURES = ("mean+worst", "maximin")
GUARD = 0.005

# Words whose stems tell the stemmers apart (Snowball's revised English joins "regularly" and
# "regular", "fairly" and "fair"; Porter's and the crude stems do not).
PROBES = ("regularly", "fairly", "generously", "running")


def fingerprint(args: argparse.Namespace) -> str:
    """What, besides the parameters, a set's figures depend on: the index's schema, the stem
    rule (its library's version and its stems of :data:`PROBES`), and the sample asked."""
    from importlib.metadata import PackageNotFoundError, version

    from brv_vc.index.db import SCHEMA_VERSION
    from brv_vc.index.stems import stem_of

    try:
        library = f"PyStemmer {version('PyStemmer')}"
    except PackageNotFoundError:
        library = "no PyStemmer"
    return (f"schema {SCHEMA_VERSION}, {library} ({' '.join(map(stem_of, PROBES))}), "
            f"questions {args.questions}, conversations {args.conversations}, "
            f"tldr pages {args.tldr_pages}")


def key_of(config: Config, prefix: str = "") -> str:
    return json.dumps([prefix, *(config[name] for name, _ in COORDS)])


class Tuner:
    """Figures of configurations on every set, each asked once (kept in the cache file)."""

    def __init__(self, built: dict[str, list[Built]], base: dict[str, dict[str, float]],
                 cache: Path, prefix: str = "") -> None:
        self.built, self.base, self.cache, self.prefix = built, base, cache, prefix
        self.seen: dict[str, dict[str, dict[str, float]]] = (
            json.loads(cache.read_text()) if cache.is_file() else {})
        self.asked = 0
        self.cached_only = False  # --from-cache: a configuration never asked is not a candidate
        self.passes_used = 0  # the last choose's passes over COORDS (the last one made no move)

    def figures(self, config: Config) -> dict[str, dict[str, float]]:
        key = key_of(config, self.prefix)
        if key not in self.seen or set(self.seen[key]) < set(self.built):
            for name, value in config.items():
                put(name, value)
            started = time.perf_counter()
            self.seen[key] = {s: mean(run(b)) for s, b in self.built.items()}
            self.asked += 1
            print(f"  [{self.asked}] {time.perf_counter() - started:5.1f}s {describe(config)}: "
                  + " ".join(f"{s} {self.ratio(config, s):.3f}" for s in self.built),
                  flush=True)
            self.cache.write_text(json.dumps(self.seen))
        return self.seen[key]

    def ratio(self, config: Config, name: str, metric: str = "nDCG@10") -> float:
        got = self.seen[key_of(config, self.prefix)][name][metric]
        return got / max(self.base[name][metric], 1e-9)

    def objective(self, config: Config, sets: list[str]) -> float:
        if self.cached_only and key_of(config, self.prefix) not in self.seen:
            return float("-inf")
        self.figures(config)
        ratios = [self.ratio(config, s) for s in sets]
        return sum(ratios) / len(ratios) + min(ratios)

    def worst(self, config: Config, sets: list[str]) -> float:
        """The maximin procedure's objective: the worst training set's ratio."""
        if self.cached_only and key_of(config, self.prefix) not in self.seen:
            return float("-inf")
        self.figures(config)
        return min(self.ratio(config, s) for s in sets)

    def costs(self, trial: Config, best: Config, sets: list[str]) -> bool:
        """Whether ``trial`` costs a training set more than :data:`GUARD` against ``best``."""
        return any(self.ratio(trial, s) < self.ratio(best, s) - GUARD for s in sets)

    def choose(self, start: Config, sets: list[str], passes: int = 1,
               procedure: str = "mean+worst") -> Config:
        """Coordinate ascent on ``sets`` from ``start`` (see the module); ``procedure`` is one
        of :data:`PROCEDURES`; ``passes`` caps the passes over :data:`COORDS`, stopping after
        one that makes no move (``--passes``, declared at stop 23's third pass)."""
        score_of = self.objective if procedure == "mean+worst" else self.worst
        best, score = dict(start), score_of(start, sets)
        self.passes_used = 0
        for _ in range(passes):
            self.passes_used += 1
            moved = False
            for name, candidates in COORDS:
                for value in candidates:
                    if value == best[name]:
                        continue
                    trial = {**best, name: value}
                    got = score_of(trial, sets)
                    if got > score + 0.001 and not (
                            procedure == "maximin" and self.costs(trial, best, sets)):
                        best, score, moved = trial, got, True
            if not moved:
                break
        return best


OPEN: dict[Path, tuple[Any, Any]] = {}  # a project's index and brv.db, opened once


def memoised() -> None:
    """What a configuration never changes is computed once per process: a term's postings
    (keyed on the field weights and EXACT_TWICE, the only parameters they read), its fuzzy
    alternatives and the same-stem filter (keyed on SAME_STEM). Ranking is unchanged: the
    same functions' answers, read again (``search`` looks them up in its own module)."""
    from brv_vc.index import fuzzy, term_scores
    from brv_vc.index import search as engine

    def memo(fn: Any, key: Any) -> Any:
        seen: dict[Any, Any] = {}

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            k = key(*args, **kwargs)
            if k not in seen:
                seen[k] = fn(*args, **kwargs)
            return seen[k]
        return wrapped

    engine.term_scores = memo(engine.term_scores, lambda conn, parts, n, weights, scope, stamp,
                              cached=False: (id(conn), tuple(parts), n, weights, scope,
                                             term_scores.EXACT_TWICE))
    engine.distinct = memo(engine.distinct, lambda terms: (tuple(terms), term_scores.SAME_STEM))
    fuzzy.alternatives = memo(fuzzy.alternatives, lambda conn, term, *a, **k: (id(conn), term))


def run(built: list[Built]) -> list[dict[str, float]]:
    """Each question's scores through brv's ranking (``index.search``, what ``search_tree``
    runs on an index already in sync; the state only read: the fresh mode's)."""
    from brv_vc.clock import utcnow
    from brv_vc.index.db import open_index
    from brv_vc.index.search import search
    from brv_vc.index.terms import QueryError, query_terms
    from brv_vc.services.derived.index import open_synced
    from brv_vc.tree.project import Project
    from brv_vc.tree.statedb import open_state

    rows = []
    now = utcnow().timestamp()
    for b in built:
        if b.root not in OPEN:
            project = Project(b.root)
            open_synced(project).close()  # an index of an older schema is built again here
            conn = open_index(project).conn
            conn.isolation_level = None  # toplists of new field weights are kept as they come
            OPEN[b.root] = (conn, open_state(project))
        conn, state = OPEN[b.root]
        for q in b.spec.questions:
            try:
                found = search(conn, state, query_terms(q.text, letters=True), now, limit=10)
                paths = [b.key_of.get(h.path, h.path) for h in found.hits]
            except QueryError:  # a question of stop words only: nothing found
                paths = []
            rows.append(scores(paths, q.relevant))
    return rows


def describe(config: Config) -> str:
    return ", ".join(f"{name.split('.', 1)[1]}={value}" for name, value in config.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=SETS)
    parser.add_argument("--data", default=os.environ.get("BRV_EVAL_DATA", "/tmp/brv-eval-data"))
    parser.add_argument("--workdir", default="/tmp/brv-eval")
    parser.add_argument("--cache", default="/tmp/brv-tune.json")
    parser.add_argument("--questions", type=int, default=60, help="questions asked of a set")
    parser.add_argument("--from-cache", action="store_true",
                        help="report from --cache alone: configurations not in it are skipped")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--tldr-pages", type=int, default=1500)
    parser.add_argument("--procedures", default=",".join(PROCEDURES),
                        help="the choice procedures run, in turn (mean+worst, maximin)")
    parser.add_argument("--passes", type=int, default=1,
                        help="passes of the ascent over the coordinates, at most (it stops "
                             "after a pass that makes no move; 1: stop 22's and stop 23's runs)")
    parser.add_argument("--now", action="store_true",
                        help="no choice: each set's ratio under brv's current values, without "
                             "the cache (with --questions 0: every question)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="with --now: a ranking constant other than brv's, e.g. "
                             "lengths.K1=1.2 (module under brv_vc.index, as eval_retrieval's)")
    args = parser.parse_args()
    if args.set and not args.now:  # the cache is keyed by brv's values, not by --set's
        parser.error("--set needs --now (a choice run would cache its figures as brv's values)")
    if args.passes < 1:
        parser.error(f"--passes: {args.passes}: the ascent needs at least one pass; give 1 "
                     "(one pass, the earlier runs') or more")
    procedures = [p.strip() for p in args.procedures.split(",") if p.strip()]
    if not procedures or not set(procedures) <= set(PROCEDURES):
        parser.error(f"--procedures: {args.procedures!r}: name one or both of "
                     f"{', '.join(PROCEDURES)}")
    for item in args.set:
        tune(item)
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    built: dict[str, list[Built]] = {}
    base: dict[str, dict[str, float]] = {}
    for name in names:
        projects, _ = load(name, args)
        total = sum(len(p.questions) for p in projects)
        step = max(1, total // args.questions) if args.questions > 0 else 1
        for p in projects:
            p.questions = p.questions[::step]
        built[name] = [build(p, Path(args.workdir) / name / p.name, reuse=True) for p in projects]
        base[name] = mean([row for b in built[name] for row in run_bm25s(b)])
        print(f"{name:<9} ({SHAPES.get(name, '?')}): {sum(len(b.spec.questions) for b in built[name])}"
              f" questions; stemmed BM25 nDCG@10 {base[name]['nDCG@10']:.3f}", flush=True)
    if args.now:  # every figure asked again: the cache is for choosing
        print("values: " + describe({name: get(name) for name, _ in COORDS}))
        now = {name: mean(run(built[name])) for name in names}
        ratios = {n: now[n]["nDCG@10"] / max(base[n]["nDCG@10"], 1e-9) for n in names}
        for n in names:
            print(f"  {n:<9} brv nDCG@10 {now[n]['nDCG@10']:.4f}  x{ratios[n]:.3f}  R@10 "
                  f"x{now[n]['R@10'] / max(base[n]['R@10'], 1e-9):.3f}")
        print(f"  worst nDCG@10 ratio: x{min(ratios.values()):.3f} ({min(ratios, key=ratios.get)})")
        return
    memoised()
    tuner = Tuner(built, base, Path(args.cache), fingerprint(args))
    print(f"figures keyed on: {tuner.prefix}")
    tuner.cached_only = args.from_cache
    current = {name: get(name) for name, _ in COORDS}
    print("brv's values: " + describe(current) + "\nstart (issue 26's): " + describe(START))
    for procedure in procedures:
        report(tuner, names, current, procedure, args.passes)
    print(f"({tuner.asked} configurations asked this run, {len(tuner.seen)} in the cache; "
          f"CPU {time.process_time():.0f} s, load {' '.join(f'{x:.1f}' for x in os.getloadavg())})")


def report(tuner: Tuner, names: list[str], current: Config, procedure: str,
           passes: int = 1) -> None:
    """One procedure's choices: each set held out, then every set (see the module)."""
    print(f"\n== procedure {procedure}" + (f" (a move costs no set > {GUARD})"
                                          if procedure == "maximin" else "")
          + f", at most {passes} pass(es)")
    print(f"\nheld out ({procedure}): each set under the parameters chosen on the others "
          "(brv nDCG@10 and R@10 over the stemmed BM25's), each printed as its fold ends")
    worst = []
    for out in names:
        held = tuner.choose(START, [s for s in names if s != out], passes=passes,
                            procedure=procedure)
        nd, r10 = tuner.ratio(held, out), tuner.ratio(held, out, "R@10")
        worst.append(nd)
        print(f"  {out:<9} nDCG@10 x{nd:.3f}  R@10 x{r10:.3f}  passes {tuner.passes_used}  "
              f"chosen: {describe(held)}", flush=True)
    print(f"  worst held-out nDCG@10 ratio: x{min(worst):.3f}")
    chosen_all = tuner.choose(START, names, passes=passes, procedure=procedure)
    print(f"\nall sets ({procedure}, passes {tuner.passes_used}): {describe(chosen_all)}")
    for label, config in (("issue 26", START), ("brv now", current), ("chosen", chosen_all)):
        if tuner.objective(config, names) == float("-inf"):  # --from-cache, never asked
            continue
        cells = [f"{s} x{tuner.ratio(config, s):.3f}" for s in names]
        print(f"  {label:<8} " + " ".join(cells)
              + f"  worst x{min(tuner.ratio(config, s) for s in names):.3f}")


if __name__ == "__main__":
    main()
