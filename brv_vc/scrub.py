"""Credentials out of everything brv prints or logs: the one scrubbing rule.

Text reaches brv's output from places brv does not write: git's messages (``fatal: unable
to access 'https://host/r.git?access_token=...'``), HTTP libraries, exceptions, remotes'
URLs, a teammate's settings. :func:`scrub` masks what is a credential in any of them, and
the output edges call it, never the call sites: the CLI's streams (``cli/inert.py``: every
result, warning and error, text and ``--json``), the MCP error shaping, the crash log and
the audit log.

Masked (the name stays, the value becomes ``***``):

- the password in a URL's user info: ``https://alice:***@host/...``;
- token-like values in query strings: ``?token=***``, ``&access_token=***``, ``key=***``,
  ``api_key``, ``private_token``, ``client_secret``, ``password``, ``sig`` ...;
- ``Authorization:`` / ``Proxy-Authorization:`` header values and ``Bearer``/``token``
  credentials after them, and ``X-Api-Key``-style headers;
- well-known token shapes wherever they stand (GitHub ``ghp_``/``github_pat_``, GitLab
  ``glpat-``, Slack ``xox?-``, OpenAI-style ``sk-``).

Placeholders are kept (``<token>``, ``$TOKEN``, ``${TOKEN}``, ``YOUR_KEY``, ``***``), so
knowledge that documents how to authenticate still reads as written.

No project imports; the patterns are compiled at first use (``re``'s own cache), and a rule
is tried only when the text holds its anchor (``://``, ``=``, ``authorization`` ...): text
without any costs a few substring tests (the cold search path prints through it).
"""

from __future__ import annotations

import re

MASK = "***"

# a value that is a placeholder, not a secret: <token>, $TOKEN, ${TOKEN}, %TOKEN%, YOUR_KEY, ***
_PLACEHOLDER = r"(?-i:[<$%{*]|[A-Z][A-Z0-9_]*(?![A-Za-z0-9._~+/=-]))"

_SCHEMES = r"(?!(?:bearer|basic|token|digest|negotiate)\s)"

# (what the lowered text must hold for the rule to be tried, pattern, replacement)
_RULES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # user:password@ in a URL (the password may hold anything but spaces, quotes and '@')
    (("://",), r"(?P<k>://[^\s/@:'\"<>]+:)(?!" + _PLACEHOLDER + r")[^\s@'\"<>]+(?=@)",
     r"\g<k>" + MASK),
    # token-like query parameters
    (("=",), r"(?i)(?P<k>[?&;](?:[a-z0-9_.-]*token|[a-z0-9_.-]*secret|(?:api[_-]?)?key|apikey|"
     r"password|passwd|pwd|pass|sig|signature|auth|credential|session)=)(?!"
     + _PLACEHOLDER + r")[^&\s'\"#<>]+", r"\g<k>" + MASK),
    # Authorization headers: the scheme is kept, the credential masked
    (("authorization",), r"(?i)(?P<k>\b(?:proxy-)?authorization\s*[:=]\s*[\"']?"
     r"(?:(?:bearer|basic|token|digest|negotiate)\s+)?)" + _SCHEMES + "(?!" + _PLACEHOLDER
     + r")[^\s\"',;]+", r"\g<k>" + MASK),
    (("-key", "-token"), r"(?i)(?P<k>\b(?:x-api-key|api-key|x-auth-token|private-token|"
     r"x-access-token)\s*[:=]\s*[\"']?)(?!" + _PLACEHOLDER + r")[^\s\"',;]+",
     r"\g<k>" + MASK),
    # a bearer credential anywhere
    (("bearer",), r"(?P<k>\b[Bb]earer\s+)(?!" + _PLACEHOLDER + r")[A-Za-z0-9._~+/-]{8,}=*",
     r"\g<k>" + MASK),
    # well-known token shapes
    (("gh", "github_pat_", "glpat-", "xox", "sk-"),
     r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|"
     r"xox[abposr]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,})", MASK),
)


def scrub(text: str) -> str:
    """``text`` with every credential it holds masked as ``***`` (the rules above).

    Args:
        text: anything about to be printed or logged.

    Returns:
        The same text when it holds no credential (the same object).
    """
    lowered = text.lower()
    for anchors, pattern, replacement in _RULES:
        if any(anchor in lowered for anchor in anchors):
            text = re.sub(pattern, replacement, text)
    return text


def mask_url(url: str) -> str:
    """A URL with its password and token parameters masked (what ``brv vc remote`` shows)."""
    return scrub(url)
