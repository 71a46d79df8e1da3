"""The hostile-input corpus: table-driven CLI cases (see test_hostile_input_corpus.py).

A case is the argv of one ``brv`` run in a copy of a seeded, committed project, the files it
needs outside the project (``{f}`` in the argv is their folder) or inside the tree, and
whether a correct answer may change the tree. The runner asserts a refusal (exit 1 or a
usage error, a message, no traceback, nothing changed) or a correct answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

ENTRY = "api/auth/token_rotation.md"  # seeded by the runner


@dataclass(frozen=True)
class Case:
    """One hostile run: ``argv`` (``{f}``: the case's file folder), its files and stdin."""

    id: str
    argv: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)  # written under {f}
    tree_files: dict[str, bytes] = field(default_factory=dict)  # written into the tree first
    stdin: str | None = None
    may_change: bool = False  # a correct answer may write (it must then validate)
    names: tuple[str, ...] = ()  # a refusal names one of these


PATHS = {
    "dotdot": "../outside", "dotdot-deep": "api/../../../etc", "abs": "/etc/passwd",
    "drive": "C:/Windows/x", "empty": "", "space": " ", "dot": ".", "dotdot-only": "..",
    "hidden": ".hidden/x", "git-dir": "api/.git/config", "nul": "api/a\x00b",
    "newline": "api/a\nb", "bidi": "api\u202e/auth", "zwsp": "api/a\u200bb",
    "isolate": "api/\u2066x", "esc": "api/\x1b[31mred", "long-seg": "a" * 300,
    "deep": "/".join(["d"] * 60), "device": "con/aux", "colon": "a:b/c", "star": "a*b/c",
    "pct": "%2e%2e/x", "tilde": "~/x", "backslash": "api\\..\\..\\x", "dash": "-rf",
    "at": "@", "archived": "_archived/x.md", "index": "api/auth/_index.md",
    "context": "api/auth/context.md", "bom": "\ufeffapi/auth", "rtl-file": f"{ENTRY}\u202e",
    "trailing-dot": "api/auth./x", "huge": "x/" * 5000,
}


def _path_cases() -> list[Case]:
    out = []
    for key, path in PATHS.items():
        out += [
            Case(f"show-{key}", ("show", path)),
            Case(f"add-{key}", ("curate", "add", path, "--title", "Hostile", "--content", "x",
                                "--reason", "corpus"), may_change=True),
            Case(f"update-{key}", ("curate", "update", path, "--content", "x", "--reason",
                                   "corpus"), may_change=True),
            Case(f"delete-{key}", ("curate", "delete", path, "--reason", "corpus", "--dry-run")),
            Case(f"scope-{key}", ("search", "rotation", "--scope", path)),
            Case(f"hydrate-{key}", ("hydrate", path)),
            Case(f"tree-{key}", ("tree", path)),
            Case(f"relations-{key}", ("relations", path)),
            Case(f"archive-{key}", ("archive", path), may_change=True),
            Case(f"restore-{key}", ("restore", path)),
        ]
    return out


BASE_OP = {"type": "ADD", "path": "api/auth", "title": "Corpus", "content": "text", "reason": "r"}


def _op(**changes: object) -> bytes:
    op = {**BASE_OP, **changes}
    return json.dumps([{k: v for k, v in op.items() if v is not _DROP}]).encode()


