"""Use cases; the CLI and the MCP server render their results.

Each takes explicit values (project, now, options), returns frozen dataclasses and never
prints.
"""
