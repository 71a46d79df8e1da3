"""A dream tells "one template filled for two subjects" from "one subject said twice" (issue 37).

Templated sections of different packages (Installation / Usage / License, the same
boilerplate around each package's name and API) are never merged or marked as updates of
each other, however alike their words; a true duplicate in other words still is; and the
relations a dream records are links in ``related``, never lines added to an entry's text.
"""

from __future__ import annotations

from datetime import timedelta

from dream_support import NOW, OAUTH, add, logged_ops

from brv_vc.format.entry import parse_entry
from brv_vc.services import dream

PACKAGES = {
    "accepts": ("type", "picks the best content type the request accepts"),
    "cookie": ("parse", "parses an HTTP Cookie header string into an object"),
    "etag": ("generate", "creates a simple entity tag for a body or a file stat"),
    "fresh": ("check", "tells whether a cached response is still fresh for the request"),
    "vary": ("append", "adds a field to the Vary response header"),
    "statuses": ("message", "maps an HTTP status code to its reason phrase"),
}
INSTALL = ("This is a Node.js module available through the npm registry. Installation is "
           "done using the npm install command. Before installing, download and install "
           "Node.js 0.6 or higher.\n\n```sh\n$ npm install {pkg}\n```\n")
USAGE = ("```js\nvar {pkg} = require('{pkg}')\n```\n\nThe `{pkg}.{fn}(req, res)` function "
         "{what}. It returns the value and never throws; invalid arguments are reported "
         "through the returned value. See the API section for every option the function "
         "takes and the tests for more examples.\n")
LICENSE = ("[MIT](LICENSE) Copyright the {pkg} authors. Permission is hereby granted, free "
           "of charge, to any person obtaining a copy of this software and associated "
           "documentation files, to deal in the software without restriction, including "
           "without limitation the rights to use, copy, modify, merge and publish it.\n")


def _templated(project):
    paths = {}
    for pkg, (fn, what) in PACKAGES.items():
        for title, text in (("Installation", INSTALL), ("Usage", USAGE), ("License", LICENSE)):
            paths[pkg, title] = add(project, f"npm/{pkg}", title,
                                    text.format(pkg=pkg, fn=fn, what=what))
    return paths


def _package(path):
    return path.split("/")[1]


def _consolidations(result):
    return [op for op in result.operations
            if op["operation"] == "consolidate" and op["action"] != "SKIP"]


def test_templated_sections_of_different_packages_are_not_merged_or_updated(project):
    _templated(project)
    result = dream.dream(project, NOW, force=True)
    for op in _consolidations(result):
        named = [op.get("target"), *op.get("sources", []), *op.get("files", []),
                 op.get("file"), op.get("newer")]
        packages = {_package(p) for p in named if p}
        assert len(packages) == 1, op  # nothing, not even a link, across two packages
    skips = [op for op in logged_ops(project, result.id) if op["action"] == "SKIP"
             and op["reason"].startswith("alike in words only")]
    assert skips  # the log says why the alike sections were left alone
    assert "different subjects" in skips[0]["reason"]
    assert len(list(project.tree.glob("npm/*/*.md"))) >= 18  # nothing merged away


def test_a_true_duplicate_in_other_words_is_merged(project):
    paths = _templated(project)
    _, what = PACKAGES["vary"]
    again = add(project, "npm/vary", "Usage of vary",
                "The `vary.append(req, res)` function " + what + ". Invalid arguments are "
                "reported through the returned value; it returns the value and never "
                "throws. See the API section for every option the function takes and the "
                "tests for more examples.\n\n```js\nvar vary = require('vary')\n```\n",
                NOW + timedelta(days=1))
    result = dream.dream(project, NOW + timedelta(days=1), force=True)
    merges = [op for op in result.operations if op["action"] == "MERGE"]
    assert [(m["target"], m["sources"]) for m in merges] == [(paths["vary", "Usage"], [again])]
    assert not (project.tree / again).exists()


def test_relations_are_links_and_the_text_stays_as_it_was(project):
    old = add(project, "api/retry", "Retry policy",
              "Clients retry failed requests three times with exponential backoff and jitter.")
    new = add(project, "api/retry", "Retry policy for uploads",
              "Clients retry failed requests five times with exponential backoff and jitter; "
              "uploads resume from the last chunk.", NOW + timedelta(days=1))
    a = add(project, "auth/oauth", "OAuth flow", OAUTH)
    b = add(project, "security/tokens", "Token storage", OAUTH + " Stored encrypted at rest.")
    before = {p: parse_entry((project.tree / p).read_bytes()) for p in (old, new, a, b)}
    result = dream.dream(project, NOW + timedelta(days=1), force=True)
    actions = {op["action"] for op in _consolidations(result)}
    assert {"TEMPORAL_UPDATE", "CROSS_REFERENCE"} <= actions
    after = {p: parse_entry((project.tree / p).read_bytes()) for p in before}
    assert new in after[old].related
    assert b in after[a].related
    assert a in after[b].related
    for path, entry in before.items():
        assert after[path].body == entry.body, path  # no line appended, ever
