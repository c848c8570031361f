"""Answers with pre-encoded parts: a light module, so the service imports no EVM."""

from __future__ import annotations

from typing import Any

Json = Any


class EncodedLogs(list[Json]):
    """Log objects that also carry their JSON text, so an answer is joined, not re-encoded."""

    def __init__(self, logs: list[tuple[Json, str]]) -> None:
        super().__init__(made for made, _ in logs)
        self._texts = [text for _, text in logs]

    def json_text(self) -> str:
        """Return the array as compact JSON, exactly as json.dumps would write it."""
        return "[" + ",".join(self._texts) + "]"