_DROP = object()
OPS: dict[str, bytes] = {
    "not-json": b"not json", "empty-file": b"", "null": b"null", "object": b"{}",
    "number": b"42", "string": b'"ops"', "trailing-comma": b'[{"type": "ADD",}]',
    "truncated": b'[{"type": "ADD", "path": "api', "utf16": _op().decode().encode("utf-16"),
    "latin1": _op(title="Caf\u00e9").decode().encode("latin-1"),
    "bom": b"\xef\xbb\xbf" + _op(), "nul": _op().replace(b"Corpus", b"Cor\x00pus"),
    "deep": b"[" * 5000 + b"]" * 5000, "deep-obj": b'{"a":' * 3000 + b"1" + b"}" * 3000,
    "nan": _op().replace(b'"r"}', b'"r", "tags": [NaN]}'),
    "infinity": _op().replace(b'"r"}', b'"r", "tags": Infinity}'),
    "bigint": _op().replace(b'"r"}', b'"r", "tags": [' + b"9" * 5000 + b"]}"),
    "dup-key": _op().replace(b'"type": "ADD"', b'"type": "ADD", "type": "DELETE"'),
    "lone-surrogate": _op().replace(b"Corpus", b"\\ud800Corpus"),
    "bad-utf8": _op().replace(b"Corpus", b"Cor\xffpus"),
    "type-missing": _op(type=_DROP), "path-missing": _op(path=_DROP),
    "reason-missing": _op(reason=_DROP), "content-missing": _op(content=_DROP),
    "type-unknown": _op(type="EXPLODE"), "type-lower": _op(type="add"),
    "type-int": _op(type=1), "path-int": _op(path=7), "path-list": _op(path=["api"]),
    "path-null": _op(path=None), "path-empty": _op(path=""), "path-dotdot": _op(path="../x"),
    "path-abs": _op(path="/etc"), "path-bidi": _op(path="api\u202e/auth"),
    "path-nul": _op(path="api/\u0000"), "path-long": _op(path="a" * 5000),
    "title-int": _op(title=5), "title-list": _op(title=["a"]), "title-obj": _op(title={}),
    "title-empty": _op(title=""), "title-huge": _op(title="t" * 100_000),
    "title-newlines": _op(title="a\nb\r\nc"), "title-esc": _op(title="\x1b[2Jboom"),
    "title-yaml": _op(title="!!python/object/apply:os.system ['true']"),
    "title-dashes": _op(title="---"), "title-bidi": _op(title="abc\u202edef"),
    "content-int": _op(content=1), "content-null": _op(content=None),
    "content-empty": _op(content=""), "content-huge": _op(content="c" * 2_000_000),
    "content-markers": _op(content="<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n"),
    "content-frontmatter": _op(content="---\ntitle: x\n---\nbody"),
    "tags-string": _op(tags="a,b"), "tags-nested": _op(tags=[["a"]]),
    "tags-many": _op(tags=[f"t{i}" for i in range(20_000)]), "tags-null": _op(tags=[None]),
    "related-dotdot": _op(related=["../../etc/passwd"]), "related-int": _op(related=[1]),
    "created-month13": _op(createdAt="2024-13-45T00:00:00Z"),
    "created-garbage": _op(createdAt="yesterday"), "created-int": _op(createdAt=1700000000),
    "updated-feb30": _op(updatedAt="2024-02-30T00:00:00Z"),
    "unknown-key": _op(explode=True), "summary-huge": _op(summary="s" * 100_000),
    "merge-no-target": _op(type="MERGE", path=ENTRY),
    "merge-self": _op(type="MERGE", path=ENTRY, target=ENTRY),
    "delete-root": _op(type="DELETE", path="."), "delete-missing": _op(type="DELETE", path="no/such"),
    "update-missing": _op(type="UPDATE", path="no/such/x.md"),
    "wrapped-extra": json.dumps({"operations": [BASE_OP], "x": 1}).encode(),
    "many-ops": json.dumps([BASE_OP] * 20_000).encode(),
    "ops-not-objects": b"[1, 2, 3]", "ops-nested-arrays": b"[[]]",
}

DECISIONS: dict[str, bytes] = {
    "not-json": b"{", "empty": b"", "object": b"{}", "numbers": b"[1]",
    "no-operation": b'[{"action": "KEEP", "file": "a/b/c.md", "reason": "r"}]',
    "bad-operation": b'[{"operation": "explode", "action": "KEEP", "reason": "r"}]',
    "bad-action": b'[{"operation": "prune", "action": "NUKE", "file": "a/b/c.md", "reason": "r"}]',
    "dotdot": b'[{"operation": "prune", "action": "ARCHIVE", "file": "../../x.md", "reason": "r"}]',
    "abs": b'[{"operation": "prune", "action": "ARCHIVE", "file": "/etc/passwd", "reason": "r"}]',
    "file-int": b'[{"operation": "prune", "action": "KEEP", "file": 5, "reason": "r"}]',
    "missing-entry": b'[{"operation": "prune", "action": "KEEP", "file": "a/b/c.md", "reason": "r"}]',
    "merge-self": json.dumps([{"operation": "consolidate", "action": "MERGE", "target": ENTRY,
                               "sources": [ENTRY], "reason": "r"}]).encode(),
    "create-empty": b'[{"operation": "synthesize", "action": "CREATE", "title": "", '
                    b'"content": "", "sources": [], "reason": "r"}]',
    "deep": b"[" * 5000 + b"]" * 5000, "nan": b"[NaN]", "bigint": b"[" + b"1" * 5000 + b"]",
    "too-many": json.dumps([{"operation": "prune", "action": "KEEP", "file": ENTRY,
                             "reason": "r"}] * 5001).encode(),
    "dup-key": b'[{"operation": "prune", "operation": "prune", "action": "KEEP", '
               b'"file": "a/b/c.md", "reason": "r"}]',
}

SPECIAL = {"dev-null": "/dev/null", "dev-zero": "/dev/zero", "proc-mem": "/proc/self/mem",
           "folder": "{f}", "missing": "{f}/missing.json", "root": "/"}

