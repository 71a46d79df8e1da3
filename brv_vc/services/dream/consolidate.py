"""Consolidate, deterministic detectors (seed 001): the changed entries against their domain.

For each domain with a changed entry, every entry of the domain (plus the changed entries'
``related`` entries and their FTS5 hits elsewhere in the tree) goes into one rank-bm25
corpus (see ``similarity``). For each changed entry, its nearest entries decide:

- MERGE: same domain, symmetric similarity >= 0.85 and no evidence of two subjects (see
  ``subject``: each naming something the other never mentions); the older entry
  (``createdAt``, then path) is the target. Always reviewed.
- TEMPORAL_UPDATE: same domain, similarity >= 0.5, one title contains the other (not as a
  narrower heading: ``subject.revisits``) and no evidence of two subjects: the older entry's ``related`` gains the newer one (never a line
  in its text); confidence is the similarity, reviewed below 0.7.
- CROSS_REFERENCE: similarity >= 0.5 either way, a name of one used by the other, and not
  linked yet: ``related`` both ways. Not between two subjects whose texts are merge-alike
  (for sibling folders of a domain, either way: one package's licence held whole in its
  sibling's): the same license or template filled for two packages says nothing of how
  they relate.
- SKIP: nothing close enough, or alike in words only (logged with its reason, no change).
A ``pendingMerges`` hint from the last prune becomes a MERGE when one of the pair is at
least 0.5 alike to the other (the prune's own test) and they are not two subjects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.format.entry import Entry, parse_entry
from brv_vc.services.dream.similarity import LINK_AT, MERGE_AT, Corpus, Vocab, words
from brv_vc.services.dream.subject import Evidence, Subjects, revisits
from brv_vc.tree.project import Project

Op = dict[str, Any]
NEAREST = 5
CROSS_HITS = 3
# Why: the corpus of a domain holds the cross-domain hits of the changed entries decided
# against it. A first dream changes every entry, and asking the index for all of a domain's
# (2,500 at 100,000 entries) outlasted the whole budget before one decision (issue 24). A
# domain's changed entries go in groups of this many, each with its own hits; a domain with
# fewer changed entries (any dream after the first) decides exactly as one group.
CHUNK = 100
# the reason of most SKIPs (a first pass at 100,000 entries decides ~100,000); one string, and
# the dream keeps no SKIP record past its journal line (run.py)
NOTHING_ALIKE = f"no entry at least {LINK_AT} similar needs a change"


def _domain(path: str) -> str:
    return path.split("/", 1)[0]


def _load(project: Project, paths: Sequence[str]) -> dict[str, Entry]:
    """Parses entries (unreadable ones are left out).

    The paths come from the tree walk, which never follows a symlink, so the realpath
    checks of ``read_entry`` (a dozen lstat calls a file) are not needed.
    """
    out = {}
    for rel in paths:
        try:
            data = (project.tree / rel).read_bytes()
            out[rel] = parse_entry(data, file=rel, stem=rel.rsplit("/", 1)[-1][:-3])
        except (BrvError, OSError):
            continue
    return out


def _linked(a: Entry, b_path: str) -> bool:
    stem = b_path.removesuffix(".md")
    return any(r.removesuffix(".md").strip("@/") == stem for r in a.relations())


def _older(a: tuple[str, Entry], b: tuple[str, Entry]) -> tuple[str, Entry]:
    return min(a, b, key=lambda pe: (pe[1].created_at or "~", pe[0]))


Cross = Callable[[str, Entry], list[str]]


def steps(project: Project, entries: Sequence[str], changed: Sequence[str],
          hints: Sequence[dict[str, Any]], cross: Cross,
          should_stop: Callable[[], bool] = lambda: False,
          ) -> Iterator[tuple[str | None, list[Op]]]:
    """The consolidate operations, one changed entry at a time, in path order.

    Yields ``(path, ops)``: the decisions for one changed entry (``None`` for the hints),
    so a dream applies them as they come and knows how far the pass got (issue 24: at
    100,000 entries a first pass outlasts any budget; its cursor is the last path done).

    Args:
        project: the project.
        entries: every entry path of the tree (sorted).
        changed: entries changed since the last dream (pending-merge sources included).
        hints: ``pendingMerges`` of the last prune ({file, target, reason}).
        cross: (changed path, its entry) -> FTS5 hits in other domains, asked for a
            domain's changed entries when the domain comes (only those the budget reaches).
        should_stop: polled per changed entry (the budget); the generator just ends.
    """
    by_domain: dict[str, list[str]] = {}
    for rel in entries:
        by_domain.setdefault(_domain(rel), []).append(rel)
    changed_set = set(changed)
    consumed: set[str] = set()
    decided: set[frozenset[str]] = set()
    own: dict[str, Entry] | None
    vocab: Vocab | None
    corpus: Corpus | None
    for domain in sorted({_domain(p) for p in changed_set}):
        changed_here = [p for p in by_domain.get(domain, []) if p in changed_set]
        if not changed_here or should_stop():
            continue
        own = vocab = None  # the last domain's go before this one's are read (memory)
        own = _load(project, by_domain[domain])
        vocab = Vocab()  # the domain's words counted once for all its groups, none kept
        subjects = Subjects()
        for p, entry in own.items():
            counted = words(entry)
            vocab.count(p, counted)
            subjects.count(p, entry, counted)
        for first in range(0, len(changed_here), CHUNK):
            mine = changed_here[first:first + CHUNK]
            hits: set[str] = set()
            for p in mine:
                if should_stop():
                    return
                if p in own:
                    hits.update(cross(p, own[p]))
            loaded = {**own, **_load(project, sorted(hits - set(by_domain[domain])))}
            for p in mine:  # related entries in other domains join as candidates too
                if p in loaded:
                    for rel in loaded[p].related:
                        target = rel if rel.endswith(".md") else rel + ".md"
                        if target not in loaded and _domain(target) != domain:
                            loaded.update(_load(project, [target]))
            paths = sorted(loaded)
            corpus = None  # the last group's goes first (memory)
            subjects.forget()
            corpus = Corpus(paths, [None if p in vocab else words(loaded[p]) for p in paths],
                            vocab)
            where = {p: i for i, p in enumerate(paths)}
            for hint in hints if first == 0 else ():
                found = _hint(hint, where, corpus, loaded, subjects, consumed, decided)
                if found:
                    yield None, found
            for path in mine:
                if should_stop():
                    return
                if path not in where or path in consumed:
                    continue
                yield path, _for_entry(path, paths, where, corpus, loaded, subjects, consumed,
                                       decided)


def _for_entry(path: str, paths: list[str], where: dict[str, int], corpus: Corpus,
               loaded: dict[str, Entry], subjects: Subjects, consumed: set[str],
               decided: set[frozenset[str]]) -> list[Op]:
    ops: list[Op] = []
    apart: list[str] = []  # alike in words, about other subjects (the SKIP's reason)
    for j, score in corpus.nearest(where[path], NEAREST):
        other = paths[j]
        key = frozenset((path, other))
        if other in consumed or key in decided:
            continue
        evidence = subjects.evidence((path, loaded[path]), (other, loaded[other]))
        op = _decide(path, other, where, corpus, loaded, score, evidence)
        if op is None:
            if score >= LINK_AT and not evidence.shared:
                apart.append(f"{other}: {evidence.why()}")
            continue
        decided.add(key)
        ops.append(op)
        if op["action"] == "MERGE":
            consumed.update(op["sources"])
            break
    if not ops:
        reason = (f"alike in words only: {'; '.join(apart[:3])}" if apart else
                  NOTHING_ALIKE)
        ops.append({"operation": "consolidate", "action": "SKIP", "files": [path],
                    "reason": reason})
    return ops


def _decide(path: str, other: str, where: dict[str, int], corpus: Corpus,
            loaded: dict[str, Entry], score: float, evidence: Evidence) -> Op | None:
    """The pair's decision: word overlap proposes, the subject evidence decides (issue 37)."""
    a, b = loaded[path], loaded[other]
    same_domain = _domain(path) == _domain(other)
    one_subject = not evidence.two_subjects
    pair = corpus.pair(where[path], where[other])
    if same_domain and pair >= MERGE_AT and one_subject:
        target, _ = _older((path, a), (other, b))
        source = other if target == path else path
        return {"operation": "consolidate", "action": "MERGE", "target": target,
                "sources": [source], "confidence": round(pair, 2),
                "reason": f"{pair:.2f} similar: {source} covers the same topic as {target}"}
    best = max(score, corpus.sim(where[other], where[path]))
    if best < LINK_AT:
        return None
    if same_domain and one_subject and revisits((path, a), (other, b)):
        old_path, _ = _older((path, a), (other, b))
        newer = other if old_path == path else path
        # the relation goes in ``related``: a line in the text would fill search excerpts
        return {"operation": "consolidate", "action": "TEMPORAL_UPDATE", "file": old_path,
                "newer": newer, "confidence": round(best, 2),
                "reason": f"{newer} revisits the subject of {old_path} ({best:.2f} similar)"}
    if not evidence.shared or (_linked(a, other) and _linked(b, path)):
        return None  # alike in words only (no name of one in the other), or linked
    if evidence.two_subjects and (pair >= MERGE_AT or (evidence.siblings and best >= MERGE_AT)):
        return None  # one text for two subjects (a license, a template): twins, not related
    return {"operation": "consolidate", "action": "CROSS_REFERENCE",
            "files": sorted([path, other]), "confidence": round(best, 2),
            "reason": f"related but distinct ({best:.2f} similar)"}


