"""YAML frontmatter: split it from the body, read it without surprises, write it canonically.

Reading keeps the *source text* of scalars for the known string fields, so YAML's implicit
typing (dates, numbers, booleans: ``tags: [yes, 1.10]``) never changes what a person wrote.
Writing is canonical: double-quoted strings and flow-style arrays, one key a line, in a fixed
order (seed 000), so the same entry always gives the same bytes.
"""

from __future__ import annotations

import json
import re
from functools import cache

from brv_vc.errors import FormatError
from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import yaml

FENCE = "---"
MAX_YAML_DEPTH = 64  # lists or mappings inside each other (real files use two or three)


@cache
def _loader() -> Any:
    """The YAML loader class, built at first use.

    PyYAML costs ~10 ms to import, and brv's canonical frontmatter (``format/entry.py``) is
    read without it (the git hooks and ``brv vc commit`` then never import it).
    """
    import yaml

    class Loader(yaml.SafeLoader):
        """SafeLoader that keeps timestamps as text and refuses aliases.

        A ``createdAt`` is a string, not a datetime. Aliases (``*name``) are refused: nine
        nested ones ("billion laughs") expand to 10^9 values and hung every reader; knowledge
        never needs them.
        """

        _depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, f"an alias (*{event.anchor}) is not allowed in frontmatter",
                    event.start_mark,
                )
            # composing recurses once a level: 50,000 nested '[' ended in a RecursionError
            # (exit 3); settings and frontmatter are a few levels deep, so stop early and say so
            if self._depth >= MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"the YAML nests more than {MAX_YAML_DEPTH} levels deep",
                    self.peek_event().start_mark,  # type: ignore[no-untyped-call]
                )
            self._depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1

        def construct_yaml_int(self, node: Any) -> Any:
            # int() of more than 4,300 digits raises ValueError (int_max_str_digits): exit 3
            try:
                return super().construct_yaml_int(node)
            except ValueError:
                raise yaml.constructor.ConstructorError(
                    None, None, f"an integer of {len(node.value):,} digits is too long to read",
                    node.start_mark) from None

    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers
                if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return Loader


def load_yaml(text: str) -> Any:
    """Parses a whole YAML document as frontmatter is parsed: no aliases, no timestamps.

    Raises:
        yaml.YAMLError: malformed YAML or an alias.
    """
    import yaml

    return yaml.load(text, Loader=_loader())


class RawField(NamedTuple):
    """One top-level frontmatter key: its YAML node kind and value.

    ``text`` holds the scalar's source text (or a tuple of item texts for a flat sequence of
    scalars); ``value`` holds the YAML-typed value used for keys brv does not know.
    """

    key: str
    value: Any
    text: str | tuple[str, ...] | None


def split(text: str, *, file: str | None = None) -> tuple[str | None, str]:
    """Splits ``---`` fenced frontmatter from the body.

    Returns:
        (frontmatter text or None when the file has none, body text).

    Raises:
        FormatError: the opening fence is never closed.
    """
    if not (text.startswith(FENCE + "\n") or text == FENCE or text.startswith(FENCE + "\r\n")):
        return None, text
    newline = text.index("\n") + 1 if "\n" in text else len(text)
    pos = newline
    while True:
        end = text.find("\n", pos)
        line = text[pos:] if end == -1 else text[pos:end]
        if line.rstrip("\r") == FENCE:
            body_start = len(text) if end == -1 else end + 1
            return text[newline:pos], text[body_start:]
        if end == -1:
            raise FormatError(
                "the frontmatter is never closed",
                file=file,
                hint="end the frontmatter with a line holding only '---'",
            )
        pos = end + 1


