"""Generate a realistic context tree for benchmarks.

N entries across domains, topics and subtopics, with a Zipf-like vocabulary (a few words
are very common, most are rare, as in real notes), relations between entries, facts, and
sizes like real entries (about 1-4 KB). Deterministic for a given (N, seed).

    python bench/gen_tree.py /tmp/tree25k --entries 25000
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.services.init import init_project
from brv_vc.tree.layout import snake
from brv_vc.tree.names import entry_filename

_SYLLABLES = [
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "por", "tan", "gel", "dor", "fin",
    "qua", "bri", "sol", "mek", "ux", "zor", "pli", "cra", "ven", "hal", "orb", "jet", "nim",
]
_TECH = (
    "auth token jwt refresh session cache redis postgres migration schema index query api rest "
    "graphql endpoint handler middleware retry timeout queue worker cron deploy docker build "
    "test fixture mock config env secret key rotation billing invoice payment webhook event "
    "stream kafka log metric trace alert dashboard latency throughput memory cpu thread lock "
    "mutex async await promise callback router component state store reducer hook render "
    "layout style theme css html dom browser mobile android ios release version semver branch "
    "merge rebase commit review lint format type error exception panic crash bug fix patch"
).split()
_CATEGORIES = ("project", "convention", "team", "environment", "preference", "other")


class Vocabulary:
    """Words ranked by frequency; draws follow a Zipf law (weight 1/rank)."""

    def __init__(self, rng: random.Random, size: int = 6000) -> None:
        made: list[str] = []
        seen = set(_TECH)
        while len(made) < size - len(_TECH):
            word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
            if word not in seen:
                seen.add(word)
                made.append(word)
        words = list(_TECH)
        rng.shuffle(words)
        # technical words sit among the frequent ranks, coined words fill the long tail
        self.words = words[:40] + made[:200] + words[40:] + made[200:]
        self.cum = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(self.words))))
        self.rng = rng

    def draw(self, count: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.cum, k=count)

    def sentence(self, low: int = 6, high: int = 16) -> str:
        words = self.draw(self.rng.randint(low, high))
        return " ".join(words).capitalize() + "."


def _layout(n: int) -> tuple[int, int]:
    """Domains and topics per domain for an N-entry tree (about 125 entries a topic at 25k)."""
    domains = max(3, min(40, round((n / 1250) ** 0.5 * 4.5)))
    topics = max(2, min(25, round(n / (domains * 120)) or 2))
    return domains, topics


def generate(root: Path, entries: int, seed: int = 0) -> list[str]:
    """Creates an initialised project at ``root`` with ``entries`` knowledge entries.

    Returns:
        The tree-relative paths of the entries written.
    """
    rng = random.Random(seed)
    vocab = Vocabulary(rng)
    init_project(root)
    tree = root / ".brv" / "context-tree"
    n_domains, n_topics = _layout(entries)
    folders: list[str] = []
    used_names: set[str] = set()
    for d in range(n_domains):
        domain = snake(f"{vocab.draw(1)[0]} {d}")
        for t in range(n_topics):
            topic = f"{domain}/{snake(vocab.draw(1)[0] + ' ' + str(t))}"
            folders.append(topic)
            if rng.random() < 0.4:
                folders.extend(f"{topic}/{snake(vocab.draw(1)[0] + ' sub ' + str(s))}" for s in range(2))
    paths: list[str] = []
    created_dirs: set[str] = set()
    for i in range(entries):
        folder = folders[i % len(folders)] if i < len(folders) else rng.choice(folders)
        title = " ".join(vocab.draw(rng.randint(3, 6))).title() + f" {i}"
        rel = f"{folder}/{entry_filename(title)}"
        if rel in used_names:
            continue
        used_names.add(rel)
        related = tuple(rng.sample(paths, k=min(len(paths), rng.randint(0, 3)))) if paths else ()
        day = 1 + i % 28
        stamp = f"2026-{1 + i % 9:02d}-{day:02d}T{i % 24:02d}:00:00Z"
        facts = "\n".join(
            f"- **{vocab.draw(1)[0]}**: {vocab.sentence(5, 12)} [{rng.choice(_CATEGORIES)}]"
            for _ in range(rng.randint(2, 5))
        )
        rules = "\n".join(f"- {vocab.sentence()}" for _ in range(rng.randint(2, 6)))
        narrative = (
            "### Structure\n" + " ".join(vocab.sentence() for _ in range(rng.randint(3, 10)))
            + "\n\n### Rules\n" + rules
        )
        raw = (
            f"**Task:**\n{vocab.sentence(4, 10)}\n\n**Files:**\n"
            + "\n".join(f"- src/{'/'.join(vocab.draw(2))}.py" for _ in range(rng.randint(1, 3)))
        )
        entry = Entry(
            title=title,
            summary=vocab.sentence(8, 18),
            tags=tuple(dict.fromkeys(vocab.draw(rng.randint(2, 4)))),
            keywords=tuple(dict.fromkeys(vocab.draw(rng.randint(3, 6)))),
            related=related,
            created_at=stamp,
            updated_at=stamp,
            body=build_body([("Raw Concept", raw), ("Narrative", narrative), ("Facts", facts)]),
        )
        target = tree / rel
        if folder not in created_dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            created_dirs.add(folder)
        target.write_bytes(serialize_entry(entry))
        paths.append(rel)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    paths = generate(args.dest, args.entries, args.seed)
    print(f"{len(paths)} entries in {args.dest} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
