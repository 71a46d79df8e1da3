"""Real-browser tests of ``brv ui``: a demo-like project with git history and pending review
entries, the real ``brv ui`` process on loopback, and Debian's Chromium driven by Playwright.

Playwright for Python drives ``/usr/bin/chromium`` through ``executable_path`` (its own
browser download does not work on a closed network). Where Chromium or Playwright is
missing the tests skip with the reason, except under CI (``CI`` set), where they fail:
``.ci/run`` installs both.

Also the screenshot script of docs/img (``python bench/ui_screenshots.py docs/img``).
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("BRV_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# as root Chromium needs --no-sandbox; the rest keep it off a closed network (no update,
# sync or background connections that the machine refuses)
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EVIL = "<script>window.pwned=1</script> Injection"
PAYLOAD = ('<script>window.pwned=1</script> <img src=x onerror="window.pwned=2"> '
           "**bold** and `code`.")
EXTRA_OPS: list[dict[str, Any]] = [
    {"type": "ADD", "path": "authentication/jwt_implementation", "title": "Signing Keys",
     "content": "Keys rotate every 90 days; the previous key verifies for 24 hours.",
     "tags": ["auth", "keys"], "related": ["authentication/jwt_implementation/jwt_token_generation.md"],
     "reason": "from the key rotation runbook"},
    {"type": "ADD", "path": "security/injection", "title": EVIL, "content": PAYLOAD,
     "related": ["authentication/session_management/session_cookies.md"],
     "reason": "an entry whose text is markup"},
    {"type": "ADD", "path": "legacy/cookies", "title": "Legacy Cookie Store",
     "content": "Sessions were kept in a server-side cookie store until 2024.",
     "reason": "history"},
    {"type": "ADD", "path": "legacy/tokens", "title": "Opaque Tokens",
     "content": "Before JWT, tokens were opaque random strings looked up in Redis.",
     "reason": "history"},
]
# the two deletions waiting for review, (entry, the file review keeps a backup of)
PENDING = ("legacy/cookies/legacy_cookie_store.md", "legacy/tokens/opaque_tokens.md")


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    return None


# read once at start: every test runs with CI unset (conftest.isolated_machine), as a
# developer's machine, so that brv's advice for a clone is said
UNDER_CI = os.environ.get("CI", "").lower() not in ("", "0", "false")


def require() -> None:
    """Skips the calling test when the browser is missing, fails it under CI."""
    import pytest

    reason = missing()
    if reason is None:
        return
    if UNDER_CI:
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


def _brv(root: Path, *args: str, input: str | None = None) -> str:
    from conftest import run_brv

    done = run_brv(*args, cwd=root, input=input)
    assert done.exit_code == 0, f"brv {' '.join(args)}: {done.stderr}"
    return done.stdout


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@dataclass
class Demo:
    """The project, and the bytes of the entries whose deletions wait for review."""

    project: Any
    before: dict[str, bytes]


def build_project(root: Path) -> Demo:
    """The demo's knowledge plus signing keys, a markup entry and two legacy entries, in git
    (two commits, so the entry page has history), with review on and two deletions pending."""
    from brv_vc.cli.demo_cmd import DEMO_OPS
    from brv_vc.tree.project import Project

    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    _brv(root, "vc", "init", "--in-project", "--no-hooks")
    _brv(root, "curate", "--ops", "-", input=json.dumps(DEMO_OPS + EXTRA_OPS))
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "knowledge from the login work")
    _brv(root, "curate", "update", "authentication/jwt_implementation/signing_keys.md",
         "--content", "Keys rotate every 90 days; the previous key verifies for 48 hours.")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "keys verify for 48 hours")
    _brv(root, "review", "--enable")
    project = Project(root)
    before = {entry: project.path_of(entry).read_bytes() for entry in PENDING}
    for entry in PENDING:
        _brv(root, "curate", "delete", entry, "--reason", "superseded by JWT")
    return Demo(project, before)


@dataclass
class Served:
    """A running ``brv ui``: its first URL (with the token) and its process."""

    url: str
    base: str
    process: subprocess.Popen[str]


@contextmanager
def brv_ui(root: Path) -> Iterator[Served]:
    """Runs the real ``brv ui --no-open --port 0 --json`` in ``root`` until the block ends."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "brv_vc", "-C", str(root), "ui", "--no-open", "--port", "0",
         "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: lines.put(proc.stdout.readline() if proc.stdout else ""),
                     daemon=True).start()
    try:
        try:
            first = lines.get(timeout=60)
        except queue.Empty:
            first = ""
        if not first:
            proc.kill()
            raise AssertionError(f"brv ui did not start: {proc.communicate()[1]}")
        url = json.loads(first)["url"]
        yield Served(url, url.split("/?", 1)[0], proc)
    finally:
        # Ctrl-C, as a person stops it: uvicorn shuts down and re-raises the signal, which
        # Python turns into KeyboardInterrupt, so the process exits through its own handlers
        # (and a coverage run of the tests keeps the server's measurements)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (a ``Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def opened(browser: Any, served: Served, width: int = 1200, height: int = 900) -> Iterator[Any]:
    """A fresh page (own cookies) that has opened the token URL, so later links just work."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(served.url)
    try:
        yield page
    finally:
        context.close()


def _isolate(home: Path) -> None:
    """The tests' isolated machine for the script (no real HOME or git identity touched)."""
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Demo User\n\temail = demo@example.com\n"
        "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n")
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                      GIT_CONFIG_GLOBAL=str(home / ".gitconfig"), GIT_CONFIG_NOSYSTEM="1",
                      BRV_LOG_DIR=str(home / "logs"))


