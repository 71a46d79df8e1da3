"""The two embedders: the offline model of the ``[semantic]`` extra, and an endpoint.

Both return unit-length float32 rows (cosine is a dot product). The offline model is
wordllama's, loaded from its own package folder with downloads disabled: its wheel ships the
weights and the tokenizer, so nothing is fetched at run time (tests prove it with the
network closed).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from brv_vc.errors import ProviderError
from brv_vc.tree.embed_config import EmbedSettings

MAX_CHARS = 1500  # of an entry's text embedded: a static model averages, a long tail dilutes
BATCH = 64  # texts per endpoint request


def text_of(title: str, content: str) -> str:
    """What is embedded for an entry: its title, then the start of its content."""
    return f"{title}\n{content}"[:MAX_CHARS]


@lru_cache(maxsize=1)
def _wordllama() -> Any:
    try:
        import wordllama  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise ProviderError(
            "embeddings.model is wordllama but the package is not installed",
            hint="pip install 'brv-vc[semantic]', or remove embeddings: from the settings",
            key="embeddings.model") from None
    from pathlib import Path

    folder = Path(wordllama.__file__).parent  # weights/ and tokenizers/ ship in the wheel
    return wordllama.WordLlama.load(cache_dir=folder, disable_download=True)


def embed(settings: EmbedSettings, texts: list[str]) -> Any:
    """Unit-length float32 vectors of ``texts`` (a numpy array, one row per text).

    Raises:
        ProviderError: the model is missing, or the endpoint failed (the key never quoted).
    """
    import numpy as np

    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    if settings.local:
        rows = np.asarray(_wordllama().embed(texts, norm=False), dtype=np.float32)
    else:
        from brv_vc.llm.embeddings import embed as remote

        parts = [remote(settings.endpoint(), texts[i:i + BATCH])
                 for i in range(0, len(texts), BATCH)]
        rows = np.asarray([v for part in parts for v in part], dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)
