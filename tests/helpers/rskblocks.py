"""The real Rootstock blocks of tests/fixtures/rsk-blocks (see its README), loaded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rsk-blocks"


def load(name: str) -> Any:
    """Return one fixture file's JSON."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def block_files(network: str) -> list[str]:
    """Return the names of a network's block files."""
    return sorted(
        path.name
        for path in FIXTURES.glob(f"{network}-*.json")
        if path.name != f"{network}-transactions.json"
    )
