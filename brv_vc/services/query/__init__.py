"""Query: ``brv search`` (ranked hits) and ``brv query`` (the five tiers of seed 002).

Tiers 3 and 4 call the optional LLM provider.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.query.answer import OUT_OF_SCOPE, QueryResult, query_tree
    from brv_vc.services.query.bounds import MAX_ITERATIONS, MAX_LIMIT
    from brv_vc.services.query.search import SearchResult, search_tree
    from brv_vc.services.query.session import SearchSession

__all__ = ["MAX_ITERATIONS", "MAX_LIMIT", "OUT_OF_SCOPE", "QueryResult", "SearchResult",
           "SearchSession", "query_tree", "search_tree"]
__getattr__ = lazy(__name__, {
    "MAX_ITERATIONS": "bounds", "MAX_LIMIT": "bounds", "OUT_OF_SCOPE": "answer", "QueryResult": "answer", "query_tree": "answer",
    "SearchResult": "search", "search_tree": "search", "SearchSession": "session",
})
