"""Indexed texts are compressed with a window sized to the text: same size, cheaper, any zlib reads them."""

from __future__ import annotations

import zlib

from brv_vc.index import texts


def _window(blob: bytes) -> int:
    return 1 << ((blob[0] >> 4) + 8)  # CINFO of the zlib header: log2(window) - 8


def _entry(n: int) -> str:
    words = "cache invalidation retries backoff jitter token budget latency queue".split()
    return " ".join(f"{words[i % len(words)]}{i % 97}" for i in range(n))


def test_a_typical_entry_gets_a_small_window_and_the_same_size() -> None:
    content = _entry(250)  # ~1.6 KB, a typical entry
    raw = f"{content}\0kw".encode()
    blob = texts.pack(content, "kw")
    assert _window(blob) < 32768
    assert _window(blob) >= len(raw)
    assert len(blob) == len(zlib.compress(raw, 9))  # no match lost
    assert texts._unpack(blob) == (content, "kw")


def test_a_large_text_keeps_the_full_window() -> None:
    content = _entry(9000)
    blob = texts.pack(content, "")
    assert _window(blob) == 32768
    assert texts._unpack(blob) == (content, "")


def test_blobs_written_with_the_default_window_still_read() -> None:
    old = zlib.compress(f"{_entry(40)}\0k".encode(), 9)
    assert texts._unpack(old) == (_entry(40), "k")