OPTIONS: list[tuple[str, tuple[str, ...]]] = [
    ("search-limit-neg", ("search", "rotation", "--limit", "-1")),
    ("search-limit-zero", ("search", "rotation", "--limit", "0")),
    ("search-limit-huge", ("search", "rotation", "--limit", "9" * 40)),
    ("search-limit-nan", ("search", "rotation", "--limit", "NaN")),
    ("search-empty", ("search", "")), ("search-space", ("search", "   ")),
    ("search-esc", ("search", "\x1b]0;pwned\x07rotation")),
    ("search-bidi", ("search", "rota\u202etion")), ("search-nul", ("search", "a\x00b")),
    ("search-huge", ("search", "word " * 50_000)), ("search-fts", ("search", 'NEAR("a" b) OR *')),
    ("search-quotes", ("search", '"""')), ("search-column", ("search", "title:rotation")),
    ("query-huge", ("query", "why " * 50_000)), ("query-empty", ("query", "")),
    ("query-iter-neg", ("query", "rotation", "--max-iterations", "-5")),
    ("brain-budget-neg", ("brain", "--budget", "-5")),
    ("brain-budget-zero", ("brain", "--budget", "0")),
    ("brain-budget-huge", ("brain", "--budget", "9" * 30)),
    ("brain-etag-esc", ("brain", "--if-none-match", "\x1b[2J")),
    ("hydrate-budget-neg", ("hydrate", "api", "--budget", "-1")),
    ("hydrate-budget-huge", ("hydrate", "api", "--budget", "9" * 30)),
    ("dream-budget-neg", ("dream", "--budget", "-1")),
    ("dream-budget-nan", ("dream", "--budget", "nan")),
    ("dream-budget-inf", ("dream", "--budget", "inf")),
    ("dream-undo-bad", ("dream", "--undo", "../../x")), ("dream-log-bad", ("dream", "--log", "../x")),
    ("dream-cancel-bad", ("dream", "--cancel", "drm-1")),
    ("vc-log-limit-neg", ("vc", "log", "-n", "-1")),
    ("vc-log-limit-huge", ("vc", "log", "-n", "9" * 30)),
    ("vc-log-ref-option", ("vc", "log", "--output=/tmp/x")),
    ("vc-diff-ref-option", ("vc", "diff", "--output=/tmp/brv-corpus-x")),
    ("vc-diff-ref-range", ("vc", "diff", "HEAD..nope")),
    ("vc-diff-ref-dotdot", ("vc", "diff", "../../")), ("vc-diff-ref-nul", ("vc", "diff", "a\x00b")),
    ("vc-log-ref-missing", ("vc", "log", "no-such-branch")),
    ("vc-add-dotdot", ("vc", "add", "../../etc/passwd")), ("vc-add-abs", ("vc", "add", "/etc")),
    ("vc-add-option", ("vc", "add", "--", "--exec=true")),
    ("vc-reset-ref-option", ("vc", "reset", "--hard", "--upload-pack=true")),
    ("vc-checkout-head", ("vc", "checkout", "HEAD")), ("vc-checkout-at", ("vc", "checkout", "@")),
    ("vc-checkout-sha-range", ("vc", "checkout", "HEAD~1..HEAD")),
    ("vc-checkout-missing", ("vc", "checkout", "no-such")),
    ("vc-branch-at", ("vc", "branch", "@")), ("vc-branch-head", ("vc", "branch", "HEAD")),
    ("vc-branch-dotdot", ("vc", "branch", "a..b")), ("vc-branch-lock", ("vc", "branch", "x.lock")),
    ("vc-branch-space", ("vc", "branch", "a b")), ("vc-branch-colon", ("vc", "branch", "a:b")),
    ("vc-branch-tilde", ("vc", "branch", "a~1")), ("vc-branch-bidi", ("vc", "branch", "a\u202eb")),
    ("vc-branch-delete-missing", ("vc", "branch", "-d", "nope")),
    ("vc-merge-missing", ("vc", "merge", "no-such")), ("vc-merge-option", ("vc", "merge", "--", "-s")),
    ("vc-remote-bad-verb", ("vc", "remote", "explode", "x", "y")),
    ("vc-push-missing-remote", ("vc", "push", "nowhere", "main")),
    ("vc-pull-missing-remote", ("vc", "pull", "nowhere", "main")),
    ("vc-fetch-option", ("vc", "fetch", "--upload-pack=touch /tmp/brv-pwned")),
    ("vc-clone-option", ("vc", "clone", "--upload-pack=touch /tmp/brv-pwned")),
    ("vc-commit-empty-message", ("vc", "commit", "-m", "")),
    ("vc-commit-nul-message", ("vc", "commit", "-m", "a\x00b")),
    ("dehydrate-huge", ("dehydrate", "api", "--digest", "d" * 2_000_000)),
    ("dehydrate-dotdot", ("dehydrate", "../x", "--digest", "d")),
    ("about-dotdot", ("about", "../../etc/passwd")), ("about-nul", ("about", "a\x00b")),
    ("stale-since-bad", ("stale", "--since", "--output=/tmp/x")),
    ("import-missing", ("import", "/no/such/folder")), ("import-file", ("import", "/etc/hostname")),
    ("import-root-tree", ("import", ".brv/context-tree")),
    ("import-from-bad", ("import", "{f}", "--from", "evil")),
    ("validate-dotdot", ("validate", "../../etc")), ("manifest-bad-option", ("manifest", "--budget", "-1")),
]

