"""The derived search index (SQLite FTS5 in ``.brv/state/index.db``), relations and query cache."""
