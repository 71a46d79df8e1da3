"""Screenshots of brv ui's main pages (tree, entry, search, review, graph) into docs/img.

The same project, server and browser as the real-browser tests (tests/browser_support.py):
a demo-like tree with git history and two pending review entries, the real `brv ui`, and
Debian's Chromium driven by Playwright.

    python bench/ui_screenshots.py docs/img
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import browser_support  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=ROOT / "docs" / "img")
    args = parser.parse_args()
    reason = browser_support.missing()
    if reason:
        sys.exit(f"ui_screenshots: {reason}")
    for path in browser_support.screenshots(args.out):
        print(f"{path}  {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
