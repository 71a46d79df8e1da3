"""Use cases. Each takes explicit values (project, now, options), returns frozen dataclasses
and never prints: the CLI and the MCP server render the results."""
