"""Well-known Rootstock addresses and their short labels (docs/service.md §13.2)."""

from __future__ import annotations

from explorer.chain.hexutil import HexFormatError, parse_address

MAINNET = 30
TESTNET = 31
BRIDGE = "0x0000000000000000000000000000000001000006"
REMASC = "0x0000000000000000000000000000000001000008"


def _precompile(number: int) -> str:
    """Return the canonical address of a precompile by number."""
    return "0x" + format(number, "040x")


_EVERY_NETWORK: dict[str, str] = {
    BRIDGE: "Bridge",
    REMASC: "REMASC",
    "0x0000000000000000000000000000000001000009": "HDWalletUtils",
    "0x0000000000000000000000000000000001000010": "BlockHeader",
    "0x0000000000000000000000000000000001000011": "Environment",
    "0xca11bde05977b3631167028862be2a173976ca11": "Multicall3",
    **{
        _precompile(number): f"Precompile {name}"
        for number, name in enumerate(
            (
                "ecrecover",
                "sha256",
                "ripemd160",
                "identity",
                "modexp",
                "ecAdd",
                "ecMul",
                "ecPairing",
                "blake2f",
            ),
            start=1,
        )
    },
}

_PER_NETWORK: dict[int, dict[str, str]] = {
    MAINNET: {
        "0x2acc95758f8b5f583470ba265eb685a8f45fc9d5": "RIF",
        "0x542fda317318ebf1d3deaf76e0b632741a7e677d": "WRBTC",
        "0xcb868aeabd31e2b66f74e9a55cf064abb31a4ad5": "RNS Registry",
    },
    TESTNET: {
        "0x19f64674d8a5b4e652319f5e239efd3bc969a1fe": "tRIF",
        "0x7d284aaac6e925aad802a53c0c69efe3764597b8": "RNS Registry",
    },
}


def known_label(address: str, chain_id: int | None) -> str | None:
    """Return the label of a well-known address on chain_id (any letter case), else None."""
    try:
        canonical = parse_address(address)
    except HexFormatError:
        return None
    per_network = _PER_NETWORK.get(chain_id, {}) if chain_id is not None else {}
    return per_network.get(canonical) or _EVERY_NETWORK.get(canonical)
