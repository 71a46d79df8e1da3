"""``brv vc ...``: team sync of the context tree over any git remote, one module per command group.

``group`` gathers the commands; ``render`` turns the services' results into text. This face
imports nothing, so the click-free ``brv vc status`` (``cli/fast.py``) loads only ``render``.
"""
