"""The Bridge's events as typed records, from any upgrade's format (rskj BridgeEventLoggerImpl).

Since RSKIP146 the events are Solidity-ABI encoded under a keccak topic; before it, RLP data
under an ASCII topic (chain/bridge_legacy.py). Amounts are kept as the event carries them;
`pegout_amount_in_wei` says which unit a peg-out request's amount is in (RSKIP427).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.abi import DecodedEvent
from explorer.chain.btc_address import MAX_SATOSHIS
from explorer.chain.btc_tx import BitcoinTx, BitcoinTxError, parse_tx, parse_varints
from explorer.chain.peg import PegNetwork

REJECTED_PEGIN_REASONS = {
    1: "the peg-in would pass the locking cap",
    2: "a legacy peg-in from a multisig sender",
    3: "a legacy peg-in whose sender cannot be determined",
    4: "its OP_RETURN peg-in instructions (v1 payload) are invalid",
    5: "the amount is below the minimum peg-in",
}
UNREFUNDABLE_PEGIN_REASONS = {
    1: "a legacy peg-in whose sender cannot be determined: there is no address to refund",
    2: "a v1 peg-in without a refund address",
    3: "the amount is below the minimum peg-in: too little to refund",
    4: "it paid different kinds of federation at once",
}
REJECTED_PEGOUT_REASONS = {
    1: "the amount is below the minimum peg-out",
    2: "the caller is a contract (a Bitcoin address comes from an account's key)",
    3: "the Bitcoin fee would take more than the amount allows",
}


def reason_text(reasons: dict[int, str], code: int) -> str:
    """Return a reason code in words, with its number."""
    return f"{reasons.get(code, 'an unknown reason')} (reason {code})"


@dataclass(frozen=True)
class LockBtc:
    """A peg-in before RSKIP170: RBTC credited to receiver for a Bitcoin transaction."""

    receiver: str
    btc_txid: str
    sender_btc_address: str
    amount_sat: int


@dataclass(frozen=True)
class PeginBtc:
    """A peg-in (RSKIP170): receiver credited; protocol 0 legacy, 1 OP_RETURN instructions."""

    receiver: str
    btc_txid: str
    amount_sat: int
    protocol_version: int


@dataclass(frozen=True)
class RejectedPegin:
    """A peg-in the Bridge refused (refunded unless an unrefundable_pegin follows)."""

    btc_txid: str
    reason: int


@dataclass(frozen=True)
class UnrefundablePegin:
    """A refused peg-in that cannot be refunded: the funds stay with the PowPeg."""

    btc_txid: str
    reason: int


@dataclass(frozen=True)
class ReleaseRequestReceived:
    """A peg-out request accepted into the queue.

    `destination` is the Bitcoin address as text (RSKIP326) or the 20-byte hash160 the first
    form carried (RSKIP185 to RSKIP326); `amount` is in satoshis or, from RSKIP427, in wei.
    """

    sender: str
    destination: str | bytes
    amount: int


@dataclass(frozen=True)
class ReleaseRequestRejected:
    """A peg-out request refused; its value went back to the sender in the same transaction."""

    sender: str
    amount: int
    reason: int


@dataclass(frozen=True)
class ReleaseRequested:
    """A peg-out's Bitcoin transaction created (unsigned hash), for rsk_tx_hash's request."""

    rsk_tx_hash: str
    btc_txid: str
    amount_sat: int


@dataclass(frozen=True)
class BatchPegoutCreated:
    """A batched peg-out (RSKIP271): the unsigned Bitcoin transaction and the requests in it."""

    btc_txid: str
    rsk_tx_hashes: tuple[str, ...]


@dataclass(frozen=True)
class PegoutTransactionCreated:
    """A peg-out transaction's inputs' values in satoshis (RSKIP428); None when undecodable."""

    btc_txid: str
    input_values: tuple[int, ...] | None


@dataclass(frozen=True)
class PegoutConfirmed:
    """A peg-out with enough RSK confirmations to be signed (RSKIP326)."""

    btc_txid: str
    creation_block: int


@dataclass(frozen=True)
class AddSignature:
    """A federator's signatures on a peg-out; the legacy form names a pubkey hash instead."""

    release_rsk_tx_hash: str
    federator: str | None  # the RSK address (right only from RSKIP415)
    federator_key: bytes  # BTC public key; the legacy form: its hash160
    btc_txid: str | None = None  # the legacy form names the transaction


