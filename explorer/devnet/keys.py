"""API keys in text meant for people: no part of one (light: no server, no py-evm)."""

from __future__ import annotations

from explorer.chain.secrets import scrub


def without_key(text: str, key: str) -> str:
    """Return text with the key taken out in any form (a log line, a path)."""
    return scrub(text, [key])
