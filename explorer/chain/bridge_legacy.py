"""The Bridge's events before RSKIP146: RLP data, ASCII topics (BrigeEventLoggerLegacyImpl).

Their data is RLP a node sends: decoded only within bounds (rlpbound), since rlp.decode
recurses once per nested list; a log refused for its nesting or size is named, not decoded.
"""

from __future__ import annotations

from collections.abc import Sequence

from rlp.exceptions import DecodingError

from explorer.chain.bridge_events import (
    AddSignature,
    BridgeEvent,
    CommitFederation,
    DecodedBridgeLog,
    UpdateCollections,
    release_btc,
)
from explorer.chain.rlpbound import RlpBoundError, check_bounds, decode

#: The deepest legacy event (commit_federation) nests three lists; its data is small.
MAX_DEPTH = 4
MAX_SIZE = 64 * 1024


def ascii_topic(text: str) -> str:
    """Return an ASCII topic as rskj makes it (DataWord.fromString): right-aligned in 32 bytes."""
    return "0x" + text.encode("ascii").rjust(32, b"\0").hex()


RELEASE_BTC_TOPIC = ascii_topic("release_btc_topic")
UPDATE_COLLECTIONS_TOPIC = ascii_topic("update_collections_topic")
ADD_SIGNATURE_TOPIC = ascii_topic("add_signature_topic")
COMMIT_FEDERATION_TOPIC = ascii_topic("commit_federation_topic")
LEGACY_TOPICS = {
    RELEASE_BTC_TOPIC: "release_btc",
    UPDATE_COLLECTIONS_TOPIC: "update_collections",
    ADD_SIGNATURE_TOPIC: "add_signature",
    COMMIT_FEDERATION_TOPIC: "commit_federation",
}


def _text(item: object) -> str:
    """Return an RLP string item as text (hashes are written as ASCII hex)."""
    if not isinstance(item, bytes):
        raise ValueError("expected a string item")
    return item.decode("ascii", errors="replace")


def _blob(item: object) -> bytes:
    """Return an RLP string item as bytes."""
    if not isinstance(item, bytes):
        raise ValueError("expected a string item")
    return item


def _list(item: object, size: int | None = None) -> list[object]:
    """Return an RLP list item (of a given size)."""
    if not isinstance(item, list) or (size is not None and len(item) != size):
        raise ValueError("expected a list item")
    return item


def _address(item: object) -> str:
    """Return a 20-byte RLP item as an address."""
    raw = _blob(item)
    if len(raw) != 20:
        raise ValueError("expected 20 bytes")
    return "0x" + raw.hex()


def _federation(item: object) -> tuple[bytes, tuple[bytes, ...]]:
    """Return (address hash160, public keys) of a legacy federation item."""
    address, keys = _list(item, 2)
    return _blob(address), tuple(_blob(k) for k in _list(keys))


def _event(name: str, data: bytes) -> BridgeEvent:
    """Decode one legacy event's RLP data; ValueError or DecodingError when it is not so."""
    if name == "update_collections":
        return UpdateCollections(_address(decode(data, max_size=MAX_SIZE, max_depth=MAX_DEPTH)))
    items = _list(decode(data, max_size=MAX_SIZE, max_depth=MAX_DEPTH))
    if name == "release_btc":
        txid, raw = _list(items, 2)
        return release_btc(None, _blob(raw), legacy_txid=_text(txid))
    if name == "add_signature":
        txid, key_hash, rsk_tx = _list(items, 3)
        rsk_hash = _blob(rsk_tx)
        if len(rsk_hash) != 32:
            raise ValueError("expected a 32-byte transaction hash")
        return AddSignature("0x" + rsk_hash.hex(), None, _blob(key_hash), _text(txid))
    old, new, activation = _list(items, 3)
    (old_hash, old_keys), (new_hash, new_keys) = _federation(old), _federation(new)
    height = _text(activation)
    if not height.isdigit():
        raise ValueError("expected a decimal block number")
    return CommitFederation(old_keys, old_hash, new_keys, new_hash, int(height))


def decode_legacy_log(topics: Sequence[str], data: bytes) -> DecodedBridgeLog | None:
    """Decode a pre-RSKIP146 Bridge log; None when its topic is not one of theirs or data fails."""
    if len(topics) != 1:
        return None
    name = LEGACY_TOPICS.get(topics[0].lower())
    if name is None:
        return None
    try:
        event = _event(name, bytes(data))
    except (DecodingError, ValueError, TypeError):  # RlpBoundError is a ValueError
        return None
    return DecodedBridgeLog(name, event, legacy=True)


def legacy_refusal(topics: Sequence[str], data: bytes) -> str | None:
    """Say why a log with a legacy Bridge topic was not decoded, when its RLP is out of bounds."""
    if len(topics) != 1 or (name := LEGACY_TOPICS.get(topics[0].lower())) is None:
        return None
    try:
        check_bounds(bytes(data), max_size=MAX_SIZE, max_depth=MAX_DEPTH)
    except RlpBoundError as error:
        return f"{name} (pre-RSKIP146 RLP) refused: {error}"
    return None
