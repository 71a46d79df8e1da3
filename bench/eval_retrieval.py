"""Retrieval quality of ``brv search`` against a plain BM25, on labelled question sets.

    python bench/eval_retrieval.py [--sets locomo,tldr,project] [--data /tmp/brv-eval-data]
        [--workdir /tmp/brv-eval] [--processes] [--json OUT.json] [--fresh-only | --ood-only]

Each set's documents are curated into fresh brv projects with ``brv curate --ops`` (batches,
real processes); every question is then searched with ``--limit 10`` through the service the
CLI uses (``--processes``: ``python -m brv_vc search --json`` per question, slower), twice:
**fresh** (the scoring state is put back to its just-curated copy before each question) and
**in sequence** (all questions in order in one project, every search recording its hits as a
user's would). The baselines are rank-bm25's BM25Okapi over the same documents (title + text,
lowercased words, nothing else) and the stemmed BM25 of issue 37 (bm25s: Snowball's English
stemmer, stop words, k1 1.5, b 0.75), computed in the same run; the end of the report gives
each set's brv fresh / stemmed BM25 ratio (nDCG@10, R@10) and the worst set's. The sets
(``SHAPES``, one place) are of every shape: conversations (locomo), command pages (tldr),
project docs, FAQs (pyfaq, rustfaq), short records (debian), long documents (manpages) and
code (pycode); ``bench/tune_ranking.py`` chooses the ranking parameters on them leave-one-
set-out. Reported per set and mode:
recall@5, recall@10 (share of a question's evidence found), nDCG@10 (binary gains), MRR; and
the out-of-domain flag's false-positive rate on answerable questions (fresh) and its
true-positive rate on unanswerable ones (our set's own, plus 100 questions of each public set
asked of another set's project).

Public data is never committed; when missing, the harness prints the ``git clone`` to run.
Sizes are bounded so a full run takes minutes on 2 cores: LoCoMo's first ``--conversations``
conversations (default all 10: ~5,900 turns, ~1,980 questions); tldr ``--tldr-pages`` pages of
pages/common (every n-th by name, default 1,500) with every 3rd page's description as a
question (500).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.eval_sets import (  # noqa: E402
    MISSING,
    DataMissing,
    Doc,
    EvalProject,
    Question,
    locomo,
    project_knowledge,
    tldr,
)
from bench.eval_sets_faq import MISSING as FAQ_MISSING  # noqa: E402
from bench.eval_sets_faq import pyfaq, rustfaq  # noqa: E402
from bench.eval_sets_shapes import MISSING as SHAPES_MISSING  # noqa: E402
from bench.eval_sets_shapes import debian, manpages, pycode  # noqa: E402

# Every set and its shape, in one place (bench/tune_ranking.py and the semantic lane's bench
# load them through :func:`load`): conversations, short command pages, project docs, FAQs,
# short records, long documents, code.
SHAPES = {"locomo": "conversations", "tldr": "command pages", "project": "project docs",
          "pyfaq": "FAQ", "rustfaq": "FAQ", "debian": "short records",
          "manpages": "long documents", "pycode": "code"}
SETS = ",".join(SHAPES)

K = 10
BATCH = 1000


@dataclass
class Built:
    """A curated project: where it is and which entry path holds which document."""

    spec: EvalProject
    root: Path
    key_of: dict[str, str]
    bm25: object
    keys: list[str]


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def build(spec: EvalProject, root: Path, reuse: bool = False) -> Built:
    """A fresh brv project holding ``spec.docs``, curated in batches by real processes
    (``reuse``: the project a previous run built, when it holds the same documents)."""
    from rank_bm25 import BM25Okapi

    corpus = [words(f"{d.title}\n{' '.join(d.tags + d.keywords)}\n{d.content}") for d in spec.docs]
    saved = root / ".eval-keys.json"
    if reuse and saved.is_file():
        key_of = json.loads(saved.read_text())
        if sorted(key_of.values()) == sorted(d.key for d in spec.docs):
            return Built(spec, root, key_of, BM25Okapi(corpus), [d.key for d in spec.docs])
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    brv = [sys.executable, "-m", "brv_vc"]
    subprocess.run([*brv, "init", "--json"], cwd=root, check=True, env=env, capture_output=True)
    key_of: dict[str, str] = {}
    for start in range(0, len(spec.docs), BATCH):
        batch = spec.docs[start:start + BATCH]
        ops = [
            {"type": "ADD", "path": d.folder, "title": d.title, "content": d.content,
             "reason": "eval", **({"tags": list(d.tags)} if d.tags else {}),
             **({"keywords": list(d.keywords)} if d.keywords else {})}
            for d in batch
        ]
        out = subprocess.run([*brv, "curate", "--ops", "-", "--json"], cwd=root, env=env,
                             input=json.dumps(ops), capture_output=True, text=True)
        result = json.loads(out.stdout)
        for doc, applied in zip(batch, result["applied"], strict=True):
            if applied["status"] != "success":
                raise SystemExit(f"{spec.name}: curate failed for {doc.key}: {applied['message']}")
            key_of[applied["file"]] = doc.key
    subprocess.run([*brv, "index", "--json"], cwd=root, check=True, env=env, capture_output=True)
    saved.write_text(json.dumps(key_of))
    return Built(spec, root, key_of, BM25Okapi(corpus), [d.key for d in spec.docs])


def state_file(root: Path) -> Path:
    return root / ".brv" / "state" / "brv.db"


def snapshot(root: Path) -> bytes:
    conn = sqlite3.connect(state_file(root))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return state_file(root).read_bytes()


def restore(root: Path, data: bytes) -> None:
    for suffix in ("-wal", "-shm"):
        Path(str(state_file(root)) + suffix).unlink(missing_ok=True)
    state_file(root).write_bytes(data)


Found = tuple[list[str], bool, float, float]  # paths, out of domain, coverage, top score
Searcher = Callable[[Path, str], Found]


def in_process(root: Path, text: str) -> Found:
    from brv_vc.clock import utcnow
    try:
        from brv_vc.services.query import search_tree
    except ImportError:  # brv before services/ became packages (a BEFORE run on an old main)
        from brv_vc.services.search import search_tree  # type: ignore[no-redef]
    from brv_vc.index.terms import QueryError
    from brv_vc.tree.project import Project

    try:
        found = search_tree(Project(root), text, now=utcnow(), limit=K)
    except QueryError:  # stop words only (manpages' "and a"): no results, as as_process
        return [], True, 0.0, 0.0
    top = found.results[0].relevance if found.results else 0.0
    return ([h.path for h in found.results], found.out_of_domain,
            getattr(found, "coverage", 0.0), top)


def as_process(root: Path, text: str) -> Found:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-m", "brv_vc", "search", text, "--limit", str(K),
                          "--json"], cwd=root, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        return [], True, 0.0, 0.0
    data = json.loads(out.stdout)
    top = data["results"][0]["relevance"] if data["results"] else 0.0
    return ([r["path"] for r in data["results"]], bool(data["out_of_domain"]),
            float(data.get("coverage", 0.0)), top)


def scores(ranked: list[str], relevant: frozenset[str]) -> dict[str, float]:
    """recall@5, recall@10, nDCG@10 (binary gains) and reciprocal rank of one question."""
    hits = [k in relevant for k in ranked[:K]]
    dcg = sum(1 / math.log2(i + 2) for i, h in enumerate(hits) if h)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), K)))
    first = next((i for i, h in enumerate(hits) if h), None)
    return {
        "R@5": len(relevant & set(ranked[:5])) / len(relevant),
        "R@10": len(relevant & set(ranked[:K])) / len(relevant),
        "nDCG@10": dcg / ideal,
        "MRR": 0.0 if first is None else 1 / (first + 1),
    }


def mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {m: sum(r[m] for r in rows) / len(rows) for m in rows[0]} if rows else {}


CURVES: dict[str, list[tuple[float, float]]] = {"answerable": [], "unanswerable": []}


# Long questions, more than LONG_TERMS terms (fixed here, not read from the code measured, so
# a BEFORE run counts the same questions): [flagged, asked], answerable (fresh) and
# unanswerable (own and cross), pooled; per set in the report.
LONG_TERMS = 8
LONG = {"answerable": [0, 0], "unanswerable": [0, 0]}


def count_long(kind: str, text: str, ood: bool) -> None:
    if n_terms(text) > LONG_TERMS:
        LONG[kind][0] += ood
        LONG[kind][1] += 1


def n_terms(text: str) -> int:
    from brv_vc.index.terms import QueryError, query_terms
    try:
        try:
            return len(query_terms(text, letters=True))
        except TypeError:  # brv before lone letters were searched (a BEFORE run)
            return len(query_terms(text))
    except QueryError:
        return 0


def run_brv(built: Built, search: Searcher, fresh: bool) -> tuple[list[dict[str, float]], int]:
    """Per-question scores of brv and how many answerable questions were flagged OOD."""
    pristine = snapshot(built.root)
    rows, flagged = [], 0
    for q in built.spec.questions:
        if fresh:
            restore(built.root, pristine)
        paths, ood, cover, top = search(built.root, q.text)
        if fresh:
            CURVES["answerable"].append((cover, top))
            count_long("answerable", q.text, ood)
        flagged += ood
        rows.append(scores([built.key_of.get(p, p) for p in paths], q.relevant))
    restore(built.root, pristine)
    return rows, flagged


def run_bm25(built: Built, stemmer: str = "") -> list[dict[str, float]]:
    """rank-bm25's BM25Okapi; with ``stemmer`` ("porter", "english" = Snowball's Porter2),
    documents and questions are stemmed by snowballstemmer (to compare the two stemmers)."""
    from rank_bm25 import BM25Okapi

    index = built.bm25
    def tok(text: str) -> list[str]:
        return words(text)
    if stemmer:
        import snowballstemmer

        algo = snowballstemmer.stemmer(stemmer)
        def tok(text: str) -> list[str]:
            return list(algo.stemWords(words(text)))
        index = BM25Okapi([tok(f"{d.title}\n{' '.join(d.tags + d.keywords)}\n{d.content}")
                           for d in built.spec.docs])
    rows = []
    for q in built.spec.questions:
        s = index.get_scores(tok(q.text))  # type: ignore[attr-defined]
        order = sorted(range(len(s)), key=lambda i: -s[i])[:K]
        rows.append(scores([built.keys[i] for i in order], q.relevant))
    return rows


def doc_text(d: Doc) -> str:
    return f"{d.title}\n{' '.join(d.tags + d.keywords)}\n{d.content}"


def run_bm25s(built: Built, algorithm: str = "english") -> list[dict[str, float]]:
    """The stemmed baseline: bm25s (Lucene's BM25) with Snowball's English stemmer (PyStemmer)
    and bm25s's English stop words, over the same text as rank-bm25's. ``algorithm``
    "porter": the same BM25 with Porter's stemmer, brv's (FTS5's ``porter`` tokenizer), so
    ``--stemmers`` shows how much of a gap is the stemmer alone."""
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer(algorithm)
    def tok(texts: list[str]) -> object:
        return bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    index = bm25s.BM25()
    index.index(tok([doc_text(d) for d in built.spec.docs]), show_progress=False)
    rows = []
    k = min(K, len(built.keys))
    for q in built.spec.questions:
        try:
            found, _ = index.retrieve(tok([q.text]), k=k, show_progress=False)
            ranked = [built.keys[int(i)] for i in found[0]]
        except (ValueError, IndexError):  # no word of the question is in the corpus
            ranked = []
        rows.append(scores(ranked, q.relevant))
    return rows


def by_length(built: list[Built], rows: dict[str, list[dict[str, float]]]) -> None:
    """R@10 and nDCG@10 of brv (fresh) and the baselines on the questions whose answering
    entries are longer than the set's median entry, and on the others."""
    lengths, long_q = [], []
    for b in built:
        size = {d.key: len(d.content) for d in b.spec.docs}
        lengths += size.values()
        long_q += [max(size[k] for k in q.relevant) for q in b.spec.questions]
    median = sorted(lengths)[len(lengths) // 2]
    for half, keep in (("long", True), ("short", False)):
        picked = [i for i, n in enumerate(long_q) if (n > median) == keep]
        cells = []
        for system in ("bm25", "bm25s+stem", "brv fresh"):
            got = [rows[system][i] for i in picked]
            if got:
                m = mean(got)
                cells.append(f"{system} {m['R@10']:.3f} / {m['nDCG@10']:.3f}")
        print(f"  answers {half}er than the median entry ({median} chars), {len(picked)} "
              f"questions, R@10 / nDCG@10: " + "; ".join(cells))


def curves() -> None:
    """FPR (answerable flagged) and TPR (unanswerable flagged) of OOD rules, to pick thresholds
    (top: the relevance of the first result)."""
    ans, una = CURVES["answerable"], CURVES["unanswerable"]
    if not ans or not una:
        return
    print("OOD curve: flag when coverage < c (rows) or top relevance < s (columns): FPR / TPR")
    lows = [0.0, 0.2, 0.3, 0.4, 0.5]
    print("  c \\ s " + " ".join(f"{s:>11}" for s in lows))
    for c in [0.0, 0.2, 0.3, 0.4, 0.5, 0.6]:
        cells = []
        for s in lows:
            fpr = sum(cv < c or t < s for cv, t in ans) / len(ans)
            tpr = sum(cv < c or t < s for cv, t in una) / len(una)
            cells.append(f"{fpr:.2f} / {tpr:.2f}")
        print(f"  {c:<6} " + " ".join(f"{x:>11}" for x in cells))


def ood_rate(built: Built, search: Searcher, questions: list[str]) -> tuple[int, int]:
    pristine = snapshot(built.root)
    flagged = 0
    for text in questions:
        restore(built.root, pristine)
        _, ood, cover, top = search(built.root, text)
        CURVES["unanswerable"].append((cover, top))
        count_long("unanswerable", text, ood)
        flagged += ood
    restore(built.root, pristine)
    return flagged, len(questions)


def load(name: str, args: argparse.Namespace) -> tuple[list[EvalProject], list[str]]:
    data = Path(args.data)
    try:
        if name == "locomo":
            return locomo(data, args.conversations), []
        if name == "tldr":
            return tldr(data, args.tldr_pages, 3), []
        if name == "pyfaq":
            return pyfaq(data), []
        if name == "rustfaq":
            return rustfaq(data), []
        if name in ("debian", "manpages", "pycode"):
            return {"debian": debian, "manpages": manpages, "pycode": pycode}[name](data), []
        if name == "project":
            return project_knowledge()
        raise SystemExit(f"unknown set {name!r}; the sets are {SETS}")
    except DataMissing as exc:
        raise SystemExit(f"{exc} under {data}; fetch it with:\n  "
                         + {**MISSING, **FAQ_MISSING, **SHAPES_MISSING}[name].format(data=data)
                         ) from None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=SETS)
    parser.add_argument("--data", default=os.environ.get("BRV_EVAL_DATA", "/tmp/brv-eval-data"))
    parser.add_argument("--workdir", default="/tmp/brv-eval")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--tldr-pages", type=int, default=1500)
    parser.add_argument("--processes", action="store_true",
                        help="run each search as a real `python -m brv_vc search` process")
    parser.add_argument("--json", dest="json_out", help="also write the figures to this file")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the projects a previous run built (tuning; not for figures)")
    parser.add_argument("--quick", action="store_true",
                        help="tuning: 150 questions a set, fresh only, no OOD runs")
    parser.add_argument("--fresh-only", action="store_true",
                        help="every question, fresh mode only (no in-sequence run), with the "
                             "out-of-domain runs: each set's FPR and TPR at half the cost")
    parser.add_argument("--ood-only", action="store_true",
                        help="the true-positive rates alone: each set's own unanswerable "
                             "questions and 100 of each other set's, no answerable run")
    parser.add_argument("--stemmers", action="store_true",
                        help="also BM25 with Porter and Snowball stemming (needs snowballstemmer), "
                             "and the stemmed BM25 (bm25s) with Porter's stemmer, brv's")
    parser.add_argument("--by-length", action="store_true",
                        help="also R@10 / nDCG@10 split by the length of the answering entry "
                             "(BM25's length normalisation on long entries)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="override a ranking constant for tuning, e.g. search.COVER=1 "
                             "(module under brv_vc.index; in process only)")
    args = parser.parse_args()
    if args.ood_only and (args.fresh_only or args.quick):
        parser.error("--ood-only is a run of its own: not with --fresh-only or --quick "
                     "(--quick leaves out the other sets' questions it asks)")
    for item in args.set:
        tune(item)
    search: Searcher = as_process if args.processes else in_process
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    specs = {n: load(n, args) for n in names}
    if args.quick:  # tuning: the first 150 questions of each set, fresh mode only
        for projects, _ in specs.values():
            for p in projects:
                p.questions = p.questions[:max(1, 150 // len(projects))]
    report: dict[str, dict[str, object]] = {}
    built_by_set: dict[str, list[Built]] = {}
    for name, (projects, unanswerable) in specs.items():
        started = time.perf_counter()
        built = [build(p, Path(args.workdir) / name / p.name, args.reuse) for p in projects]
        built_by_set[name] = built
        t_build = time.perf_counter() - started
        if args.ood_only:
            report[name] = {}  # no answerable run: no FPR (printed as nan, never in --json)
            if unanswerable:
                hit, total = ood_rate(built[0], search, unanswerable)
                report[name]["ood_tpr_own"] = hit / total
            continue
        rows: dict[str, list[dict[str, float]]] = {
            "bm25": [], "bm25s+stem": [], "bm25s+porter": [], "bm25+porter": [],
            "bm25+snowball": [], "brv fresh": [], "brv seq": []}
        flagged = asked = 0
        long_before = list(LONG["answerable"])
        for b in built:
            rows["bm25"] += run_bm25(b)
            rows["bm25s+stem"] += run_bm25s(b)
            if args.stemmers:
                rows["bm25+porter"] += run_bm25(b, "porter")
                rows["bm25+snowball"] += run_bm25(b, "english")
                rows["bm25s+porter"] += run_bm25s(b, "porter")
            fresh, n_ood = run_brv(b, search, fresh=True)
            rows["brv fresh"] += fresh
            flagged, asked = flagged + n_ood, asked + len(fresh)
            if not (args.quick or args.fresh_only):
                rows["brv seq"] += run_brv(b, search, fresh=False)[0]
        if args.by_length:
            by_length(built, rows)
        report[name] = {
            "questions": asked, "documents": sum(len(b.spec.docs) for b in built),
            "build_s": round(t_build, 1), "seconds": round(time.perf_counter() - started, 1),
            "ood_fpr": flagged / asked if asked else 0.0,
            "ood_long_answerable": [LONG["answerable"][i] - long_before[i] for i in (0, 1)],
            **{system: mean(r) for system, r in rows.items() if r},
        }
        if unanswerable and not args.quick:
            hit, total = ood_rate(built[0], search, unanswerable)
            report[name]["ood_tpr_own"] = hit / total
        print_table({name: report[name]}, header=not report or len(report) == 1)
        sys.stdout.flush()
    if not args.quick:
        cross_ood(built_by_set, specs, search, report)
    print("\nout of domain (fresh): FPR on answerable, TPR on unanswerable (own / other sets')")
    for name, r in report.items():
        la, lu = r.get("ood_long_answerable", [0, 0]), r.get("ood_long_cross", [0, 0])
        fpr = r.get("ood_fpr", float("nan"))
        print(f"  {name:<9} FPR {fpr:.2f}  TPR own {r.get('ood_tpr_own', float('nan')):.2f}"
              f"  TPR cross {r.get('ood_tpr_cross', float('nan')):.2f}"
              f"  long (> {LONG_TERMS} terms): answerable {la[0]}/{la[1]} flagged, "
              f"cross {lu[0]}/{lu[1]}")
    curves()
    worst_set(report)
    (fa, na), (fu, nu) = LONG["answerable"], LONG["unanswerable"]
    print(f"long questions (> {LONG_TERMS} terms) flagged out of domain: answerable {fa} of {na}, "
          f"unanswerable (own and cross) {fu} of {nu}")
    if not args.processes:
        from brv_vc.index import search as engine
        worst = getattr(engine, "WORST", [float("nan")])[0]
        print(f"highest term score / its bound over every question: {worst:.3f} (<= 1: bounded)")
        for r in report.values():
            r["worst_term_ratio"] = worst
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2) + "\n")


def cross_ood(built: dict[str, list[Built]], specs: dict[str, tuple[list[EvalProject], list[str]]],
              search: Searcher, report: dict[str, dict[str, object]]) -> None:
    """TPR of the OOD flag: 100 questions of each other set asked of this set's first project."""
    for name, projects in built.items():
        others: list[Question] = [
            q for other, (specs_o, _) in specs.items() if other != name
            for p in specs_o for q in p.questions[:100]
        ]
        if others:
            long_before = list(LONG["unanswerable"])
            hit, total = ood_rate(projects[0], search, [q.text for q in others])
            report[name]["ood_tpr_cross"] = hit / total
            print(f"  {name}: {hit} of {total} other sets' questions flagged", flush=True)
            report[name]["ood_long_cross"] = [LONG["unanswerable"][i] - long_before[i]
                                              for i in (0, 1)]


def worst_set(report: dict[str, dict[str, object]]) -> None:
    """Each set's brv fresh over the stemmed BM25 (bm25s: Snowball, stop words, k1 1.5,
    b 0.75) computed in the same run, nDCG@10 and R@10, and the worst set's (issue 37: >= 1)."""
    ratios: dict[str, dict[str, float]] = {}
    for name, r in report.items():
        brv, stemmed = r.get("brv fresh"), r.get("bm25s+stem")
        if isinstance(brv, dict) and isinstance(stemmed, dict):
            ratios[name] = {m: brv[m] / max(stemmed[m], 1e-9) for m in ("nDCG@10", "R@10")}
            r["ratio_to_stemmed"] = ratios[name]
    if not ratios:
        return
    print("brv fresh / stemmed BM25 (same run): "
          + "; ".join(f"{n} x{v['nDCG@10']:.3f} / x{v['R@10']:.3f}" for n, v in ratios.items()))
    for m in ("nDCG@10", "R@10"):
        name = min(ratios, key=lambda n: ratios[n][m])
        print(f"  worst-set {m} ratio: x{ratios[name][m]:.3f} ({name}, {SHAPES.get(name, '?')})")
    porter = {n: r["brv fresh"]["nDCG@10"] / max(r["bm25s+porter"]["nDCG@10"], 1e-9)  # type: ignore[index]
              for n, r in report.items() if isinstance(r.get("bm25s+porter"), dict) and n in ratios}
    if porter:  # --stemmers: the same BM25 with brv's stemmer, so the stemmer's share shows
        print("brv fresh / the same BM25 with Porter's stemmer (brv's), nDCG@10: "
              + "; ".join(f"{n} x{v:.3f}" for n, v in porter.items()))


def tune(item: str) -> None:
    import importlib

    name, _, value = item.partition("=")
    module, _, const = name.rpartition(".")
    target = importlib.import_module(f"brv_vc.index.{module}")
    kind = type(getattr(target, const))  # an int stays an int (counts, sizes)
    parsed = tuple(float(v) for v in value.split(",")) if "," in value else kind(float(value))
    setattr(target, const, parsed)


def print_table(report: dict[str, dict[str, object]], header: bool = True) -> None:
    metrics = ["R@5", "R@10", "nDCG@10", "MRR"]
    if header:
        print(f"{'set':<9} {'system':<13} " + " ".join(f"{m:>8}" for m in metrics))
    for name, r in report.items():
        for system in SYSTEMS:
            if system not in r:
                continue
            vals = r[system]
            assert isinstance(vals, dict)
            print(f"{name:<9} {system:<13} " + " ".join(f"{vals[m]:8.3f}" for m in metrics))
        base = r["bm25"]
        assert isinstance(base, dict)
        ratios = []
        for system in ("brv fresh", "brv seq"):
            vals = r.get(system)
            if not isinstance(vals, dict):
                continue
            ratios.append(f"{system} R@5 x{vals['R@5'] / max(base['R@5'], 1e-9):.2f} "
                          f"R@10 x{vals['R@10'] / max(base['R@10'], 1e-9):.2f}")
        extra = {k: round(float(v), 3) for k, v in r.items()  # type: ignore[arg-type]
                 if k in ("questions", "documents", "build_s", "seconds", "ood_fpr")}
        print(f"{'':<9} {'; '.join(ratios)}  {extra}")
        print(f"{'':<9} target: {verdict(r)}")


SYSTEMS = ("bm25", "bm25s+stem", "bm25s+porter", "bm25+porter", "bm25+snowball", "brv fresh",
           "brv seq")


def verdict(r: dict[str, object]) -> str:
    """Issue 26's bar for brv fresh: nDCG@10 and R@10 >= the stemmed BM25's, R@5 >= 1.1x
    rank-bm25's."""
    brv, plain, stemmed = r.get("brv fresh"), r.get("bm25"), r.get("bm25s+stem")
    if not (isinstance(brv, dict) and isinstance(plain, dict) and isinstance(stemmed, dict)):
        return "n/a"
    checks = {"nDCG@10 >= bm25s": brv["nDCG@10"] >= stemmed["nDCG@10"],
              "R@10 >= bm25s": brv["R@10"] >= stemmed["R@10"],
              "R@5 >= 1.1x bm25": brv["R@5"] >= 1.1 * plain["R@5"]}
    return ", ".join(f"{k} {'ok' if v else 'MISSED'}" for k, v in checks.items())


if __name__ == "__main__":
    main()
