"""Benchmark: every synthesis the offline dream proposes over real public trees.

Two trees, built once and reused under ``--work``:

- ``tldr``: tldr-pages, one domain per platform (linux, osx, windows, android, freebsd,
  openbsd, netbsd, sunos, dos, cisco-ios; ``--pages`` pages each, every n-th by name). An
  entry is a command page: its title the command, its summary the page's description, its
  content the examples. Fetch: ``git clone --depth 1 https://github.com/tldr-pages/tldr
  DATA/tldr`` (``bench/eval_sets.py`` reads the same clone).
- ``docs``: this project's README.md and docs/*.md, one domain per document, one entry per
  ``## `` section (title the heading, summary its first sentence).

Each tree is curated through ``run_batch`` (so ``context.md`` and ``_index.md`` are written
as for any user), then the synthesis detector runs and every synthesis it proposes is
listed: title, confidence, the entries it rests on, its summary. A second pass runs a real
dream with review enabled and counts the syntheses that skipped review (must be 0).

``BRV_SOURCE=/path/to/other/checkout`` runs the same bench against another version of brv
(the "before" list of a change).

Usage: python bench/bench_synthesis.py [--data /tmp/brv-eval-data] [--pages 40]
       [--work /tmp/brv-synth] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, os.environ.get("BRV_SOURCE") or str(HERE.parent))

from brv_vc.services import curate  # noqa: E402
from brv_vc.services.dream import synthesize  # noqa: E402
from brv_vc.services.init import init_project  # noqa: E402
from brv_vc.tree.layout import snake  # noqa: E402
from brv_vc.tree.project import Project  # noqa: E402

NOW = datetime(2026, 1, 15, 12, tzinfo=UTC)
PLATFORMS = ("linux", "osx", "windows", "android", "freebsd", "openbsd", "netbsd", "sunos",
             "dos", "cisco-ios")
_MNEMONIC = re.compile(r"\[(\w{1,3})\]")


def tldr_ops(data: Path, pages: int) -> list[dict[str, object]]:
    """One ADD per tldr page: ``<platform>/commands``."""
    ops: list[dict[str, object]] = []
    for platform in PLATFORMS:
        folder = data / "tldr" / "pages" / platform
        files = sorted(folder.glob("*.md"))
        step = max(1, len(files) // pages)
        for path in files[::step][:pages]:
            lines = path.read_text(encoding="utf-8").splitlines()
            name = lines[0].lstrip("# ").strip()
            desc = [ln[1:].strip() for ln in lines if ln.startswith(">")]
            summary = next((d for d in desc if not d.startswith(("More information",
                                                                  "See also"))), "")
            body = _MNEMONIC.sub(r"\1", "\n".join(ln for ln in lines[1:]
                                                  if not ln.startswith(">"))).strip()
            if not re.search(r"[^\W_]", name) or not body:
                continue
            ops.append({"type": "UPSERT", "path": f"{snake(platform)}/commands", "title": name,
                        "summary": summary[:2000], "content": body[:40000],
                        "reason": "bench: tldr page"})
    return ops


def docs_ops(repo: Path) -> list[dict[str, object]]:
    """One ADD per ``## `` section of README.md and docs/*.md: ``<document>/sections``."""
    ops: list[dict[str, object]] = []
    for path in [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]:
        if path.name == "cli.md":
            continue  # generated from --help: the commands, not knowledge
        text = path.read_text(encoding="utf-8")
        parts = re.split(r"^## (.+)$", text, flags=re.M)
        domain = "overview" if path.stem == "README" else snake(path.stem)  # readme: reserved
        seen: set[str] = set()
        for heading, body in zip(parts[1::2], parts[2::2], strict=True):
            title = re.sub(r"[`*]", "", heading).strip()
            # conflict-marker lines quoted in the docs would read as a conflict: indent them
            body = re.sub(r"^(<{7}|={7}|>{7})", r" \1", body.strip(), flags=re.M)
            if not body or title.lower() in seen:
                continue
            seen.add(title.lower())
            prose = next((ln for ln in body.splitlines() if ln.strip()
                          and not ln.startswith(("#", "|", "```", "-", "<"))), "")
            summary = re.split(r"(?<=[.!?])\s", prose, maxsplit=1)[0][:300]
            ops.append({"type": "UPSERT", "path": f"{domain}/sections", "title": title,
                        "summary": summary, "content": body[:40000],
                        "reason": "bench: project docs"})
    return ops


def build(root: Path, ops: list[dict[str, object]]) -> Project:
    """The tree at ``root`` (reused when it is there: delete it to rebuild)."""
    project = Project(root)
    if (root / ".brv" / "context-tree").is_dir():
        return project
    root.mkdir(parents=True, exist_ok=True)
    init_project(root)
    for start in range(0, len(ops), 400):
        result = curate.run_batch(project, ops[start:start + 400], NOW)
        if not result.ok:
            shutil.rmtree(root)  # never reuse half a tree
            raise SystemExit(f"{root}: {[a for a in result.applied if a.status == 'failed'][:2]}")
    return project


def review_check(project: Project, work: Path) -> dict[str, int]:
    """A real dream with review enabled, on a copy: syntheses made, and those not pending."""
    from brv_vc.services import dream, review

    copy = work / (project.root.name + "-dream")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(project.root, copy, symlinks=True)
    other = Project(copy)
    review.set_enabled(other, True)
    result = dream.dream(other, NOW, force=True)
    made = [op for op in result.operations
            if op["operation"] == "synthesize" and op.get("status") == "applied"]
    shutil.rmtree(copy, ignore_errors=True)
    return {"syntheses": len(made), "skipped_review": sum(not op.get("needsReview")
                                                          for op in made)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/brv-eval-data"))
    parser.add_argument("--pages", type=int, default=40, help="tldr pages per platform")
    parser.add_argument("--work", type=Path, default=Path("/tmp/brv-synth"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {}
    if (args.data / "tldr" / "pages").is_dir():
        trees["tldr"] = tldr_ops(args.data, args.pages)
    else:
        print(f"tldr missing: git clone --depth 1 https://github.com/tldr-pages/tldr "
              f"{args.data}/tldr", file=sys.stderr)
    trees["docs"] = docs_ops(HERE.parent)
    report = {}
    for name, ops in trees.items():
        project = build(args.work / name, ops)
        found = synthesize.detect(project)
        report[name] = {
            "entries": len(ops),
            "syntheses": [{"title": op["title"], "confidence": op["confidence"],
                           "sources": list(op["sources"]), "summary": op["summary"]}
                          for op in found],
            "review": review_check(project, args.work),
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, tree in report.items():
        print(f"## {name}: {tree['entries']} entries, {len(tree['syntheses'])} syntheses "
              f"(dream with review on: {tree['review']})")
        for op in tree["syntheses"]:
            print(f"- {op['title']}  [confidence {op['confidence']}]")
            print(f"    {op['summary']}")
            print(f"    rests on: {', '.join(op['sources'][:6])}"
                  + (f" (+{len(op['sources']) - 6})" if len(op["sources"]) > 6 else ""))


if __name__ == "__main__":
    main()
