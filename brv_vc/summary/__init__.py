"""Derived knowledge: ``_index.md`` summaries, abstracts and overviews, the manifest, the archive.

Everything here is derived from the tree (and rebuilt from it), is never synced and never
indexed as knowledge, except archive stubs, which stay searchable on purpose (seed 000).
"""
