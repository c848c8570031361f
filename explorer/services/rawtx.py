"""A signed transaction pasted by the user, decoded here before anything is sent.

Rootstock takes legacy transactions only (docs/service.md §2.1): nine RLP items, `v` either
27/28 or EIP-155's chainId × 2 + 35/36. The items are read with `rlp`'s sedes; the sender is
recovered by eth-keys from the signing hash (the six fields, and for EIP-155 the chain id and
two zeros, encoded by the same sedes); every refusal says why. Nothing here talks to a node.
eth-account would do the same but is kept out of the shipped app (packaging/explorer.spec);
the tests check this decoding against eth-account's, web3.py's and py-evm's.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

import rlp
from eth_hash.auto import keccak
from eth_keys.constants import SECPK1_N
from eth_keys.datatypes import Signature
from eth_keys.exceptions import BadSignature
from rlp.sedes import Binary, big_endian_int, binary

from explorer.chain.abi import DecodedCall, decode_call
from explorer.chain.hexutil import to_data, to_quantity
from explorer.chain.pooled import PooledTx

LEGACY_V = (27, 28)
TYPE_NAMES = {1: "EIP-2930 access list", 2: "EIP-1559 fee market", 3: "EIP-4844 blob"}
TYPE_NAMES[4] = "EIP-7702 set code"
_SPACE = re.compile(r"\s+")


class LegacyFields(rlp.Serializable):  # type: ignore[misc]
    """The nine RLP items of a signed legacy transaction, as rlp's sedes read them."""

    fields = (
        ("nonce", big_endian_int),
        ("gas_price", big_endian_int),
        ("gas", big_endian_int),
        ("to", Binary.fixed_length(20, allow_empty=True)),
        ("value", big_endian_int),
        ("data", binary),
        ("v", big_endian_int),
        ("r", big_endian_int),
        ("s", big_endian_int),
    )


class UnsignedFields(rlp.Serializable):  # type: ignore[misc]
    """The six fields a pre-EIP-155 signature covers."""

    fields = LegacyFields._meta.fields[:6]


def signing_hash(fields: LegacyFields, chain_id: int | None) -> bytes:
    """Return the hash the sender signed: of six fields, or EIP-155's nine (chain id, 0, 0)."""
    values = [getattr(fields, name) for name, _ in UnsignedFields._meta.fields]
    eip155 = chain_id is not None
    payload = LegacyFields(*values, chain_id, 0, 0) if eip155 else UnsignedFields(*values)
    return bytes(keccak(rlp.encode(payload)))


def recover_sender(fields: LegacyFields, chain_id: int | None) -> str:
    """Return the signer's address (lowercase); BadSignature when the signature has none."""
    recovery = fields.v - 27 if chain_id is None else fields.v - 35 - 2 * chain_id
    signature = Signature(vrs=(recovery, fields.r, fields.s))
    public_key = signature.recover_public_key_from_msg_hash(signing_hash(fields, chain_id))
    return "0x" + bytes(public_key.to_canonical_address()).hex()


class RefusalKind(enum.Enum):
    """Why a pasted text is not sent."""

    EMPTY = "nothing pasted"
    NOT_HEX = "not hex"
    NOT_A_TRANSACTION = "not a transaction"
    UNSUPPORTED_TYPE = "unsupported type"
    BAD_SIGNATURE = "bad signature"
    WRONG_CHAIN = "another chain"


@dataclass(frozen=True)
class Refusal:
    """A pasted text that will not be sent, and why in one sentence."""

    kind: RefusalKind
    message: str


@dataclass(frozen=True)
class SignedTx:
    """A decoded signed legacy transaction: its fields, its signer and the hash it will have."""

    raw: bytes
    hash: str
    nonce: int
    gas_price: int
    gas: int
    to: str | None
    value: int
    data: bytes
    v: int
    r: int
    s: int
    chain_id: int | None  # None: signed before EIP-155, valid on any chain
    sender: str

    type: int = 0

    @property
    def is_contract_creation(self) -> bool:
        """Tell whether the transaction creates a contract (no `to`)."""
        return self.to is None

    @property
    def pooled(self) -> PooledTx:
        """Return what a pool judges it by."""
        return PooledTx(self.hash, self.sender, self.nonce, self.gas_price, self.gas, self.value)

    @property
    def max_cost(self) -> int:
        """Return the most it can take from the sender: value + gas × gas price."""
        return self.pooled.max_cost

    @property
    def method(self) -> DecodedCall | None:
        """Return the call decoded with the bundled signatures, when known."""
        return None if self.is_contract_creation else decode_call(self.data)

    def call_object(self) -> dict[str, Any]:
        """Return the same call as a call object for eth_call and eth_estimateGas (§2.2)."""
        call: dict[str, Any] = {
            "from": self.sender,
            "gas": to_quantity(self.gas),
            "gasPrice": to_quantity(self.gas_price),
            "value": to_quantity(self.value),
            "data": to_data(self.data),
        }
        if self.to is not None:
            call["to"] = self.to
        return call


