r"""Text an operation may not carry: lone surrogates, NUL bytes, more than an entry may hold.

Trigger: every batch, after the schema check. Why: a lone surrogate (``"\ud800"`` in JSON)
cannot be written as UTF-8 and crashed the write (exit 3); a NUL byte was written and brv
then skipped its own file as binary; an oversized entry is never read back. Outcome: the
batch is refused before anything is applied, naming ``operations[i].key`` and the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brv_vc.errors import FormatError
from brv_vc.format.limits import MAX_ENTRY_BYTES


def _strings(value: Any, key: str) -> list[tuple[str, str]]:
    """Every string inside ``value`` with its key path (iterative: no recursion limit)."""
    found: list[tuple[str, str]] = []
    stack = [(key, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            found.append((where, item))
        elif isinstance(item, dict):
            stack.extend((f"{where}.{k}", v) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(item))
    return found


def refuse_bad_text(ops: Sequence[Any], *, file: str = "<ops>") -> None:
    """Raises FormatError for the first operation carrying text brv cannot store.

    Raises:
        FormatError: a lone surrogate, a NUL character, or more text than an entry may hold.
    """
    for index, op in enumerate(ops):
        size = 0
        for where, text in sorted(_strings(op, f"operations[{index}]")):
            size += len(text)
            try:
                size += len(text.encode("utf-8")) - len(text)
            except UnicodeEncodeError as exc:
                raise FormatError(
                    f"invalid operation at {where}: it holds a lone surrogate "
                    f"(\\u{ord(text[exc.start]):04x}), which is not a Unicode character and "
                    "cannot be stored; nothing was applied",
                    file=file,
                    key=where,
                    hint="send the character itself, or a complete surrogate pair such as "
                    "\\ud83d\\ude00",
                ) from None
            if "\x00" in text:
                raise FormatError(
                    f"invalid operation at {where}: it holds a NUL character (\\u0000); "
                    "knowledge files are text, and brv reads a file with NUL as binary; "
                    "nothing was applied",
                    file=file,
                    key=where,
                    hint="remove the NUL characters from the text",
                )
        if size > MAX_ENTRY_BYTES:
            raise FormatError(
                f"invalid operation at operations[{index}]: its text is {size:,} bytes, above "
                f"the limit of {MAX_ENTRY_BYTES:,} bytes for a knowledge file; nothing was "
                "applied",
                file=file,
                key=f"operations[{index}]",
                hint="split the knowledge into several smaller entries",
            )
