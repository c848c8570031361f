"""The Bridge's ABI as bundled (resources/data/bridge-abi.json, 8.0.0-REED) and what it lacks."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from explorer.chain.abi import DecodedCall, decode_call
from explorer.chain.bundled import BundledDataError, read_text
from explorer.chain.signatures import Param, Signature, SignatureTable, parse_signature

BRIDGE_ABI = "data/bridge-abi.json"
BRIDGE_ABI_VERSION = "@rsksmart/rsk-precompiled-abis 8.0.0-REED"
_ALIASES = {"int": "int256", "uint": "uint256"}

# Not in 8.0.0-REED: the first release_request_received (RSKIP185 until RSKIP326, a hash160 as
# bytes) and Vetiver's read (RSKIP540); from rskj's BridgeEvents.java and BridgeMethods.java.
EXTRA_SIGNATURES = (
    "event release_request_received(address indexed sender, bytes btcDestinationAddress, "
    "uint256 amount)",
    "function getEstimatedFeesForPegOutAmount(uint256 amount)",
)

#: What the federators' calls do, in words (the user-facing ones name themselves).
CALL_ROLES = {
    "registerBtcTransaction": "a federator registers a Bitcoin transaction (peg-in)",
    "registerFastBridgeBtcTransaction": "Flyover: a liquidity provider's fast peg-in (RSKIP176)",
    "updateCollections": "a federator's heartbeat: batches and confirms peg-outs",
    "addSignature": "a federator signs a peg-out's Bitcoin transaction",
    "receiveHeaders": "a federator sends Bitcoin block headers",
    "receiveHeader": "a federator sends a Bitcoin block header",
    "releaseBtc": "a peg-out request (RBTC to BTC)",
}


def _param(entry: dict[str, Any]) -> Param:
    """Return one ABI input as a Param, rskj's short types spelled out."""
    kind = str(entry.get("type", ""))
    base = kind.split("[", 1)[0]
    kind = _ALIASES.get(base, base) + kind[len(base) :]
    return Param(str(entry.get("name", "")), kind, bool(entry.get("indexed", False)))


def _signature(entry: dict[str, Any]) -> Signature | None:
    """Return a function or event of the ABI as a Signature (None for other entries)."""
    kind = entry.get("type")
    if kind not in ("function", "event"):
        return None
    inputs = entry.get("inputs", [])
    if not isinstance(inputs, list):
        raise BundledDataError(f"{BRIDGE_ABI}: inputs of {entry.get('name')} are not a list")
    params = tuple(_param(item) for item in inputs)
    return Signature("function" if kind == "function" else "event", str(entry["name"]), params)


@cache
def bridge_signatures() -> tuple[Signature, ...]:
    """Return every function and event of the bundled ABI, then the ones it lacks."""
    entries = json.loads(read_text(BRIDGE_ABI))
    if not isinstance(entries, list):
        raise BundledDataError(f"{BRIDGE_ABI}: expected a JSON array")
    signatures = [s for s in map(_signature, entries) if s is not None]
    return (*signatures, *(parse_signature(line) for line in EXTRA_SIGNATURES))


@cache
def bridge_table() -> SignatureTable:
    """Return the Bridge's signatures by selector and topic."""
    return SignatureTable.build(bridge_signatures())


def bridge_function(name: str) -> Signature:
    """Return the Bridge function called name (KeyError when there is none)."""
    for signature in bridge_signatures():
        if signature.kind == "function" and signature.name == name:
            return signature
    raise KeyError(name)


def bridge_event(name: str, indexed: int | None = None) -> Signature:
    """Return the Bridge event called name (the form with `indexed` topics when given)."""
    for signature in bridge_signatures():
        named = signature.kind == "event" and signature.name == name
        if named and (indexed is None or signature.indexed_count == indexed):
            return signature
    raise KeyError(name)


@cache
def _outputs() -> dict[str, tuple[str, ...]]:
    """Return the output types of every function of the bundled ABI (and the added one)."""
    outputs: dict[str, tuple[str, ...]] = {"getEstimatedFeesForPegOutAmount": ("uint256",)}
    for entry in json.loads(read_text(BRIDGE_ABI)):
        if entry.get("type") == "function":
            outputs[str(entry["name"])] = tuple(_param(o).type for o in entry.get("outputs", []))
    return outputs


def bridge_outputs(name: str) -> tuple[str, ...]:
    """Return the output types of a Bridge function, rskj's short types spelled out."""
    return _outputs()[name]


def bridge_topic(name: str, indexed: int | None = None) -> str:
    """Return a Bridge event's topic0 as 0x hex (for log filters)."""
    return "0x" + bridge_event(name, indexed).key.hex()


def decode_bridge_call(data: bytes) -> DecodedCall | None:
    """Decode a call to the Bridge with its ABI; None when empty, unknown or not decodable."""
    return decode_call(data, bridge_table())
