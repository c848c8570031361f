"""The devnet peg's Bitcoin side: keys, the federation's 2-of-3 multisig, signing, peg-out txs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

import coincurve
from eth_hash.auto import keccak

from explorer.chain.btc_address import (
    BtcNetwork,
    address_script,
    hash160,
    p2pkh_script,
    p2sh_address,
    p2sh_script,
    parse_btc_address,
)
from explorer.chain.btc_tx import BitcoinTx, TxInput, TxOutput, double_sha256

OP_0, OP_CHECKMULTISIG = 0x00, 0xAE
SIGHASH_ALL = 1
FEDERATION_SIZE, FEDERATION_THRESHOLD = 3, 2
SEQUENCE = 0xFFFFFFFF
INPUT_BYTES = 256  # a 2-of-3 multisig input, about, for fee estimates (rskj estimates alike)
OUTPUT_BYTES = 34
BASE_BYTES = 10


def btc_private_key(label: str) -> bytes:
    """Return a deterministic devnet Bitcoin private key."""
    return keccak(b"explorer-devnet:btc:" + label.encode())


def compressed_pubkey(private_key: bytes) -> bytes:
    """Return the compressed public key of a private key."""
    return bytes(coincurve.PrivateKey(private_key).public_key.format(compressed=True))


def push(data: bytes) -> bytes:
    """Return a script push of data (direct or OP_PUSHDATA1/2)."""
    if len(data) < 0x4C:
        return bytes([len(data)]) + data
    if len(data) <= 0xFF:
        return b"\x4c" + bytes([len(data)]) + data
    return b"\x4d" + len(data).to_bytes(2, "little") + data


def multisig_script(pubkeys: Sequence[bytes], threshold: int) -> bytes:
    """Return an m-of-n CHECKMULTISIG redeem script over sorted keys."""
    keys = sorted(pubkeys)
    return (
        bytes([0x50 + threshold])
        + b"".join(push(k) for k in keys)
        + bytes([0x50 + len(keys), OP_CHECKMULTISIG])
    )


@dataclass(frozen=True)
class Federation:
    """The devnet PowPeg: its members' Bitcoin keys (sorted) and its redeem script."""

    labels: tuple[str, ...]  # each member's devnet label (its RSK account's too), key order
    private_keys: tuple[bytes, ...]
    pubkeys: tuple[bytes, ...]
    redeem_script: bytes
    threshold: int

    def address(self, network: BtcNetwork) -> str:
        """Return the federation's P2SH address."""
        return p2sh_address(hash160(self.redeem_script), network)

    @property
    def script(self) -> bytes:
        """Return the output script paying to the federation."""
        return p2sh_script(hash160(self.redeem_script))

    def member(self, pubkey: bytes) -> int | None:
        """Return a member's index by its public key, or None."""
        return self.pubkeys.index(pubkey) if pubkey in self.pubkeys else None


@cache
def federation() -> Federation:
    """Return the devnet federation (same on every devnet network)."""
    labels = [f"federator-{i}" for i in range(FEDERATION_SIZE)]
    members = sorted((compressed_pubkey(btc_private_key(label)), label) for label in labels)
    pubkeys = tuple(p for p, _ in members)
    return Federation(
        tuple(label for _, label in members),
        tuple(btc_private_key(label) for _, label in members),
        pubkeys,
        multisig_script(pubkeys, FEDERATION_THRESHOLD),
        FEDERATION_THRESHOLD,
    )


def legacy_sighash(tx: BitcoinTx, index: int, script_code: bytes) -> bytes:
    """Return the SIGHASH_ALL digest of input index (pre-segwit rules)."""
    inputs = tuple(
        replace(item, script_sig=script_code if i == index else b"", witness=())
        for i, item in enumerate(tx.inputs)
    )
    body = replace(tx, inputs=inputs).serialize(witness=False)
    return double_sha256(body + SIGHASH_ALL.to_bytes(4, "little"))


def sign(private_key: bytes, digest: bytes) -> bytes:
    """Return a DER signature with the SIGHASH_ALL byte (low S, as libsecp256k1 makes it)."""
    der = coincurve.PrivateKey(private_key).sign(digest, hasher=None)
    return bytes(der) + bytes([SIGHASH_ALL])


