"""Bytes <-> values: knowledge entries, frontmatter, sections, tokens, schema validation."""