def _hint(hint: dict[str, Any], where: dict[str, int], corpus: Corpus,
          loaded: dict[str, Entry], subjects: Subjects, consumed: set[str],
          decided: set[frozenset[str]]) -> list[Op]:
    source, target = str(hint.get("file", "")), str(hint.get("target", ""))
    if source not in where or target not in where or source in consumed or target in consumed:
        return []
    decided.add(frozenset((source, target)))
    evidence = subjects.evidence((source, loaded[source]), (target, loaded[target]))
    if evidence.two_subjects:
        return [{"operation": "consolidate", "action": "SKIP", "files": [source, target],
                 "reason": f"pending merge hint not followed: {evidence.why()}"}]
    # the prune's own test: one direction at least 0.5 (see prune._closest_sibling)
    pair = max(corpus.sim(where[source], where[target]), corpus.sim(where[target], where[source]))
    if pair < LINK_AT:
        return [{"operation": "consolidate", "action": "SKIP", "files": [source, target],
                 "reason": f"pending merge hint not followed: only {pair:.2f} similar"}]
    consumed.add(source)
    return [{"operation": "consolidate", "action": "MERGE", "target": target,
             "sources": [source], "confidence": round(pair, 2),
             "reason": f"suggested by the last prune ({hint.get('reason', '')}); "
                       f"{pair:.2f} similar"}]