def sign_p2pkh(tx: BitcoinTx, private_key: bytes) -> BitcoinTx:
    """Sign every input of tx as spending a P2PKH output of private_key."""
    pubkey = compressed_pubkey(private_key)
    code = p2pkh_script(hash160(pubkey))
    inputs = tuple(
        replace(
            item, script_sig=push(sign(private_key, legacy_sighash(tx, i, code))) + push(pubkey)
        )
        for i, item in enumerate(tx.inputs)
    )
    return replace(tx, inputs=inputs)


def sign_multisig(tx: BitcoinTx, private_keys: Sequence[bytes], redeem: bytes) -> BitcoinTx:
    """Sign every input as spending a P2SH multisig output (signatures in key order)."""
    ordered = sorted(private_keys, key=compressed_pubkey)
    inputs = tuple(
        replace(
            item,
            script_sig=bytes([OP_0])
            + b"".join(push(sign(k, legacy_sighash(tx, i, redeem))) for k in ordered)
            + push(redeem),
        )
        for i, item in enumerate(tx.inputs)
    )
    return replace(tx, inputs=inputs)


def federation_signatures(tx: BitcoinTx, member: int) -> tuple[bytes, ...]:
    """Return one federator's signatures, one per input of a peg-out transaction."""
    fed = federation()
    key = fed.private_keys[member]
    return tuple(sign(key, legacy_sighash(tx, i, fed.redeem_script)) for i in range(len(tx.inputs)))


def unsigned_script() -> bytes:
    """Return the placeholder input script of an unsigned peg-out (rskj's, OP_0 per signature)."""
    fed = federation()
    return bytes([OP_0] * (1 + fed.threshold)) + push(fed.redeem_script)


def signed_release(tx: BitcoinTx, signatures: dict[int, tuple[bytes, ...]]) -> BitcoinTx:
    """Return tx with each input's script holding the first `threshold` signers, key order."""
    fed = federation()
    signers = sorted(signatures)[: fed.threshold]
    inputs = tuple(
        replace(
            item,
            script_sig=bytes([OP_0])
            + b"".join(push(signatures[m][i]) for m in signers)
            + push(fed.redeem_script),
        )
        for i, item in enumerate(tx.inputs)
    )
    return replace(tx, inputs=inputs)


def estimated_fee(inputs: int, outputs: int, fee_per_kb: int) -> int:
    """Return the fee of a peg-out of this shape at fee_per_kb (satoshis per 1,000 bytes)."""
    size = BASE_BYTES + INPUT_BYTES * inputs + OUTPUT_BYTES * outputs
    return fee_per_kb * size // 1000


def destination_script(address: str) -> bytes:
    """Return the output script of a Bitcoin address (ValueError when it is not one)."""
    parsed = parse_btc_address(address)
    if parsed is None:
        raise ValueError(f"not a Bitcoin address: {address}")
    return address_script(parsed)


def build_release(
    spend: Sequence[tuple[bytes, int, int]],
    payments: Sequence[tuple[bytes, int]],
    fee_per_kb: int,
) -> BitcoinTx:
    """Return an unsigned peg-out spending federation outputs (txid, index, value).

    Each payment (script, amount) pays its amount less an equal share of the fee, as rskj's
    batched peg-outs do; the rest goes back to the federation as change.
    """
    total_in = sum(value for _, _, value in spend)
    requested = sum(amount for _, amount in payments)
    fee = estimated_fee(len(spend), len(payments) + 1, fee_per_kb)
    share, rest = divmod(fee, len(payments))
    outputs = [
        TxOutput(amount - share - (rest if i == 0 else 0), script)
        for i, (script, amount) in enumerate(payments)
    ]
    change = total_in - requested
    if change > 0:
        outputs.append(TxOutput(change, federation().script))
    inputs = tuple(
        TxInput(txid.hex(), index, unsigned_script(), SEQUENCE) for txid, index, _ in spend
    )
    return BitcoinTx(2, inputs, tuple(outputs), 0)