def load(source: str, *, file: str | None = None) -> list[RawField]:
    """Parses frontmatter YAML into top-level fields, in source order.

    Raises:
        FormatError: malformed YAML, or a frontmatter that is not a mapping of string keys.
    """
    if not source.strip():
        return []
    import yaml

    loader: Any = None
    try:
        # The constructor already reads the stream: a control character raises ReaderError
        # here (found by the property tests), so it belongs inside the try.
        loader = _loader()(source)
        node = loader.get_single_node()
        if node is None:
            return []
        if not isinstance(node, yaml.MappingNode):
            raise FormatError(
                "the frontmatter is not a mapping of keys to values",
                file=file,
                hint="write one 'key: value' a line between the '---' fences",
            )
        fields: list[RawField] = []
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise FormatError(
                    f"frontmatter key {key!r} is not a string", file=file, key=str(key)
                )
            if key in seen:
                raise FormatError(
                    f"frontmatter key '{key}' appears twice",
                    file=file,
                    key=key,
                    hint="keep one of them",
                )
            seen.add(key)
            value = loader.construct_object(value_node, deep=True)
            fields.append(RawField(key, value, _source_text(value_node)))
        return fields
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        alias = "an alias" in str(problem)
        raise FormatError(
            f"malformed YAML in the frontmatter{where}: {problem}",
            file=file,
            hint="write the value out in full instead of the *alias (and drop its &anchor)"
            if alias else
            "fix the YAML; quote values that contain ': ' or start with [ { * & ! | > ' \" % @",
        ) from None
    except RecursionError:
        raise FormatError(
            "the frontmatter nests too deeply", file=file, hint="flatten the nested values"
        ) from None
    finally:
        if loader is not None:
            loader.dispose()


def _source_text(node: yaml.Node) -> str | tuple[str, ...] | None:
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return "" if node.tag == "tag:yaml.org,2002:null" and node.value in ("", "~", "null") else str(node.value)
    if isinstance(node, yaml.SequenceNode) and all(
        isinstance(item, yaml.ScalarNode) for item in node.value
    ):
        return tuple(str(item.value) for item in node.value)
    return None


# Characters JSON leaves raw that YAML reads as line breaks or refuses as non-printable.
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def unsafe_for_yaml(text: str) -> bool:
    """True when ``text`` holds a character YAML reads differently from JSON.

    Such characters (line breaks such as NEL or U+2028, non-printables) send the line to the
    YAML parser.
    """
    return _YAML_UNSAFE.search(text) is not None


def quote(text: str) -> str:
    """Returns ``text`` as a YAML double-quoted scalar (JSON string syntax is valid YAML)."""
    escaped = json.dumps(text, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped)


# A key is written plain only when YAML would read it back as the same string; anything else
# (``a: b``, ``true``, ``123``, ``=``, ``- x``) is double-quoted. Found by the property tests.
_PLAIN_KEY = lazy(r"[A-Za-z_][A-Za-z0-9_-]*")
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})


def dump_key(key: str) -> str:
    """Returns a mapping key as YAML that reads back as exactly ``key``."""
    return key if _PLAIN_KEY.fullmatch(key) and key.lower() not in _YAML_WORDS else quote(key)


def dump_string(key: str, value: str) -> str:
    """Returns ``key: "value"`` as one canonical line."""
    return f"{dump_key(key)}: {quote(value)}\n"


def dump_list(key: str, values: tuple[str, ...] | list[str]) -> str:
    """Returns ``key: ["a", "b"]`` as one canonical flow-style line."""
    return f"{dump_key(key)}: [{', '.join(quote(v) for v in values)}]\n"


def dump_any(key: str, value: Any) -> str:
    """Returns a key of any YAML value (used for keys brv does not know), flow style."""
    if isinstance(value, str):
        return dump_string(key, value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return dump_list(key, value)
    return f"{dump_key(key)}: {_flow(value)}\n"


def _flow(value: Any) -> str:
    """One value in YAML flow style, strings always through :func:`quote`.

    PyYAML writes characters such as U+0085 raw, and YAML then reads them as line breaks.
    """
    if isinstance(value, str):
        return quote(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (
            f"{dump_key(k) if isinstance(k, str) else _flow(k)}: {_flow(v)}"
            for k, v in value.items()
        )
        return "{" + ", ".join(items) + "}"
    # floats (YAML needs "1.0e-05", not "1e-05") and rare tags (!!binary, !!set): PyYAML's own
    # representer, inside a one-item flow list so a scalar gets no "..." end marker.
    import yaml

    text = yaml.safe_dump([value], default_flow_style=True, allow_unicode=False, width=2**31 - 1)
    return text.strip()[1:-1].strip()
