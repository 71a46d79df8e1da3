"""The optional OpenAI-compatible LLM provider (stdlib HTTP only)."""
