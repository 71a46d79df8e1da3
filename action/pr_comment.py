"""Posts the knowledge diff as ONE pull-request comment, updated on every push (action.yml).

The comment carries a hidden marker; the first comment holding it is edited (PATCH), else one
is created (POST). When a later push changes no knowledge, an existing comment says so
instead of showing a stale diff; no comment is created for that. Standard library only (the
action's Python may have nothing else), and every failure is one ``::error::`` line, exit 1,
never a traceback.

Environment: GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name), BRV_PR (the number),
GITHUB_API_URL (default https://api.github.com), BRV_BODY_FILE (absent or empty: nothing
changed).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any

MARKER = "<!-- brv-knowledge-diff -->"
UNCHANGED = "No knowledge changes in this pull request any more (as of the latest push)."


class Failed(Exception):
    """One line for the log."""


def _call(method: str, url: str, token: str, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28", "Content-Type": "application/json",
        "User-Agent": "brv-knowledge-diff"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        detail = error.read().decode("utf-8", "replace")[:300]
        hint = (" (the workflow needs 'permissions: pull-requests: write')"
                if error.code in (401, 403, 404) else "")
        raise Failed(f"{method} {url}: HTTP {error.code} {detail}{hint}") from None
    except (urllib.error.URLError, OSError) as error:
        raise Failed(f"{method} {url}: {error}") from None
    try:
        return json.loads(text) if text.strip() else None
    except ValueError:
        raise Failed(f"{method} {url}: the answer is not JSON: {text[:200]!r}") from None


def _existing(api: str, repo: str, pr: str, token: str) -> int | None:
    page = 1
    while True:
        found = _call("GET", f"{api}/repos/{repo}/issues/{pr}/comments?per_page=100&page={page}",
                      token)
        if not isinstance(found, list):
            raise Failed("the comments answer is not a list")
        for comment in found:
            if isinstance(comment, dict) and MARKER in str(comment.get("body", "")):
                return int(comment["id"])
        if len(found) < 100:
            return None
        page += 1


def main() -> int:
    """Creates or updates the comment; prints what it did."""
    env = os.environ
    try:
        token, repo, pr = env["GITHUB_TOKEN"], env["GITHUB_REPOSITORY"], env["BRV_PR"]
    except KeyError as missing:
        print(f"::error::brv: {missing.args[0]} is not set (the comment needs the token, the "
              "repository and the pull request number)")
        return 1
    if not token or not pr:
        print("::error::brv: no token or pull request number: set the github-token input "
              "and run on pull_request events (or give the pr input)")
        return 1
    api = env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/")
    path = env.get("BRV_BODY_FILE", "")
    try:
        body = open(path, encoding="utf-8").read() if path else ""  # noqa: SIM115
    except OSError as error:
        print(f"::error::brv: cannot read the comment body {path}: {error}")
        return 1
    try:
        found = _existing(api, repo, pr, token)
        if not body:
            if found is not None:
                _call("PATCH", f"{api}/repos/{repo}/issues/comments/{found}", token,
                      {"body": f"{MARKER}\n{UNCHANGED}\n"})
                print(f"brv: updated comment {found}: no knowledge changes any more")
            return 0
        text = f"{MARKER}\n{body}"
        if found is None:
            made = _call("POST", f"{api}/repos/{repo}/issues/{pr}/comments", token,
                         {"body": text})
            print(f"brv: created comment {made.get('id') if isinstance(made, dict) else '?'}")
        else:
            _call("PATCH", f"{api}/repos/{repo}/issues/comments/{found}", token, {"body": text})
            print(f"brv: updated comment {found}")
    except Failed as failed:
        print(f"::error::brv: the pull-request comment failed: {failed}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
