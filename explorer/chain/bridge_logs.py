"""Decode the logs of RSK's system contracts: the Bridge (any upgrade's format) and REMASC."""

from __future__ import annotations

from collections.abc import Sequence

from explorer.chain.abi import decode_log
from explorer.chain.bridge_abi import bridge_table
from explorer.chain.bridge_events import DecodedBridgeLog, typed_event
from explorer.chain.bridge_legacy import decode_legacy_log, legacy_refusal
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.remasc import RemascPayment, decode_remasc_log


def decode_bridge_log(topics: Sequence[str], data: bytes) -> DecodedBridgeLog | None:
    """Decode a log the Bridge emitted, in any format; None when it is none of its events."""
    legacy = decode_legacy_log(topics, data)
    if legacy is not None:
        return legacy
    decoded = decode_log(topics, data, bridge_table())
    if decoded is None:
        return None
    event = typed_event(decoded)
    return None if event is None else DecodedBridgeLog(decoded.name, event, legacy=False)


def decode_system_log(
    address: str, topics: Sequence[str], data: bytes
) -> DecodedBridgeLog | RemascPayment | None:
    """Decode a Bridge or REMASC log (by its emitter); None for any other log."""
    emitter = address.lower()
    if emitter == BRIDGE:
        return decode_bridge_log(topics, data)
    if emitter == REMASC:
        return decode_remasc_log(topics, data)
    return None


def refused_system_log(address: str, topics: Sequence[str], data: bytes) -> str | None:
    """Say why a system log was refused undecoded (its RLP too deep or too large), if it was."""
    return legacy_refusal(topics, data) if address.lower() == BRIDGE else None


def system_event_name(address: str, topics: Sequence[str], data: bytes) -> str | None:
    """Return a system log's event name for tables (`release_btc (RLP)`, `mining_fee`)."""
    decoded = decode_system_log(address, topics, data)
    if decoded is None:
        return refused_system_log(address, topics, data)
    if isinstance(decoded, RemascPayment):
        return "mining_fee (REMASC payment)"
    return f"{decoded.name} (pre-RSKIP146 RLP)" if decoded.legacy else decoded.name