@dataclass(frozen=True)
class ReleaseBtc:
    """A fully signed peg-out transaction, ready for Bitcoin; `tx` None when undecodable."""

    release_rsk_tx_hash: str | None  # the legacy form carries none
    raw_tx: bytes
    tx: BitcoinTx | None
    error: str = ""
    legacy_txid: str | None = None  # the legacy form names the transaction


@dataclass(frozen=True)
class UpdateCollections:
    """A federator's updateCollections call."""

    sender: str


@dataclass(frozen=True)
class CommitFederation:
    """A new federation committed: old and new keys and addresses, activation height."""

    old_keys: bytes | tuple[bytes, ...]
    old_address: str | bytes
    new_keys: bytes | tuple[bytes, ...]
    new_address: str | bytes
    activation_height: int


@dataclass(frozen=True)
class OtherBridgeEvent:
    """A Bridge event decoded with the ABI and shown as its parameters (union bridge…)."""

    event: DecodedEvent


BridgeEvent = (
    LockBtc
    | PeginBtc
    | RejectedPegin
    | UnrefundablePegin
    | ReleaseRequestReceived
    | ReleaseRequestRejected
    | ReleaseRequested
    | BatchPegoutCreated
    | PegoutTransactionCreated
    | PegoutConfirmed
    | AddSignature
    | ReleaseBtc
    | UpdateCollections
    | CommitFederation
    | OtherBridgeEvent
)


@dataclass(frozen=True)
class DecodedBridgeLog:
    """A Bridge log decoded: the event, its name and which format it came in."""

    name: str
    event: BridgeEvent
    legacy: bool  # RLP with an ASCII topic (before RSKIP146)


def _hex32(value: object) -> str:
    """Return a bytes32 value as 0x hex."""
    return "0x" + bytes(value).hex() if isinstance(value, bytes) else str(value)


def _btc_txid(value: object) -> str:
    """Return a btcTxHash value as the 64 hex digits explorers show (the topic's own order)."""
    return bytes(value).hex() if isinstance(value, bytes) else str(value)


def release_btc(rsk_tx_hash: str | None, raw: bytes, legacy_txid: str | None = None) -> ReleaseBtc:
    """Return a ReleaseBtc with its Bitcoin transaction parsed (or why not)."""
    try:
        return ReleaseBtc(rsk_tx_hash, raw, parse_tx(raw), "", legacy_txid)
    except BitcoinTxError as error:
        return ReleaseBtc(rsk_tx_hash, raw, None, str(error), legacy_txid)


def hashes_in(data: bytes) -> tuple[str, ...]:
    """Return the 32-byte hashes concatenated in batch_pegout_created's data."""
    return tuple("0x" + data[i : i + 32].hex() for i in range(0, len(data) - len(data) % 32, 32))


def typed_event(event: DecodedEvent) -> BridgeEvent | None:
    """Return the typed record of an ABI-decoded Bridge event."""
    v = {p.name: p.value for p in event.params}
    name = event.name
    if name == "lock_btc":
        return LockBtc(
            str(v["receiver"]), _btc_txid(v["btcTxHash"]), str(v["senderBtcAddress"]), _int(v)
        )
    if name == "pegin_btc":
        version = _number(v, "protocolVersion")
        return PeginBtc(str(v["receiver"]), _btc_txid(v["btcTxHash"]), _int(v), version)
    if name in ("rejected_pegin", "unrefundable_pegin"):
        kind = RejectedPegin if name == "rejected_pegin" else UnrefundablePegin
        return kind(_btc_txid(v["btcTxHash"]), _number(v, "reason"))
    if name == "release_request_received":
        destination = v["btcDestinationAddress"]
        shown = destination if isinstance(destination, bytes | str) else str(destination)
        return ReleaseRequestReceived(str(v["sender"]), shown, _int(v))
    if name == "release_request_rejected":
        reason = _number(v, "reason")
        return ReleaseRequestRejected(str(v["sender"]), _int(v), reason)
    if name == "release_requested":
        return ReleaseRequested(_hex32(v["rskTxHash"]), _btc_txid(v["btcTxHash"]), _int(v))
    return _typed_pegout(event, v)


