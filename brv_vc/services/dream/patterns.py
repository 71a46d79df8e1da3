"""The synthesis candidates of a large tree in rank order, without holding every term.

Why (issue 24: a dream's peak <= 300 MB at 100,000 entries): every entry's text, and a
:class:`evidence.Term` (its entries, domains, spellings) for each of the ~45,000 terms that
several domains share, took ~250 MB, while a dream writes at most three syntheses from the
best few. Here the index is read a batch of entries at a time, twice: once to count the
entries using each word, once to keep numbers only (each term occurrence's hash, entry and
kind; each entry's domain and title hash), leaving out terms made of a word that is
everywhere. From them the rules of :func:`evidence.shared` that need no spelling (entries,
domains, titles, a quarter of the tree) leave the terms that may pass, and their rank
without the label: kind times domains, then entries. Terms are then built and ranked
exactly, a round of the best :data:`ROUND` (and all that tie with the last) at a time, from
the few entries that hold them, read again by id. The order and the terms are the ones
``evidence.gather`` then ``shared`` gave; a 64-bit hash collision (odds ~1e-8 here) can
only merge two terms' counts, and a term whose own rank falls behind its round waits for
the next.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from brv_vc.index import listings, texts
from brv_vc.index.terms import stem
from brv_vc.services.dream import evidence
from brv_vc.services.dream.evidence import EntryText, Term
from brv_vc.tree.layout import ARCHIVE_DIR

ROUND = 64
KIND = {"tag": 0, "phrase": 1, "word": 2}
_WEIGHT = np.array([evidence.KIND_WEIGHT[k] for k in KIND])


@dataclass
class Census:
    """What one pass over the entries keeps: numbers, no text (see the module docstring)."""

    ids: list[int]  # index rowids of the entries, in the index's order
    domains: list[str]
    common: set[int] = field(default_factory=set)  # hashes of words a quarter of them use
    titles: dict[str, str] = field(default_factory=dict)  # of the entries read for a round
    openings: dict[str, str] = field(default_factory=dict)
    occ_hash: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # sorted
    occ_entry: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    @property
    def small(self) -> bool:
        """A tree under ``evidence.SMALL_TREE`` entries (single words count there)."""
        return len(self.ids) < evidence.SMALL_TREE


def _rows(conn: sqlite3.Connection, skip_domain: str) -> tuple[list[int], list[str]]:
    """The rowids of every parsed entry with indexed text outside the skipped, and domains."""
    ids, domains = [], []
    for i, p in listings.parsed_entries_with_text(conn):
        domain = p.split("/", 1)[0]
        if domain not in (skip_domain, ARCHIVE_DIR):
            ids.append(i)
            domains.append(domain)
    return ids, domains


def _read(conn: sqlite3.Connection, ids: list[int]) -> Iterator[EntryText]:
    """The entries of ``ids``, in that order, a batch at a time (their text cut at once)."""
    for first in range(0, len(ids), evidence.TEXT_BATCH):
        batch = ids[first:first + evidence.TEXT_BATCH]
        named = listings.named(conn, batch)
        stored = texts.load(conn, batch)
        for i in batch:
            if i in stored and i in named:
                p, t = named[i]
                yield EntryText(p, t or "", stored[i][1],
                                evidence.opening(stored[i][0][:evidence.HEAD_CHARS]))


def census(conn: sqlite3.Connection, skip_domain: str,
           should_stop: Callable[[], bool] = lambda: False) -> tuple[Census, np.ndarray] | None:
    """Two passes: the Census and the ranked hashes that may pass (None when stopped).

    The first counts the entries using each word, so that the second keeps no occurrence
    of a term made of a word that is everywhere (``evidence.shared`` drops those).
    """
    ids, domain_of = _rows(conn, skip_domain)
    names = sorted(set(domain_of))
    found = Census(ids, names)
    where = {d: n for n, d in enumerate(names)}
    doms = np.array([where[d] for d in domain_of], np.int32)  # per entry
    del domain_of
    small, total = found.small, len(found.ids)
    words_seen = array("q")  # the hash of each word of each entry (once an entry)
    for n, entry in enumerate(_read(conn, found.ids)):
        if n % evidence.TEXT_BATCH == 0 and should_stop():
            return None
        words_seen.extend({hash(stem(w))
                           for w, _ in evidence._words(evidence._lead(entry))})
    if not small:
        word, used = np.unique(np.frombuffer(words_seen, np.int64), return_counts=True)
        found.common = set(word[used > total / 4].tolist())
        del word, used
    del words_seen
    common = found.common
    # compact arrays: ~1,500,000 term occurrences at 100,000 entries (a list of Python
    # ints would cost ~5x that)
    hashes, owner, kinds = array("q"), array("i"), array("b")
    titled = array("q")  # per entry
    for n, entry in enumerate(_read(conn, found.ids)):
        if n % evidence.TEXT_BATCH == 0 and should_stop():
            return None
        titled.append(hash(entry.title.lower()))
        mine = set()
        for kind, key, _ in evidence._terms(entry, evidence._words(evidence._lead(entry)),
                                            small):
            term_hash = hash(f"{kind}:{key}")
            if term_hash in mine or (common and any(hash(w) in common for w in key.split())):
                continue
            mine.add(term_hash)
            hashes.append(term_hash)
            owner.append(n)
            kinds.append(KIND[kind])
    h = np.frombuffer(hashes, np.int64)
    order = np.argsort(h, kind="stable")
    h = h[order]
    del hashes
    entry_of = np.frombuffer(owner, np.int32)[order]
    kind_of = np.frombuffer(kinds, np.int8)[order]
    del owner, kinds, order
    starts = np.flatnonzero(np.concatenate(([True], h[1:] != h[:-1])))
    count = np.diff(np.append(starts, len(h)))
    keep = count >= (2 if small else 3)
    if not small:
        keep &= count <= total / 4
    held = np.repeat(keep, count)  # the occurrences of terms that may pass: the rest go now
    del starts, count, keep
    found.occ_hash, found.occ_entry = h[held], entry_of[held]
    del h, entry_of
    # a title's number (its hash's rank): keys of (term, title) fit one int64
    _, title_number = np.unique(np.frombuffer(titled, np.int64), return_inverse=True)
    del titled
    return found, _ranked(found, kind_of[held], doms[found.occ_entry],
                          title_number.reshape(-1)[found.occ_entry], len(names))


def _distinct(run: np.ndarray, other: np.ndarray, runs: int,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per run (term): distinct ``other`` values (small ints), and the pairs (run, count).

    One int64 key per occurrence sorted in place: no permutation array, no copies of the
    occurrences (issue 24: ~800,000 of them at 100,000 entries).
    """
    width = int(other.max()) + 1 if len(other) else 1
    key = run * width + other
    key.sort()
    new = np.ones(len(key), bool)
    new[1:] = key[1:] != key[:-1]
    starts = np.flatnonzero(new)
    del new
    pair_run = key[starts] // width
    pair_count = np.diff(np.append(starts, len(key)))
    return np.bincount(pair_run, minlength=runs), pair_run, pair_count


