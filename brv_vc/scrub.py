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

No project imports; the patterns are compiled at first use. Each rule is tried only when the
text holds its anchor (``://``, ``=``, ``authorization`` ...), and runs on the text lowered
(ASCII only, so every index stays the same) with a pattern that starts with a literal or a
small set, so ``re`` scans with its fast prefix search; the values it finds are then masked
in the original text. The cold search path prints through it.
"""

from __future__ import annotations

import re

MASK = "***"

# a value that is a placeholder, not a secret: <token>, $TOKEN, ${TOKEN}, %TOKEN%, YOUR_KEY, ***
_PLACEHOLDER = r"[<$%{*]|[A-Z][A-Z_]*(?![A-Za-z0-9._~+/=-])"
# an Authorization value's scheme is kept, never taken for the credential
_SCHEMES = r"(?!(?:bearer|basic|token|digest|negotiate)\s)"
_VALUE = r"(?P<v>[^\s\"',;]+)"

# (what the lowered text must hold for the rule to be tried, pattern over the lowered text
# whose group v is the value to mask)
_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    # user:password@ in a URL (the password may hold anything but spaces, quotes and '@')
    (("://",), r"://[^\s/@:'\"<>]+:(?P<v>[^\s@'\"<>]+)@"),
    # token-like query parameters
    (("=",), r"[?&;](?:[a-z0-9_.-]*token|[a-z0-9_.-]*secret|(?:api[_-]?)?key|apikey|password|"
     r"passwd|pwd|pass|sig|signature|auth|credential|session)=(?P<v>[^&\s'\"#<>]+)"),
    # Authorization headers (Proxy-Authorization too): the scheme is kept
    (("authorization",), r"authorization\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|digest|"
     r"negotiate)\s+)?" + _SCHEMES + _VALUE),
    (("-key", "-token"), r"(?:api|auth|access|private)-(?:key|token)\s*[:=]\s*[\"']?" + _VALUE),
    # a bearer credential anywhere
    (("bearer",), r"bearer\s+(?P<v>[a-z0-9._~+/-]{8,}=*)"),
    # well-known token shapes
    (("gh", "github_pat_", "glpat-", "xox", "sk-"),
     r"(?<![a-z0-9_])(?P<v>gh[pousr]_[a-z0-9]{20,}|github_pat_[a-z0-9_]{20,}|"
     r"glpat-[a-z0-9_-]{20,}|xox[abposr]-[a-z0-9-]{10,}|sk-[a-z0-9_-]{20,})"),
)
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}
_compiled: dict[int, re.Pattern[str]] = {}


def _pattern(index: int) -> re.Pattern[str]:
    """Rule ``index`` compiled at its first use (-1: the placeholder test)."""
    found = _compiled.get(index)
    if found is None:
        found = _compiled[index] = re.compile(_PLACEHOLDER if index < 0 else _RULES[index][1])
    return found


def scrub(text: str) -> str:
    """``text`` with every credential it holds masked as ``***`` (the rules above).

    Args:
        text: anything about to be printed or logged.

    Returns:
        The same text when it holds no credential (the same object).
    """
    # ASCII lowering keeps every index (str.lower may not: 'İ' becomes two characters)
    lowered = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
    spans: list[tuple[int, int]] = []
    for index, (anchors, _) in enumerate(_RULES):
        if not any(anchor in lowered for anchor in anchors):
            continue
        for found in _pattern(index).finditer(lowered):
            start, end = found.span("v")
            if _pattern(-1).match(text, start) is None:
                spans.append((start, end))
    if not spans:
        return text
    out, at = [], 0
    for start, end in sorted(spans):
        if start >= at:
            out.append(text[at:start] + MASK)
            at = end
        elif end > at:  # two rules found overlapping values: mask their union
            at = end
    out.append(text[at:])
    return "".join(out)


def mask_url(url: str) -> str:
    """A URL with its password and token parameters masked (what ``brv vc remote`` shows)."""
    return scrub(url)


def scrub_values(value: object) -> object:
    """``value`` (JSON-like: dicts, lists, strings, numbers) with every string scrubbed.

    For structures written as JSON (an MCP tool's answer, a log): masking the JSON text
    instead could cut an escaped quote in two and break the JSON.

    Returns:
        The same object when nothing in it holds a credential.
    """
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        items = {key: scrub_values(item) for key, item in value.items()}
        same = all(items[key] is item for key, item in value.items())
        return value if same else items
    if isinstance(value, (list, tuple)):
        found = [scrub_values(item) for item in value]
        return value if all(a is b for a, b in zip(found, value, strict=True)) else found
    return value
