"""The bounds of the query options, free of imports: the cold search path reads them.

One home for the services, the click commands, the fast path (``cli/fast.py``) and the help.
"""

MAX_LIMIT = 50  # brv search --limit: results, 1 to this
MAX_ITERATIONS = 50  # brv query --max-iterations: tier 4's LLM calls, 1 to this
