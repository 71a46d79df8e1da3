"""The semantic lane's offline model (the [semantic] extra, wordllama) end to end, with the
network closed: it loads from its own wheel, finds a page asked in other words, and
``brv index --embed`` embeds the whole tree once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import brv_process

from brv_vc.tree.project import Project

pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

# every socket but a local one refuses to connect, in the brv process too (sitecustomize)
NO_NETWORK = '''
import socket
_connect = socket.socket.connect
def _refuse(self, address):
    if self.family != socket.AF_UNIX:
        raise OSError("network closed by the test")
    return _connect(self, address)
socket.socket.connect = _refuse
'''


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    folder = tmp_path / "offline"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(NO_NETWORK)
    import os

    env = {"PYTHONPATH": os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]),
           "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
           "https_proxy": "http://127.0.0.1:9", "HF_HOME": str(tmp_path / "no-hf"),
           "BRV_EMBED_MODEL": "wordllama"}
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    return env


def test_the_offline_model_finds_a_page_asked_in_other_words(
        project: Project, brv, offline: dict[str, str], tmp_path: Path) -> None:
    pages = [("nohup", "Allow a process to live when the terminal gets killed: "
                       "nohup command argument1 argument2"),
             ("rsync", "Transfer files either to or from a remote host, synchronizing "
                       "folders: rsync -a path/to/source remote_host:path/to/destination"),
             ("grep", "Find patterns in files using regular expressions: grep pattern file"),
             ("df", "Display an overview of the filesystem disk space usage: df -h")]
    for title, content in pages:
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    embedded = brv_process("index", "--embed", "--json", cwd=project.root, env=offline)
    assert embedded.exit_code == 0, embedded.stderr
    assert json.loads(embedded.stdout)["embedded"] == {
        "model": "wordllama", "local": True, "embedded": 4, "entries": 4}
    lexical = brv_process("search", "keep a program running after I log out", "--json",
                          "--no-record", cwd=project.root,
                          env={**offline, "BRV_EMBED_MODEL": ""})
    assert [r["path"] for r in json.loads(lexical.stdout)["results"]][:1] != [
        "commands/shell/nohup.md"]
    done = brv_process("search", "keep a program running after I log out", "--json",
                       "--no-record", cwd=project.root, env=offline)
    assert done.exit_code == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["lanes"] == ["lexical", "semantic"]
    assert found["results"][0]["path"] == "commands/shell/nohup.md"
    assert not list((tmp_path / "no-hf").glob("**/*"))  # nothing cached from a hub
    again = brv_process("index", "--embed", "--json", cwd=project.root, env=offline)
    assert json.loads(again.stdout)["embedded"]["embedded"] == 0  # kept: nothing to redo
