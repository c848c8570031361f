"""`explorer trace --format json`: a TraceResult as data (docs/report-json.md, schemas/trace.json).

Amounts in wei (or token base units) as decimal strings; counts, blocks and gas as numbers;
addresses in the chain's checksum; enums as fixed lowercase words (`source` keeps the words
issue 28 named: node-trace, replay, replay-with-block); words for people only in `text`.
"""

from __future__ import annotations

from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.trace import (
    NATIVE_ANSWERS,
    CallFrame,
    Divergence,
    StateDiff,
    TraceResult,
    Transfer,
)
from explorer.chain.trace_money import NATIVE


class Checksums:
    """Writes addresses in one chain's checksum."""

    def __init__(self, chain_id: int | None) -> None:
        self.chain_id = chain_id

    def __call__(self, address: str | None) -> str | None:
        """Return an address in the chain's checksum (None stays None)."""
        return None if not address else to_checksum_address(address, self.chain_id)


def _hex(value: bytes) -> str:
    """Return bytes as 0x hex."""
    return "0x" + value.hex()


def _word(name: str) -> str:
    """Return a contract's name as a fixed word: `Bridge` → bridge, `bn128 add` → bn128_add."""
    return "_".join(name.lower().split())


def _error_data(frame: CallFrame) -> dict[str, str] | None:
    """Return how a frame failed: reverted or failed, and the error in words."""
    if frame.error is None:
        return None
    return {"kind": "reverted" if frame.reverted else "failed", "text": frame.error}


def frame_data(frame: CallFrame, checksum: Checksums) -> dict[str, Any]:
    """Return one frame and its calls as data."""
    return {
        "type": frame.kind.value.lower(),
        "from": checksum(frame.sender),
        "to": checksum(frame.to),
        "value": str(frame.value),
        "input": _hex(frame.input),
        "output": _hex(frame.output),
        "error": _error_data(frame),
        "gas": frame.gas,
        "gas_used": frame.gas_used,
        "depth": frame.depth,
        "native": _word(frame.native) if frame.native else None,
        "native_answer": NATIVE_ANSWERS.get(frame.note or ""),
        "logs": [
            {"address": checksum(log.address), "topics": list(log.topics), "data": _hex(log.data)}
            for log in frame.logs
        ],
        "calls": [frame_data(call, checksum) for call in frame.calls],
    }


def transfer_data(move: Transfer, checksum: Checksums) -> dict[str, Any]:
    """Return one move of the money trail as data."""
    return {
        "kind": move.kind.value,
        "asset": move.asset if move.asset == NATIVE else checksum(move.asset),
        "from": checksum(move.sender),
        "to": checksum(move.receiver),
        "amount": str(move.amount),
        "depth": move.depth,
    }


def diff_data(diff: StateDiff | None, checksum: Checksums) -> dict[str, Any]:
    """Return a state diff's members (empty lists without one)."""
    if diff is None:
        return {"balance_changes": [], "nonce_changes": [], "storage_changes": [],
                "code_changes": []}  # fmt: skip
    return {
        "balance_changes": [
            {"address": checksum(c.address), "before": str(c.before), "after": str(c.after)}
            for c in diff.balances
        ],
        "nonce_changes": [
            {"address": checksum(c.address), "before": c.before, "after": c.after}
            for c in diff.nonces
        ],
        "storage_changes": [
            {
                "address": checksum(c.address),
                "slot": f"0x{c.slot:064x}",
                "before": f"0x{c.before:064x}",
                "after": f"0x{c.after:064x}",
            }
            for c in diff.storage
        ],
        "code_changes": [
            {"address": checksum(c.address), "code": _hex(c.code)} for c in diff.codes
        ],
    }


def _rules_data(key: str) -> dict[str, Any] | None:
    """Return the rules a replay ran by: the network whose heights, and the RSKIPs active."""
    if not key:
        return None
    network, _, numbers = key.partition(":")
    return {"network": network, "rskips": [int(n) for n in numbers.split(",") if n]}


def _divergence_data(divergence: Divergence) -> dict[str, Any]:
    """Return where a trace left the receipt, as data."""
    return {
        "where": divergence.kind.value,
        "log_index": divergence.log_index,
        "text": divergence.text,
    }


def trace_data(result: TraceResult, chain_id: int | None) -> dict[str, Any]:
    """Return a trace as the JSON object `explorer trace --format json` prints."""
    checksum = Checksums(chain_id)
    divergence = result.divergence
    return {
        "tx": result.tx,
        "chain_id": chain_id,
        "block": result.block,
        "block_hash": result.block_hash,
        "index": result.index,
        "source": result.source.value,
        "faithful": result.faithful,
        "divergence": None if divergence is None else _divergence_data(divergence),
        "status": result.status,
        "gas_used": result.gas_used,
        "fee": str(result.fee),
        "calls": [] if result.root is None else [frame_data(result.root, checksum)],
        **diff_data(result.diff, checksum),
        "state_diff": result.diff is not None,
        "transfers": [transfer_data(move, checksum) for move in result.transfers],
        "notes": [{"text": note} for note in result.notes],
        "rules": _rules_data(result.rules),
        "requests": result.requests,
        "round_trips": result.round_trips,
        "accounts_read": result.accounts_read,
        "slots_read": result.slots_read,
    }