def _ranked(found: Census, kinds: np.ndarray, doms: np.ndarray, titled: np.ndarray,
            domains: int) -> np.ndarray:
    """The hashes that may pass ``evidence.shared``, by rank (without the label).

    ``found.occ_hash`` is sorted; ``doms`` and ``titled`` are small ints (a title's number).
    Returns rows (hash, kind weight times domains, entries capped at 12).
    """
    h = found.occ_hash
    if not len(h):
        return np.zeros((0, 3), np.int64)
    new = np.ones(len(h), bool)
    new[1:] = h[1:] != h[:-1]
    first = np.flatnonzero(new)
    del new
    uniq, count = h[first], np.diff(np.append(first, len(h)))
    run = np.repeat(np.arange(len(uniq), dtype=np.int64), count)
    reach, pair_run, pair_count = _distinct(run, doms, len(uniq))
    kind = kinds[first]
    keep = reach >= 2
    if not found.small:
        least = np.full(len(uniq), np.iinfo(np.int64).max)
        np.minimum.at(least, pair_run, pair_count)
        del pair_run, pair_count
        titles, _, _ = _distinct(run, titled, len(uniq))
        keep &= (titles >= 3) & (kind != KIND["word"]) & ~((reach == 2) & (least < 2))
    if domains >= 6:
        keep &= reach <= domains / 2
    weight = (_WEIGHT[kind] * reach).astype(np.int64)
    rows = np.stack([uniq, weight, np.minimum(count, 12)], axis=1)[keep]
    return rows[np.lexsort((-rows[:, 2], -rows[:, 1]))]


def ranked_terms(conn: sqlite3.Connection, found: Census, rows: np.ndarray,
                 ) -> Iterator[Term]:
    """The terms ``evidence.shared`` keeps, best first, built a round at a time."""
    # no term of _build holds a word a quarter of the entries use: shared() needs no counts
    spread: dict[str, int] = {}
    waiting: list[Term] = []  # built, but ranked behind their round (a hash collision)
    start = 0
    while start < len(rows):
        end = min(start + ROUND, len(rows))
        last = (rows[end - 1, 1], rows[end - 1, 2])
        while end < len(rows) and (rows[end, 1], rows[end, 2]) == last:
            end += 1
        terms = _build(conn, found, set(rows[start:end, 0].tolist()))
        ready = sorted([*waiting, *evidence.shared(terms, spread, len(found.ids),
                                                   found.domains)], key=_key)
        behind = (-float(last[0]), -int(last[1]))
        waiting = [t for t in ready if _key(t)[:2] > behind]
        yield from (t for t in ready if _key(t)[:2] <= behind)
        start = end
    yield from sorted(waiting, key=_key)


def _key(term: Term) -> tuple[float, int, str]:
    return (-evidence.KIND_WEIGHT[term.kind] * len(term.entries),
            -min(sum(len(p) for p in term.entries.values()), 12), term.label)


def _build(conn: sqlite3.Connection, found: Census, wanted: set[int]) -> dict[str, Term]:
    """The terms of ``wanted`` hashes, as ``evidence.gather`` builds them."""
    holders = np.unique(found.occ_entry[np.isin(found.occ_hash, list(wanted))])
    terms: dict[str, Term] = {}
    for entry in _read(conn, [found.ids[n] for n in holders.tolist()]):
        domain = entry.path.split("/", 1)[0]
        title = entry.title.lower()
        found.titles[entry.path] = entry.title
        found.openings[entry.path] = evidence.opening(entry.head)
        words = evidence._words(evidence._lead(entry))
        for kind, key, surface in evidence._terms(entry, words, found.small):
            if hash(f"{kind}:{key}") not in wanted or (
                    found.common and any(hash(w) in found.common for w in key.split())):
                continue
            term = terms.setdefault(f"{kind}:{key}", Term(kind, key))
            if len(term.titles) < 3:
                term.titles.add(title)
            term.shown[surface] = term.shown.get(surface, 0) + 1
            term.entries.setdefault(domain, {})[entry.path] = None
    return terms