SHOTS = (  # file name, address (after the token URL), what to wait for
    ("tree.png", "/", "main"),
    ("entry.png", "/entry?path=authentication%2Fjwt_implementation%2Fjwt_token_generation.md",
     "main"),
    ("search.png", "/search?q=token+rotation", "main"),
    ("review.png", "/review", "main"),
    ("graph.png", "/graph?entry=authentication%2Fjwt_implementation%2Fjwt_token_generation.md",
     "main"),
)


def screenshots(out: Path) -> list[Path]:
    """Takes the main pages' screenshots into ``out`` (docs/img) on the demo-like project."""
    import tempfile

    written = []
    with tempfile.TemporaryDirectory(prefix="brv-ui-shots-") as work:
        _isolate(Path(work) / "home")
        project = build_project(Path(work) / "project").project
        out.mkdir(parents=True, exist_ok=True)
        with brv_ui(project.root) as served, chromium() as browser, \
                opened(browser, served, 1100, 820) as page:
            for name, address, ready in SHOTS:
                page.goto(served.base + address)
                page.wait_for_selector(ready)
                target = out / name
                page.screenshot(path=str(target), type="png")
                written.append(target)
    return written


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module (skips, or fails under CI, when it is missing)."""
    require()
    with chromium() as launched:
        yield launched


def graph_nodes(page: Any) -> set[str]:
    """The paths of the nodes the graph page shows (after its script has drawn them)."""
    page.wait_for_selector("#graph[data-ready='1']")
    return set(page.evaluate("() => brvGraph.nodes(':visible').map(n => n.id())"))


def node_point(page: Any, path: str) -> tuple[float, float]:
    """Where on the page the graph draws the node of ``path`` (its centre, in CSS pixels)."""
    page.wait_for_selector("#graph[data-ready='1']")
    page.wait_for_function("() => !brvGraph.animated()")
    at = page.evaluate("(id) => brvGraph.getElementById(id).renderedPosition()", path)
    box = page.locator("#graph").bounding_box()
    return box["x"] + at["x"], box["y"] + at["y"]


def click_node(page: Any, path: str) -> None:
    """Clicks the node of ``path`` in the graph, as a person does."""
    x, y = node_point(page, path)
    page.mouse.click(x, y)


@pytest.fixture
def tab(browser: Any, served: Served) -> Iterator[Any]:
    """A fresh page on the test module's own ``served`` brv ui."""
    with opened(browser, served) as page:
        yield page


@pytest.fixture
def demo(tmp_path: Path, browser: Any) -> Demo:
    """The demo project of this test alone (a review test changes it)."""
    return build_project(tmp_path / "project")


@pytest.fixture
def demo_served(demo: Demo) -> Iterator[Served]:
    """brv ui over :func:`demo`."""
    with brv_ui(demo.project.root) as running:
        yield running


def statuses(demo: Demo) -> dict[str, str]:
    """The review queue's entries of ``demo``: id -> status."""
    from conftest import run_brv

    done = run_brv("review", "pending", "--all", "--json", cwd=demo.project.root)
    assert done.exit_code == 0, done.stderr
    return {str(e["id"]): e["status"] for e in done.json()["entries"]}  # type: ignore[index]


def review_click(page: Any, served: Served, box: str, text: str, button: str) -> str:
    """On the review queue, clicks ``button`` in the one ``box`` holding ``text``; returns
    the text of the queue the POST's 303 leads back to."""
    page.goto(served.base + "/review")
    found = page.locator(box, has_text=text)
    assert found.count() == 1, page.locator("main").inner_text()
    with page.expect_navigation():  # the POST answers 303 back to the queue
        found.get_by_role("button", name=button).click()
    return str(page.locator("main").inner_text())
