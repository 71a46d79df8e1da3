"""A resident process (brv mcp, brv ui) keeps the semantic lane's answer between searches
while neither the tree nor the vectors change; an edit in between is seen at once."""

from __future__ import annotations

import pytest

from brv_vc.clock import utcnow
from brv_vc.tree.project import Project

pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

QUESTION = "keep a program running after I log out"


def test_a_resident_session_sees_an_edit_between_two_searches(
        project: Project, brv, monkeypatch: pytest.MonkeyPatch) -> None:
    from brv_vc.services.query import SearchSession

    for title, content in (("nohup", "Allow a process to live when the terminal gets killed"),
                           ("df", "Display an overview of the filesystem disk space usage")):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    monkeypatch.setenv("BRV_EMBED_MODEL", "wordllama")
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    session = SearchSession(project)
    try:
        first = session.search(QUESTION, now=utcnow(), record=False)
        again = session.search(QUESTION, now=utcnow(), record=False)
        assert first.lanes == again.lanes == ("lexical", "semantic")
        assert [r.path for r in again.results] == [r.path for r in first.results]
        assert first.results[0].path == "commands/shell/nohup.md"
        assert brv("curate", "add", "commands/shell", "--title", "tmux", "--content",
                   "A terminal multiplexer: its sessions survive a dropped "
                   "connection", cwd=project.root).exit_code == 0
        after = session.search(QUESTION, now=utcnow(), record=False)
        # no word of the question is in it: only the lane, which must have seen the edit
        assert "commands/shell/tmux.md" in [r.path for r in after.results]
    finally:
        session.close()
