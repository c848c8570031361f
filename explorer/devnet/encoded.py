"""Answers with pre-encoded parts: a light module, so the service imports no EVM."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Json = Any


class EncodedLogs(list[Json]):
    """Log objects that also carry their JSON text, so an answer is joined, not re-encoded.

    The text comes in pieces, each the compact JSON of one or more neighbouring logs joined
    by commas (a whole block's logs are one piece), as bytes ready to be sent.
    """

    def __init__(self, objects: Iterable[Json] = (), pieces: Iterable[bytes] = ()) -> None:
        super().__init__(objects)
        self._pieces = list(pieces)

    def json_chunks(self) -> list[bytes]:
        """Return the array's compact JSON, exactly as json.dumps writes it, as chunks to join."""
        if not self._pieces:
            return [b"[]"]
        chunks = [b","] * (2 * len(self._pieces) + 1)
        chunks[1::2] = self._pieces
        chunks[0], chunks[-1] = b"[", b"]"
        return chunks
