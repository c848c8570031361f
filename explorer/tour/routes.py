"""The pages the tour shoots: their file stems and routes, from the devnet's manifest."""

from __future__ import annotations

from typing import Any

from explorer.services.routes import (
    BRIDGE_PAGE,
    Route,
    block_route,
    pegin_route,
    tool_route,
    tx_route,
)

MISSING_HASH = "0x" + "ab" * 32
TOOL_SCREENS = (
    ("tool-keccak", tool_route("keccak", "hello")),
    ("tool-units", tool_route("units", "1.5 rbtc")),
    ("tool-checksum", tool_route("checksum", "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd")),
    ("tool-selector", tool_route("selector", "Transfer(address,address,uint256)")),
)


def interesting_block(manifest: dict[str, Any]) -> int:
    """Return a block with uncles and transactions when the seed has one, else the last."""
    uncles = manifest.get("uncle_blocks") or []
    return int(uncles[-1]) if uncles else max(int(manifest.get("head_at_build", 1)) - 1, 1)


def screens(manifest: dict[str, Any]) -> list[tuple[str, Route]]:
    """Return (file stem, route) for every screen worth looking at."""
    candidates = [
        ("block", block_route(interesting_block(manifest))),
        ("block-1000-txs", block_route(int(manifest.get("big_block", 0)))),
        ("tx-success", tx_route(str(manifest.get("token_transfer", "")))),
        ("tx-failed", tx_route(str(manifest.get("failed_tx", "")))),
        ("tx-contract-creation", tx_route(str(manifest.get("contract_creation", "")))),
        ("not-found", tx_route(MISSING_HASH)),
        *peg_screens(manifest.get("bridge") or {}),
    ]
    return [(stem, route) for stem, route in candidates if route.target or route == BRIDGE_PAGE]


def peg_screens(peg: dict[str, Any]) -> list[tuple[str, Route]]:
    """Return the Bridge page, each peg-in outcome and peg-outs at their stages (devnet)."""
    if not peg:
        return []
    pegins = ("accepted", "refunded", "unrefundable", "unknown")
    pegouts = (("delivered", peg["pegout_batch"][0]), ("in-progress", peg["pegout_confirming"]))
    return [
        ("bridge", BRIDGE_PAGE),
        *((f"pegin-{name}", pegin_route(peg[f"pegin_{name}"])) for name in pegins),
        *((f"pegout-{name}", tx_route(tx)) for name, tx in pegouts),
        ("pegout-rejected", tx_route(peg["pegout_rejected"])),
    ]
