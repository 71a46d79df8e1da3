"""The two embedders: the offline model of the ``[semantic]`` extra, and an endpoint.

Both return unit-length float32 rows (cosine is a dot product). The offline model is
wordllama's static one (``l2_supercat``, 256 dimensions): a text's vector is the mean of its
tokens' rows in one embedding table. Its wheel ships the table (safetensors) and the
tokenizer, so nothing is fetched at run time (tests prove it with the network closed).

Both files are read here, from wordllama's folder, without importing the ``wordllama``
package: its import pulls pydantic and requests (0.45 s of CPU on every cold search with the
lane, the largest part of the lane's cold cost), and its loader converts the whole 32,000-row
table to float32. Here the table is mapped (``numpy.memmap``) and only the rows of a text's
tokens are read, so a search embeds its query for the price of the tokenizer's load.
``tests/test_semantic_offline_model_is_wordllamas.py`` holds the vectors equal to the
package's own ``embed``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from brv_vc.errors import ProviderError
from brv_vc.tree.embed_config import EmbedSettings

MAX_CHARS = 1500  # of an entry's text embedded: a static model averages, a long tail dilutes
BATCH = 64  # texts per endpoint request
# wordllama 0.4's default model, as its wheel ships it (setup.cfg pins wordllama <0.5)
TABLE = Path("weights", "l2_supercat_256.safetensors")
TABLE_KEY = "embedding.weight"
TOKENIZER = Path("tokenizers", "l2_supercat_tokenizer_config.json")
_DTYPES = {"F16": "<f2", "F32": "<f4"}


def text_of(title: str, content: str) -> str:
    """What is embedded for an entry: its title, then the start of its content."""
    return f"{title}\n{content}"[:MAX_CHARS]


class _Static(NamedTuple):
    table: Any  # numpy memmap (vocabulary, dimensions)
    tokenizer: Any  # tokenizers.Tokenizer


def _missing(what: str) -> ProviderError:
    return ProviderError(
        f"embeddings.model is wordllama but {what}",
        hint="pip install 'brv-vc[semantic]' (wordllama 0.4), or remove embeddings: from "
             "the settings", key="embeddings.model")


def _table(path: Path) -> Any:
    """The embedding table of a safetensors file, mapped, not read.

    The format: 8 bytes of little-endian length, then JSON naming each tensor's dtype, shape
    and byte range after the header.
    """
    import json

    import numpy as np

    with path.open("rb") as f:
        size = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(size))
    tensor = header[TABLE_KEY]
    start, _end = tensor["data_offsets"]
    return np.memmap(path, dtype=_DTYPES[tensor["dtype"]], mode="r", offset=8 + size + start,
                     shape=tuple(tensor["shape"]))


@lru_cache(maxsize=1)
def _wordllama() -> _Static:
    from importlib.util import find_spec

    spec = find_spec("wordllama")  # finds the folder; runs none of the package
    folders = list(spec.submodule_search_locations or []) if spec else []
    if not folders:
        raise _missing("the package is not installed")
    folder = Path(folders[0])
    if not (folder / TABLE).is_file() or not (folder / TOKENIZER).is_file():
        raise _missing(f"its wheel has no {TABLE} or {TOKENIZER} (another version?)")
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise _missing("tokenizers (a dependency of wordllama) is not installed") from None
    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return _Static(_table(folder / TABLE), tokenizer)


def _static_embed(texts: list[str]) -> Any:
    """Each text's mean token row (float32; a text without tokens: zeros)."""
    import numpy as np

    model = _wordllama()
    vocabulary, dims = model.table.shape
    rows = np.zeros((len(texts), dims), dtype=np.float32)
    for i, encoded in enumerate(model.tokenizer.encode_batch(texts, add_special_tokens=False)):
        if encoded.ids:
            ids = np.clip(np.asarray(encoded.ids, dtype=np.int64), 0, vocabulary - 1)
            rows[i] = model.table[ids].astype(np.float32).sum(axis=0, dtype=np.float32) / len(ids)
    return rows


def embed(settings: EmbedSettings, texts: list[str]) -> Any:
    """Unit-length float32 vectors of ``texts`` (a numpy array, one row per text).

    Raises:
        ProviderError: the model is missing, or the endpoint failed (the key never quoted).
    """
    import numpy as np

    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    if settings.local:
        rows = _static_embed(texts)
    else:
        from brv_vc.llm.embeddings import embed as remote

        parts = [remote(settings.endpoint(), texts[i:i + BATCH])
                 for i in range(0, len(texts), BATCH)]
        rows = np.asarray([v for part in parts for v in part], dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms > 0, norms, 1.0)
