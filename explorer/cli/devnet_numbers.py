"""`explorer devnet`'s numeric options, each checked against its range."""

from __future__ import annotations

import argparse
from typing import Any


def _bounded(kind: type[int] | type[float], low: float, high: float) -> Any:
    """Return an argparse type accepting `kind` values in [low, high]."""

    def parse(text: str) -> int | float:
        value = kind(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"not in [{low}, {high}]")
        return value

    parse.__name__ = kind.__name__  # argparse names it: "invalid int value"
    return parse


PORT = _bounded(int, 0, 65535)
POSITIVE = _bounded(int, 1, 2**62)
NON_NEGATIVE = _bounded(int, 0, 2**62)
#: The options that take a number, each checked against its range: flag, type, default, help.
NUMBERS: tuple[tuple[str, Any, float | None, str], ...] = (
    ("--testnet-port", PORT, 8031, "port of the test network (0 = free)"),
    ("--mainnet-port", PORT, 8030, "port of the main network (0 = free)"),
    (
        "--latency",
        _bounded(float, 0, 10),
        0.0,
        "seconds added before every answer (behave like a remote node; for benchmarks)",
    ),
    ("--block-time", _bounded(float, 0, 86400), 0.0, "seconds between blocks; 0 = instant"),
    ("--quota", POSITIVE, None, "requests per key per UTC day (default: off)"),
    (
        "--max-log-blocks",
        POSITIVE,
        None,
        "eth_getLogs block limit (service: 2000, uncapped below it; rskj: 5000)",
    ),
    (
        "--max-logs",
        POSITIVE,
        None,
        "eth_getLogs log limit (service: 10000 over longer ranges; rskj: 20000 always)",
    ),
    ("--max-batch", POSITIVE, 50, "largest accepted batch"),
    (
        "--rpc-timeout",
        _bounded(float, 0, 3600),
        5.0,
        "seconds a call may take before it fails with -32011 (0 = no limit)",
    ),
    (
        "--max-response-bytes",
        NON_NEGATIVE,
        10 * 1024 * 1024,
        "largest answer before it fails with -32011 (0 = no limit)",
    ),
    (
        "--pool-expiry-blocks",
        NON_NEGATIVE,
        10,
        "drop a pool transaction once the head is this many blocks past its arrival",
    ),
    (
        "--pool-expiry-seconds",
        NON_NEGATIVE,
        650,
        "drop a pool transaction this many seconds after its arrival (0 = never)",
    ),
)
