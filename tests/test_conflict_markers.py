"""A knowledge file left with merge conflict markers is reported as such by everything that
parses entries (show, curate, index), not as malformed YAML or as valid knowledge."""

from __future__ import annotations

import pytest
from conftest import snapshot

from brv_vc.errors import FormatError
from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project

CLEAN = (
    '---\ntitle: "Token rotation"\nsummary: ""\ntags: []\nkeywords: []\nrelated: []\n'
    'createdAt: ""\nupdatedAt: ""\n---\n## Narrative\nRefresh tokens rotate.\n'
)
IN_FRONTMATTER = CLEAN.replace(
    'summary: ""\n', '<<<<<<< HEAD\nsummary: "ours"\n=======\nsummary: "theirs"\n>>>>>>> main\n'
)
IN_BODY = CLEAN.replace(
    "Refresh tokens rotate.\n",
    "<<<<<<< HEAD\nRefresh tokens rotate daily.\n=======\nThey rotate hourly.\n>>>>>>> main\n",
)
MESSAGE = "unresolved merge conflict markers (<<<<<<<) in auth/jwt/token_rotation.md"
HINT = "then 'brv vc add auth/jwt/token_rotation.md'"


@pytest.mark.parametrize(("text", "line"), [(IN_FRONTMATTER, 3), (IN_BODY, 11)])
def test_parse_entry_names_the_conflict(text: str, line: int) -> None:
    with pytest.raises(FormatError) as caught:
        parse_entry(text.encode(), file="auth/jwt/token_rotation.md", stem="token_rotation")
    assert caught.value.message == f"{MESSAGE}, line {line}"
    assert caught.value.hint is not None
    assert HINT in caught.value.hint


def test_a_lone_marker_in_a_code_sample_is_knowledge() -> None:
    text = CLEAN.replace("Refresh tokens rotate.\n", "```\n<<<<<<< HEAD\n```\nmeans a conflict\n")
    assert "<<<<<<< HEAD" in parse_entry(text, file="x.md").body


@pytest.fixture
def conflicted(project: Project, brv) -> Project:
    assert brv("curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "x",
               cwd=project.root).exit_code == 0
    (project.tree / "auth/jwt/token_rotation.md").write_text(IN_FRONTMATTER)
    return project


@pytest.mark.parametrize("args", [
    ("show", "auth/jwt/token_rotation.md"),
    ("curate", "update", "auth/jwt/token_rotation.md", "--content", "new text"),
])
def test_commands_report_conflict_markers(conflicted: Project, brv, args: tuple[str, ...]) -> None:
    before = snapshot(conflicted.root)
    result = brv(*args, cwd=conflicted.root)
    assert result.exit_code == 1, result.stdout
    assert f"{MESSAGE}, line 3" in result.stderr
    assert HINT in result.stderr
    assert "malformed YAML" not in result.stderr
    assert snapshot(conflicted.root) == before


def test_index_lists_the_conflicted_file(conflicted: Project, brv) -> None:
    result = brv("index", "--json", cwd=conflicted.root)
    assert result.exit_code == 0
    assert {"path": "auth/jwt/token_rotation.md", "message": f"{MESSAGE}, line 3"} in result.json()[
        "problems"
    ]


HOWTO = """How to read a conflict:

```
<<<<<<< HEAD
ours
=======
theirs
>>>>>>> feature
```
"""


def test_curate_refuses_content_that_would_read_as_a_conflict(
    project: Project, brv, tmp_path
) -> None:
    howto = tmp_path / "howto.md"
    howto.write_text(HOWTO)
    before = snapshot(project.root)
    result = brv("curate", "add", "git/howto", "--title", "Conflicts", "--file", str(howto),
                 cwd=project.root)
    assert result.exit_code == 1
    assert "would open a merge-conflict block" in result.stderr
    assert "hint: indent those marker lines by one space" in result.stderr
    assert snapshot(project.root) == before
    # indented by one space, the example is knowledge like any other, and reads back
    howto.write_text(HOWTO.replace("\n<", "\n <").replace("\n=", "\n =").replace("\n>", "\n >"))
    assert brv("curate", "add", "git/howto", "--title", "Conflicts", "--file", str(howto),
               cwd=project.root).exit_code == 0
    assert brv("show", "git/howto/conflicts.md", cwd=project.root).exit_code == 0


def test_a_crlf_conflict_block_is_found() -> None:
    text = "---\r\ntitle: x\r\n---\r\n<<<<<<< HEAD\r\na\r\n=======\r\nb\r\n>>>>>>>\r\n"
    with pytest.raises(FormatError, match="line 4"):
        parse_entry(text.encode(), file="a/b/x.md")
