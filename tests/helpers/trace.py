"""The seeded history's transactions with internal calls, for the trace tests."""

from __future__ import annotations

from typing import Any

#: The inside stories (devnet/history_inside.py), each alone in its block.
INSIDE_STORIES = (
    "deep_call",
    "proxy_call",
    "create2_call",
    "caught_revert",
    "bridge_read",
    "bridge_write",
    "wide_call",
)


def seeded_calls(manifest: dict[str, Any]) -> dict[str, str]:
    """Return every seeded transaction with internal calls the trace tests replay, by name."""
    inside = manifest["inside"]
    names = (*INSIDE_STORIES, "payroll_call", "split_call")
    return {name: str(inside[name]) for name in names}
