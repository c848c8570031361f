"""A page's notes about its data: read offline from the saved data, or reorganised away."""

from __future__ import annotations

from explorer.presentation.document import Document
from explorer.saved.cache import Reorganised
from explorer.saved.rules import answer_anchor

OFFLINE_NOTICE = (
    "Offline: this page is from the saved data; it is read again when the node is back."
)


def document_height(document: Document | None) -> int | None:
    """Return the block height a page's document rests on (a block's, a transaction's)."""
    if document is None:
        return None
    raw = document.raw.get("transaction", document.raw)
    anchor = answer_anchor(raw)
    return anchor.number if anchor is not None else None


def reorganised_notice(event: Reorganised) -> str:
    """Return the note of a page read again after a reorganisation below it."""
    return (
        f"The chain reorganised at block {event.number:,}: saved data from there on was "
        "dropped and this page was read again from the node."
    )
