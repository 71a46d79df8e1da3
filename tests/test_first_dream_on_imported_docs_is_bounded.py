"""A first dream on a freshly imported docs tree, review on, is one a team can review
(issue 37): its proposals are the most confident first, at most ``--max-proposals`` of
them, each merging one subject's two curations; the answer says how many wait, a group is
approved at once by its dream id, and the next dream proposes the ones that waited.

The tree, as a team imports it: the ``##`` sections of this repository's docs and README,
plus templated sections (Installation / Usage / License) of 24 packages generated here,
alike in everything but the package's name and API; then a second agent curates each
package's usage again in other words (a true duplicate). On 7cc6393 the dream queued every
proposal at once, in the order it met them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import run_brv

REPO = Path(__file__).resolve().parent.parent
PACKAGES = [("accepts", "type"), ("cookie", "parse"), ("etag", "generate"), ("fresh", "check"),
            ("vary", "append"), ("statuses", "message"), ("bytes", "format"),
            ("depd", "deprecate"), ("ms", "convert"), ("qs", "stringify"),
            ("mime", "lookup"), ("negotiator", "languages"), ("cors", "allow"),
            ("morgan", "log"), ("multer", "upload"), ("helmet", "protect"),
            ("compression", "compress"), ("serve", "static"), ("finalhandler", "finish"),
            ("parseurl", "original"), ("methods", "list"), ("encodeurl", "encode"),
            ("destroy", "close"), ("ipaddr", "match")]
INSTALL = ("This is a Node.js module available through the npm registry. Installation is "
           "done using the npm install command.\n\n```sh\n$ npm install {pkg}\n```\n")
USAGE = ("```js\nvar {pkg} = require('{pkg}')\n```\n\nThe `{pkg}.{fn}(req, res)` function "
         "works on the request for {pkg}. It returns the value and never throws; invalid "
         "arguments are reported through the returned value. See the API section for every "
         "option the function takes and the tests for more examples.\n")
LICENSE = ("[MIT](LICENSE) Copyright the {pkg} authors. Permission is hereby granted, free "
           "of charge, to any person obtaining a copy of this software.\n")
AGAIN = ("The `{pkg}.{fn}(req, res)` function works on the request for {pkg}. Invalid "
         "arguments are reported through the returned value; it returns the value and never "
         "throws. See the API section for every option the function takes and the tests for "
         "more examples.\n\n```js\nvar {pkg} = require('{pkg}')\n```\n")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "section"


def _notes(folder: Path) -> int:
    """Writes the notes folder a team would import; returns how many notes."""
    count = 0
    for doc in [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]:
        if doc.name == "cli.md":  # generated help text: not a team's prose
            continue
        parts = re.split(r"^## +(.+)$", doc.read_text(encoding="utf-8"), flags=re.MULTILINE)
        for heading, body in zip(parts[1::2], parts[2::2], strict=True):
            if len(body.strip()) < 40:
                continue
            note = folder / "docs" / f"{_slug(doc.stem)}-doc" / f"{_slug(heading)}.md"
            if note.exists():
                continue
            note.parent.mkdir(parents=True, exist_ok=True)
            # as the import's hint says: conflict-marker lines indented by one space
            text = re.sub(r"^(<{7}|={7}|>{7})", r" \1", body.strip()[:6000], flags=re.MULTILINE)
            note.write_text(f"# {heading.strip()}\n\n{text}\n", encoding="utf-8")
            count += 1
    for pkg, fn in PACKAGES:
        for title, text in (("Installation", INSTALL), ("Usage", USAGE), ("License", LICENSE)):
            note = folder / "npm" / pkg / f"{title.lower()}.md"
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(f"# {title}\n\n{text.format(pkg=pkg, fn=fn)}", encoding="utf-8")
            count += 1
    return count


def _brv(root: Path, *args: str, input: str | None = None):
    done = run_brv(*args, cwd=root, input=input)
    assert done.exit_code == 0, f"brv {' '.join(args)}: {done.stderr}"
    return done


def _pending(root: Path) -> list[dict]:
    return _brv(root, "review", "pending", "--json").json()["entries"]


def _package(path: str) -> str:
    return path.split("/")[1]


def test_a_first_dream_queues_a_bounded_best_first_group(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    found = _notes(tmp_path / "notes")
    _brv(root, "init", "--json")
    imported = _brv(root, "import", str(tmp_path / "notes"), "--json").json()
    assert len(imported["imported"]) == found > 150
    _brv(root, "curate", "--ops", "-", input=json.dumps([
        {"type": "ADD", "path": f"npm/{pkg}", "title": f"Usage of {pkg}",
         "content": AGAIN.format(pkg=pkg, fn=fn), "reason": "curated again by another agent"}
        for pkg, fn in PACKAGES]))
    _brv(root, "review", "--enable")

    first = _brv(root, "dream", "--force", "--max-proposals", "10", "--json").json()
    queued = _pending(root)
    assert len(queued) == 10
    assert first["waiting"] >= 10  # 24 true duplicates: the rest wait
    assert first["summary"]["waiting"] == first["waiting"]
    assert first["max_proposals"] == 10
    merges = [op for op in first["operations"] if op["action"] == "MERGE"]
    applied = [op for op in merges if op["status"] == "applied"]
    waiting = [op for op in first["operations"] if op["status"] == "waiting"]
    assert len(applied) + sum(op["action"] == "MERGE" for op in waiting) == len(PACKAGES)
    for op in merges:  # one subject each: the package's own two usage sections
        assert len({_package(p) for p in [op["target"], *op["sources"]]}) == 1, op
        assert op["target"].endswith("/usage.md"), op
        assert "/usage_of_" in op["sources"][0], op
    # best first: the queue's order is the order of confidence, none waiting above it
    confidence = [op["confidence"] for op in first["operations"]
                  if op.get("reviewId") is not None and op["status"] == "applied"
                  and op["needsReview"]]
    assert confidence == sorted(confidence, reverse=True)
    assert all(op.get("confidence", 1.0) <= confidence[-1] for op in waiting)
    text = _brv(root, "dream", "--log", first["id"]).stdout
    assert "waits for the next dream" in text

    # one decision for the whole group
    approved = _brv(root, "review", "approve", "--dream", first["id"], "--json").json()
    assert len(approved["entries"]) == 10
    assert _pending(root) == []

    # the next dream proposes what waited
    second = _brv(root, "dream", "--force", "--max-proposals", "10", "--json").json()
    again = [op for op in second["operations"] if op["action"] == "MERGE"
             and op["status"] == "applied"]
    assert len(again) == 10
    assert second["waiting"] == first["waiting"] - 10
