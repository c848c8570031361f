"""Well-known Rootstock addresses and their short labels (docs/service.md §13.2; bundled data)."""

from __future__ import annotations

from explorer.chain.bundled import known_labels
from explorer.chain.hexutil import HexFormatError, parse_address

BRIDGE = "0x0000000000000000000000000000000001000006"
REMASC = "0x0000000000000000000000000000000001000008"


def known_label(address: str, chain_id: int | None) -> str | None:
    """Return the label of a well-known address on chain_id (any letter case), else None."""
    try:
        canonical = parse_address(address)
    except HexFormatError:
        return None
    return known_labels().get(canonical, chain_id)