def _typed_pegout(event: DecodedEvent, v: dict[str, object]) -> BridgeEvent | None:
    """Return the typed record of the peg-out and federation events."""
    name = event.name
    if name == "batch_pegout_created":
        hashes = hashes_in(_bytes(v, "releaseRskTxHashes"))
        return BatchPegoutCreated(_btc_txid(v["btcTxHash"]), hashes)
    if name == "pegout_transaction_created":
        try:
            values: tuple[int, ...] | None = parse_varints(_bytes(v, "utxoOutpointValues"))
        except BitcoinTxError:
            values = None
        return PegoutTransactionCreated(_btc_txid(v["btcTxHash"]), values)
    if name == "pegout_confirmed":
        block = _number(v, "pegoutCreationRskBlockNumber")
        return PegoutConfirmed(_btc_txid(v["btcTxHash"]), block)
    if name == "add_signature":
        federator = str(v["federatorRskAddress"])
        return AddSignature(
            _hex32(v["releaseRskTxHash"]), federator, _bytes(v, "federatorBtcPublicKey")
        )
    if name == "release_btc":
        return release_btc(_hex32(v["releaseRskTxHash"]), _bytes(v, "btcRawTransaction"))
    if name == "update_collections":
        return UpdateCollections(str(v["sender"]))
    if name == "commit_federation":
        return CommitFederation(
            _bytes(v, "oldFederationBtcPublicKeys"),
            str(v["oldFederationBtcAddress"]),
            _bytes(v, "newFederationBtcPublicKeys"),
            str(v["newFederationBtcAddress"]),
            _number(v, "activationHeight"),
        )
    return OtherBridgeEvent(event)


def _number(values: dict[str, object], name: str) -> int:
    """Return an integer parameter (0 when the ABI gave something else)."""
    value = values[name]
    return value if isinstance(value, int) else 0


def _int(values: dict[str, object]) -> int:
    """Return the `amount` of an event."""
    return _number(values, "amount")


def _bytes(values: dict[str, object], name: str) -> bytes:
    """Return a bytes parameter."""
    value = values[name]
    return value if isinstance(value, bytes) else b""


def pegout_amount_in_wei(
    event: ReleaseRequestReceived | ReleaseRequestRejected,
    block: int | None,
    peg: PegNetwork,
    tx_value: int | None = None,
) -> bool:
    """Tell whether a peg-out request's amount is in wei (RSKIP427) rather than satoshis.

    The transaction's value settles it when known (the event repeats it, in wei or cut to
    satoshis). An accepted request is at least the minimum peg-out, which in wei is more
    satoshis than exist: so an amount above 21M BTC in satoshis is wei. Else the upgrade's
    height on this network decides. The first release_request_received (hash160 bytes) is
    always in satoshis.
    """
    if isinstance(event, ReleaseRequestReceived) and isinstance(event.destination, bytes):
        return False
    if tx_value is not None and tx_value > 0:
        if event.amount == tx_value:
            return True
        if event.amount == tx_value // 10**10:
            return False
    if isinstance(event, ReleaseRequestReceived) and event.amount > MAX_SATOSHIS:
        return True
    return peg.active(427, block)


def pegout_amount_sat(
    event: ReleaseRequestReceived | ReleaseRequestRejected,
    block: int | None,
    peg: PegNetwork,
    tx_value: int | None = None,
) -> int:
    """Return a peg-out request's amount in satoshis (wei cut to whole satoshis)."""
    if pegout_amount_in_wei(event, block, peg, tx_value):
        return event.amount // 10**10
    return event.amount
