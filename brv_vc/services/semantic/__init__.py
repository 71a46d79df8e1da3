"""The semantic lane (issue 40): opt-in embeddings fused with the lexical ranking.

Off unless an ``embeddings:`` section or ``BRV_EMBED_*`` names a model
(:mod:`brv_vc.tree.embed_config`); a search then ranks the tree's entries by cosine
similarity too and fuses both rankings (:mod:`.fusion`), never importing numpy or a model on a
search without the lane. Vectors live in ``.brv/state/vectors.db`` (:mod:`brv_vc.index.vectors`).
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.semantic.embedding import EmbedReport, embed_tree
    from brv_vc.services.semantic.fusion import fuse
    from brv_vc.services.semantic.lane import POOL, Hybrid, hybrid, lane_settings

__all__ = ["POOL", "EmbedReport", "Hybrid", "embed_tree", "fuse", "hybrid", "lane_settings"]
__getattr__ = lazy(__name__, {
    "EmbedReport": "embedding", "embed_tree": "embedding", "fuse": "fusion",
    "POOL": "lane", "Hybrid": "lane", "hybrid": "lane", "lane_settings": "lane",
})
