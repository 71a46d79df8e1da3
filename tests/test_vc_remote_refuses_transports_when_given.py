"""``brv vc remote add``/``set-url`` and ``brv vc clone`` refuse git's fd:: and ext:: URLs when
they are given, by the rule push and fetch run with (``vc/git.refused_transport``).

Before, ``brv vc remote add pipe fd::3`` was stored (exit 0) and the push hung or was refused
only later; ``brv vc clone 'ext::sh -c ...'`` reached git.
"""

from __future__ import annotations

import subprocess

import pytest

from brv_vc.tree.project import Project


def _remotes(project: Project) -> str:
    return subprocess.run(["git", "-C", str(project.tree), "config", "--get-regexp",
                           r"^remote\."], capture_output=True, text=True, check=False).stdout


@pytest.fixture
def repo(seeded: Project, brv) -> Project:
    assert brv("vc", "init", cwd=seeded.root).exit_code == 0
    assert brv("vc", "remote", "add", "origin", "https://example.com/kb.git",
               cwd=seeded.root).exit_code == 0
    return seeded


@pytest.mark.parametrize(("url", "transport", "risk"), [
    ("fd::3", "fd", "it reads and writes the brv process's own file descriptors"),
    ("fd::0,1/kb", "fd", "it reads and writes the brv process's own file descriptors"),
    ("ext::sh -c touch% /tmp/brv-pwned", "ext", "it runs a command the URL names"),
])
@pytest.mark.parametrize("action", ["add", "set-url"])
def test_remote_add_and_set_url_refuse_the_url(repo: Project, brv, action: str, url: str,
                                               transport: str, risk: str) -> None:
    before = _remotes(repo)
    name = "other" if action == "add" else "origin"
    result = brv("vc", "remote", action, name, url, cwd=repo.root)
    assert result.exit_code == 1, result.stderr
    assert (f"brv: error: brv vc remote {action} {name} refused: the URL uses git's "
            f"'{transport}::' transport, which brv never runs ({risk}") in result.stderr
    assert "hint: give a URL (ssh, https, a path); for this transport, use plain git" \
        in result.stderr
    assert _remotes(repo) == before  # nothing stored


def test_a_remote_name_that_reads_as_an_option_is_refused(repo: Project, brv) -> None:
    before = _remotes(repo)
    result = brv("vc", "remote", "add", "--", "-f", "https://example.com/kb.git",
                 cwd=repo.root)
    assert result.exit_code == 1, result.stderr
    assert "remote name '-f' starts with '-'" in result.stderr
    assert _remotes(repo) == before


def test_ordinary_urls_are_still_stored(repo: Project, brv) -> None:
    for name, url in (("a", "git@github.com:team/kb.git"), ("b", "/srv/git/kb.git"),
                      ("c", "file:///srv/kb::x")):
        assert brv("vc", "remote", "add", name, url, cwd=repo.root).exit_code == 0
    assert "remote.c.url file:///srv/kb::x" in _remotes(repo)


def test_clone_refuses_the_url_and_leaves_nothing(project: Project, brv, tmp_path) -> None:
    target = tmp_path / "cloned"
    target.mkdir()
    mark = tmp_path / "ran"
    result = brv("vc", "clone", f"ext::sh -c touch% {mark}", cwd=target)
    assert result.exit_code == 1, result.stderr
    assert "brv vc clone refused: the URL uses git's 'ext::' transport" in result.stderr
    assert not mark.exists()
    assert list(target.iterdir()) == []