def _bytes_of(text: str) -> bytes | Refusal:
    """Return the pasted hex as bytes (0x optional, spaces and line breaks ignored)."""
    digits = _SPACE.sub("", text)
    if not digits:
        return Refusal(RefusalKind.EMPTY, "Paste a signed transaction as hex (0x…).")
    if digits[:2] in ("0x", "0X"):
        digits = digits[2:]
    if not digits or not all(c in "0123456789abcdefABCDEF" for c in digits):
        return Refusal(RefusalKind.NOT_HEX, "This is not hex: a signed transaction is 0x…")
    if len(digits) % 2:
        return Refusal(RefusalKind.NOT_HEX, "An odd number of hex digits: a byte is missing.")
    return bytes.fromhex(digits)


def _fields_of(raw: bytes) -> LegacyFields | Refusal:
    """Return the nine items of a legacy transaction, or why the bytes are not one."""
    try:
        items = rlp.decode(raw)
    except rlp.exceptions.RLPException:
        return Refusal(
            RefusalKind.NOT_A_TRANSACTION,
            "Not a transaction: the bytes are not one complete RLP item (cut short, or with "
            "bytes after its end).",
        )
    if not isinstance(items, list):
        return Refusal(RefusalKind.NOT_A_TRANSACTION, "Not a transaction: not an RLP list.")
    if len(items) != len(LegacyFields._meta.fields):
        return Refusal(
            RefusalKind.NOT_A_TRANSACTION,
            f"Not a signed legacy transaction: {len(items)} RLP items where one has 9.",
        )
    try:
        return LegacyFields.deserialize(items)  # type: ignore[no-any-return]
    except rlp.exceptions.RLPException as error:
        return Refusal(
            RefusalKind.NOT_A_TRANSACTION, f"Not a transaction: a field is malformed ({error})."
        )


def _signature_refusal(fields: LegacyFields) -> Refusal | None:
    """Return why the signature cannot be valid on Rootstock, or None."""
    v, r, s = fields.v, fields.r, fields.s
    if v not in LEGACY_V and v < 35:
        return Refusal(
            RefusalKind.BAD_SIGNATURE, f"v = {v} is neither 27/28 nor an EIP-155 value (≥ 35)."
        )
    if not (0 < r < SECPK1_N and 0 < s < SECPK1_N):
        return Refusal(RefusalKind.BAD_SIGNATURE, "r or s is zero or out of range: not signed.")
    if s > SECPK1_N // 2:
        return Refusal(
            RefusalKind.BAD_SIGNATURE,
            "s is in the upper half of the curve order (EIP-2): Rootstock refuses such a "
            "signature.",
        )
    return None


def decode_signed(text: str) -> SignedTx | Refusal:
    """Decode a pasted signed transaction, or say why it will not be sent."""
    raw = _bytes_of(text)
    if isinstance(raw, Refusal):
        return raw
    if raw[0] <= 0x7F:
        name = TYPE_NAMES.get(raw[0], "typed (EIP-2718)")
        return Refusal(
            RefusalKind.UNSUPPORTED_TYPE,
            f"A type {raw[0]} transaction ({name}): Rootstock takes legacy transactions only.",
        )
    fields = _fields_of(raw)
    if isinstance(fields, Refusal):
        return fields
    if (refusal := _signature_refusal(fields)) is not None:
        return refusal
    chain_id = None if fields.v in LEGACY_V else (fields.v - 35) // 2
    try:
        sender = recover_sender(fields, chain_id)
    except (BadSignature, ValueError) as error:
        return Refusal(RefusalKind.BAD_SIGNATURE, f"The signature does not verify: {error}")
    return SignedTx(
        raw=raw,
        hash=to_data(keccak(raw)),
        nonce=fields.nonce,
        gas_price=fields.gas_price,
        gas=fields.gas,
        to=to_data(fields.to) if fields.to else None,
        value=fields.value,
        data=bytes(fields.data),
        v=fields.v,
        r=fields.r,
        s=fields.s,
        chain_id=chain_id,
        sender=sender,
    )


def chain_refusal(tx: SignedTx, chain_id: int, network_name: str) -> Refusal | None:
    """Return the refusal of a transaction signed for another chain than the network's."""
    if tx.chain_id is None or tx.chain_id == chain_id:
        return None
    return Refusal(
        RefusalKind.WRONG_CHAIN,
        f"Signed for chain id {tx.chain_id}, but {network_name} is chain {chain_id}: "
        "the node would refuse it (Invalid chainId). Nothing was sent.",
    )


def decode_for(text: str, chain_id: int, network_name: str) -> SignedTx | Refusal:
    """Decode a pasted transaction and refuse it unless it can be sent on this chain."""
    decoded = decode_signed(text)
    if isinstance(decoded, Refusal):
        return decoded
    return chain_refusal(decoded, chain_id, network_name) or decoded
