"""Synthesize, deterministic detector (seed 001): patterns that span domains.

Each domain's ``_index.md`` summaries (the domain's and its folders') are read as one text.
A pattern is a significant word that several domains share (boilerplate of the summaries
left out); the most widely shared come first, at most three a dream. A candidate whose text
is at least 0.5 alike (BM25, as seed 001 says) to an existing synthesis is dropped. Fewer
than two domains: nothing to synthesize. Confidence grows with the domains that share the
pattern (0.6 for two); below 0.7 the synthesis is flagged for review.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.format import frontmatter as fm
from brv_vc.format.entry import decode
from brv_vc.index.terms import STOPWORDS, stem, tokens
from brv_vc.services.dream.similarity import LINK_AT, Corpus, words
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, kind_of, snake
from brv_vc.tree.project import Project
from brv_vc.tree.store import read_entry

Op = dict[str, Any]
DOMAIN = "synthesis"
TOPIC = "patterns"
MAX_SYNTHESES = 3
_BOILERPLATE = frozenset(
    "knowledge about within covers project entry entries folder folders domain topic "
    "subtopic summary context md the".split())


def _index_text(project: Project, domain: str) -> str:
    parts = []
    for path in sorted((project.tree / domain).rglob("_index.md")):
        try:
            _, body = fm.split(decode(path.read_bytes()))
        except (OSError, BrvError):
            continue
        parts.append(body)
    return "\n".join(parts)


def domains(project: Project) -> list[str]:
    """The tree's domains that have summaries (the synthesis domain itself excluded)."""
    return sorted(p.name for p in project.tree.iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")) and p.name != DOMAIN
                  and p.name != ARCHIVE_DIR and (p / "_index.md").is_file())


def existing(project: Project) -> dict[str, list[str]]:
    """The words of every synthesis already written."""
    out = {}
    for path in sorted((project.tree / DOMAIN).rglob("*.md")):
        rel = project.relpath(path)
        if kind_of(rel) is not Kind.ENTRY:
            continue
        try:
            out[rel] = words(read_entry(project, rel))
        except BrvError:
            continue
    return out


def detect(project: Project) -> list[Op]:
    """CREATE operations for new cross-domain patterns (none with fewer than two domains)."""
    names = domains(project)
    if len(names) < 2:
        return []
    texts = {d: _index_text(project, d) for d in names}
    where: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for domain, text in texts.items():
        for word in tokens(text):
            if word in STOPWORDS or word in _BOILERPLATE or word.isdigit() or len(word) < 3:
                continue
            word = stem(word)  # "token" and "tokens" are one pattern
            where.setdefault(word, set()).add(domain)
            counts[word] = counts.get(word, 0) + 1
    shared = sorted((w for w, ds in where.items() if len(ds) >= 2 and w not in names),
                    key=lambda w: (-len(where[w]), -counts[w], w))
    known = existing(project)
    seen = [known[p] for p in sorted(known)]  # existing syntheses, then this dream's
    bullets = {d: _bullets(text) for d, text in texts.items()}
    ops: list[Op] = []
    corpus = None  # the model of ``seen``, built again only when a synthesis joins it
    for word in shared:
        if len(ops) == MAX_SYNTHESES:
            break
        op = _candidate(word, sorted(where[word]), bullets)
        probe = tokens(" ".join([op["title"], op["title"], op["summary"], op["content"]]))
        if seen:
            corpus = corpus or Corpus([str(i) for i in range(len(seen))], list(seen))
            if corpus.best_against(probe) >= LINK_AT:
                continue
        if any(o["path"] == op["path"] for o in ops):
            continue
        seen.append(probe)
        corpus = None
        ops.append(op)
    return ops


def _bullets(text: str) -> dict[str, list[str]]:
    """The summary's list lines by each stemmed word they hold (built once per domain).

    Why: a dream may weigh hundreds of candidate words before three survive the
    de-duplication; stemming every line again for each took seconds on a 5,000-entry tree.
    """
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("- "):
            for word in dict.fromkeys(map(stem, tokens(line))):
                out.setdefault(word, []).append(line)
    return out


def _candidate(word: str, shared_by: Sequence[str], bullets: dict[str, dict[str, list[str]]],
               ) -> Op:
    lines = []
    for domain in shared_by:
        hits = bullets[domain].get(word, [])[:5]
        lines.append(f"### {domain}")
        lines.extend(hits or [f"- {domain} mentions {word}"])
        lines.append("")
    confidence = round(min(0.95, 0.6 + 0.1 * (len(shared_by) - 2)), 2)
    title = f"{word.capitalize()} across {', '.join(shared_by)}"
    return {
        "operation": "synthesize", "action": "CREATE",
        "path": f"{DOMAIN}/{TOPIC}/{snake(title)}.md",
        "title": title,
        "summary": f"'{word}' recurs in {len(shared_by)} domains: {', '.join(shared_by)}",
        "content": "\n".join(lines).strip(),
        "sources": [f"{d}/_index.md" for d in shared_by],
        "tags": [word, "cross-domain", "synthesis"],
        "keywords": [word, *shared_by],
        "confidence": confidence,
        "reason": f"'{word}' appears in the summaries of {len(shared_by)} domains",
    }


def render(op: Op, stamp: str) -> bytes:
    """A synthesis file: the four markers first, then the seven fields (seed 001 order)."""
    lines = [
        f"confidence: {float(op['confidence'])}\n",
        fm.dump_list("sources", [str(s) for s in op["sources"]]),
        fm.dump_string("synthesized_at", stamp),
        "type: synthesis\n",
        fm.dump_string("title", str(op["title"])),
        fm.dump_string("summary", str(op.get("summary", ""))),
        fm.dump_list("tags", [str(t) for t in op.get("tags", [])]),
        fm.dump_list("related", []),
        fm.dump_list("keywords", [str(k) for k in op.get("keywords", [])]),
        fm.dump_string("createdAt", stamp),
        fm.dump_string("updatedAt", stamp),
    ]
    body = f"\n## Narrative\n\n{str(op.get('content', '')).strip()}\n"
    return ("---\n" + "".join(lines) + "---\n" + body).encode("utf-8")
