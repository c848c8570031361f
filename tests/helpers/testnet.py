"""The real testnet samples in tests/fixtures/rsk-testnet, loaded as fresh copies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rsk-testnet"
FIXTURE_NAMES = sorted(path.name for path in FIXTURES.glob("*.json"))
BLOCK = "block-0x1b4-header-only.json"
TX = "tx-0x359f.json"
TX_EIP155 = "tx-0x507e-eip155-chain31.json"
TX_REMASC = "tx-0x9791-remasc.json"
RECEIPT = "receipt-0x359f.json"


def load(name: str) -> dict[str, Any]:
    """Return a fresh copy of a testnet fixture's JSON object."""
    with (FIXTURES / name).open(encoding="utf-8") as handle:
        value: dict[str, Any] = json.load(handle)
    return value
