"""API keys in text meant for people: a redacted form (light: no server, no py-evm)."""

from __future__ import annotations


def redact_key(key: str) -> str:
    """Return a form of an API key that is safe to log."""
    return key[:4] + "…" if len(key) > 8 else "…"