# knowledge files on disk that someone wrote by hand (or a merge left): read by validate,
# show and search, never a crash
ON_DISK: dict[str, bytes] = {
    "markers": b"---\ntitle: a\n---\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n",
    "bad-yaml": b"---\ntitle: [unclosed\n---\nbody\n", "yaml-tag": b"---\ntitle: !!python/object:os.system x\n---\n",
    "laughs": b"---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
              b"c: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\ntitle: t\n---\n",
    "nul": b"---\ntitle: a\n---\nx\x00y\n", "latin1": b"---\ntitle: caf\xe9\n---\nx\n",
    "huge": b"---\ntitle: big\n---\n" + b"word " * 300_000,
    "deep-yaml": b"---\ntitle: t\nx: " + b"[" * 5000 + b"]" * 5000 + b"\n---\n",
    "dup-title": b"---\ntitle: a\ntitle: b\n---\nx\n", "list-title": b"---\ntitle: [a, b]\n---\nx\n",
    "bad-date": b'---\ntitle: a\ncreatedAt: "2024-13-45T00:00:00Z"\n---\nx\n',
    "bigint": b"---\ntitle: a\nx: " + b"9" * 5000 + b"\n---\nx\n",
    "no-end": b"---\ntitle: a\nbody without end\n", "bidi-title": "---\ntitle: \"a\u202eb\"\n---\nx\n".encode(),
    "esc-body": b"---\ntitle: esc\n---\n\x1b]52;c;cHduZWQ=\x07\x1b[2J\n",
    "empty": b"", "only-dashes": b"---\n---\n",
}
DISK_COMMANDS = (("validate",), ("show", "api/auth/hostile.md"), ("search", "word"),
                 ("tree",), ("brain",))

CONFIGS: dict[str, bytes] = {
    "garbage": b"{{{{", "list": b"- a\n- b\n", "aliases": b"a: &x [1]\nb: *x\n",
    "deep": b"a: " + b"[" * 5000 + b"]" * 5000, "bigint": b"search:\n  limit: " + b"9" * 5000 + b"\n",
    "wrong-types": b"search:\n  weights: nope\ndream:\n  budget_seconds: -1\n",
    "nul": b"a: \x00\n", "latin1": b"name: caf\xe9\n", "tag": b"a: !!python/name:os.system\n",
}


# a failed operation is named by its type and path ("ADD api/auth: ...")
_OP_NAMES = ("ADD ", "UPDATE ", "UPSERT ", "MERGE ", "DELETE ")


def cases() -> list[Case]:
    """Every CLI case of the corpus."""
    out = _path_cases()
    out += [Case(f"ops-{k}", ("curate", "--ops", "{f}/ops.json"), {"ops.json": v},
                 may_change=True, names=("{f}/ops.json", "operations", *_OP_NAMES))
            for k, v in OPS.items()]
    out += [Case(f"ops-stdin-{k}", ("curate", "--ops", "-"), stdin=v.decode("utf-8", "replace"),
                 may_change=True) for k, v in list(OPS.items())[:20]]
    out += [Case(f"decisions-{k}", ("dream", "apply", "{f}/d.json", "--force"), {"d.json": v},
                 may_change=True, names=("{f}/d.json", "decision", "operations"))
            for k, v in DECISIONS.items()]
    for key, source in SPECIAL.items():
        out += [Case(f"special-ops-{key}", ("curate", "--ops", source), names=(source,)),
                Case(f"special-file-{key}", ("curate", "add", "api/x", "--title", "T", "--file",
                                             source), names=(source,)),
                Case(f"special-decisions-{key}", ("dream", "apply", source), names=(source,))]
    out += [Case(k, argv, may_change=k.startswith(("vc-branch", "vc-commit", "dream-")))
            for k, argv in OPTIONS]
    out += [Case(f"disk-{k}-{c[0]}", c, tree_files={"api/auth/hostile.md": v})
            for k, v in ON_DISK.items() for c in DISK_COMMANDS]
    out += [Case(f"config-{k}", ("search", "rotation"), tree_files={"../config.yaml": v})
            for k, v in CONFIGS.items()]
    return out
