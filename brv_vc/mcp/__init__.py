"""The MCP face: ``brv mcp``, an MCP server over stdio on the same services as the CLI."""
