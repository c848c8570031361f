"""Verify, don't trust: a block's JSON against its own hash, roots and Bitcoin work.

`verify_block(block_json, rules)` is the one entry point: it recomputes the block hash from the
fields the node sent (rskheader), the transactions root from the transactions and the receipts
root from the receipts when they are given (unitrie, rsktx), and binds the header to the
Bitcoin work of its merge-mining fields (workbinding). Each check ends VERIFIED, MISMATCH (the
one field that does not match, named) or UNCHECKED (what was not there to check, and why).
Genesis blocks are compared with the hashes rskj ships, never recomputed.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_data, parse_quantity
from explorer.chain.jsonfields import RecordFormatError
from explorer.chain.rskheader import (
    HeaderFields,
    base_hash_for_merged_mining,
    recompute_hash,
)
from explorer.chain.rskrules import NetworkRules
from explorer.chain.rsktx import encode_receipt, encode_transaction
from explorer.chain.unitrie import trie_root
from explorer.chain.workbinding import bind_to_bitcoin_work

BlockJson = Mapping[str, Any]


class Check(enum.Enum):
    """What is verified of a block; the value is how a badge names it."""

    HASH = "hash"
    TRANSACTIONS_ROOT = "transactions root"
    RECEIPTS_ROOT = "receipts root"
    BITCOIN_WORK = "Bitcoin work"
    PARENT_LINK = "parent link"
    TRANSACTION = "transaction"
    RAW_HEADER = "raw header"


class Outcome(enum.Enum):
    """How a check ended."""

    VERIFIED = "verified"
    MISMATCH = "mismatch"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class Finding:
    """One check's outcome and a line saying what matched, what differs, or why not checked."""

    check: Check
    outcome: Outcome
    detail: str


@dataclass(frozen=True)
class BlockVerdict:
    """Everything checked of one block, in the order checked."""

    number: int | None
    block_hash: str | None
    difficulty: int | None
    findings: tuple[Finding, ...]

    @property
    def mismatch(self) -> Finding | None:
        """Return the first check that failed, if any."""
        return next((f for f in self.findings if f.outcome is Outcome.MISMATCH), None)

    @property
    def verified(self) -> bool:
        """Tell whether the hash was recomputed and nothing checked failed."""
        hash_found = self.finding(Check.HASH)
        return (
            self.mismatch is None
            and hash_found is not None
            and hash_found.outcome is Outcome.VERIFIED
        )

    def finding(self, check: Check) -> Finding | None:
        """Return the finding of a check, if it was made."""
        return next((f for f in self.findings if f.check is check), None)

    def with_findings(self, *extra: Finding) -> BlockVerdict:
        """Return the verdict with more findings (a parent link, a transaction) appended."""
        kept = tuple(f for f in self.findings if f.check not in {e.check for e in extra})
        return BlockVerdict(self.number, self.block_hash, self.difficulty, kept + extra)


def _short(value: bytes) -> str:
    """Return a hash as 0x hex."""
    return "0x" + value.hex()


def _unchecked(check: Check, why: str) -> Finding:
    """Return an unchecked finding."""
    return Finding(check, Outcome.UNCHECKED, why)


def _genesis(obj: BlockJson, rules: NetworkRules) -> BlockVerdict:
    """Compare block 0 with the hash rskj ships for the network."""
    claimed = str(obj.get("hash") or "").lower()
    if rules.genesis_hash is None:
        found = _unchecked(Check.HASH, f"the {rules.name} genesis block is not known here")
    elif claimed == rules.genesis_hash:
        found = Finding(Check.HASH, Outcome.VERIFIED, f"the {rules.name} genesis block")
    else:
        found = Finding(
            Check.HASH, Outcome.MISMATCH, f"block 0 is not the {rules.name} genesis block"
        )
    return BlockVerdict(0, claimed or None, None, (found,))


def readable(check: Check, compute: Callable[[], Finding]) -> Finding:
    """Return compute's finding, or a mismatch naming the field that cannot be read."""
    try:
        return compute()
    except (RecordFormatError, HexFormatError) as error:
        return Finding(check, Outcome.MISMATCH, f"unreadable: {error}")


def _listed_hashes(items: list[Any]) -> list[bytes]:
    """Return the transaction hashes a block lists, as hashes or inside full objects."""
    hashes = []
    for item in items:
        value = item.get("hash") if isinstance(item, Mapping) else item
        hashes.append(parse_data(value, "transaction hash"))
    return hashes


def give_way() -> None:
    """Hand the interpreter to a thread waiting for it: a worker's long check, between items.

    Only on worker threads (the verifier's, the shared saved data's): it sleeps no time.

    The GUI thread gives the interpreter up around its calls into Qt and waits to get it
    back; held by a worker, it came back only at the 5 ms switch interval, so a page's
    layout (dozens of such calls) stalled 50–60 ms while a thousand transactions hashed.
    """
    time.sleep(0)


def _carry_on() -> None:
    """Do nothing between items (a check on the only busy thread)."""


def _transactions_root(
    obj: BlockJson, fields: HeaderFields, rules: NetworkRules, between: Callable[[], None]
) -> Finding:
    """Recompute the transactions root from full transaction objects."""
    items = obj.get("transactions") or []
    if items and not all(isinstance(item, Mapping) for item in items):
        why = "the block was read with transaction hashes only"
        return _unchecked(Check.TRANSACTIONS_ROOT, why)
    encoded, hashes = [], []
    for index, item in enumerate(items):
        between()
        tx = encode_transaction(item, rules.chain_id)
        if not tx.matches:
            detail = f"transaction {index}: its fields do not hash to its hash"
            return Finding(Check.TRANSACTIONS_ROOT, Outcome.MISMATCH, detail)
        encoded.append(tx.encoded)
        hashes.append(tx.hash)  # keccak of the encoding: the trie stores long values by it
    root = trie_root(encoded, unitrie=rules.unitrie_hashes(fields.number), hashes=hashes)
    if root != fields.transactions_root:
        detail = f"recomputed {_short(root)}, the node says {_short(fields.transactions_root)}"
        return Finding(Check.TRANSACTIONS_ROOT, Outcome.MISMATCH, detail)
    count = f"{len(items):,} transaction{'s' if len(items) != 1 else ''}"
    return Finding(Check.TRANSACTIONS_ROOT, Outcome.VERIFIED, f"from its {count}")


def _receipts_root(
    receipts: Sequence[BlockJson] | None,
    hashes: list[bytes],
    fields: HeaderFields,
    rules: NetworkRules,
    between: Callable[[], None],
) -> Finding:
    """Recompute the receipts root from every receipt of the block, in order."""
    if receipts is None:
        return _unchecked(Check.RECEIPTS_ROOT, "not every receipt of the block has been read")
    if len(receipts) != len(hashes):
        detail = f"{len(receipts):,} receipts for {len(hashes):,} transactions"
        return Finding(Check.RECEIPTS_ROOT, Outcome.MISMATCH, detail)
    for index, (receipt, tx_hash) in enumerate(zip(receipts, hashes, strict=True)):
        if not isinstance(receipt, Mapping):
            return Finding(Check.RECEIPTS_ROOT, Outcome.MISMATCH, f"receipt {index} is no object")
        if str(receipt.get("transactionHash", "")).lower() != _short(tx_hash):
            detail = f"receipt {index} is another transaction's"
            return Finding(Check.RECEIPTS_ROOT, Outcome.MISMATCH, detail)
    encoded = []
    for receipt in receipts:
        between()
        encoded.append(encode_receipt(receipt))
    root = trie_root(encoded, unitrie=rules.unitrie_hashes(fields.number))
    if root != fields.receipts_root:
        detail = f"recomputed {_short(root)}, the node says {_short(fields.receipts_root)}"
        return Finding(Check.RECEIPTS_ROOT, Outcome.MISMATCH, detail)
    return Finding(Check.RECEIPTS_ROOT, Outcome.VERIFIED, f"from its {len(receipts):,} receipts")


def _work(fields: HeaderFields, rules: NetworkRules, base: bytes) -> Finding:
    """Bind the header to the Bitcoin work of its merge-mining fields."""
    binding = bind_to_bitcoin_work(fields, rules, base)
    if binding.fallback_signed:
        return _unchecked(Check.BITCOIN_WORK, "signed by the fallback key, not merge-mined")
    if not binding.bound:
        return Finding(Check.BITCOIN_WORK, Outcome.MISMATCH, binding.problem or "unbound")
    detail = f"Bitcoin block {binding.bitcoin_block_hash}, difficulty {fields.difficulty:,}"
    return Finding(Check.BITCOIN_WORK, Outcome.VERIFIED, detail)


def verify_block(
    obj: BlockJson,
    rules: NetworkRules | None,
    *,
    receipts: Sequence[BlockJson] | None = None,
    umm_root: bytes | None = None,
    between: Callable[[], None] = _carry_on,
) -> BlockVerdict:
    """Check a block's JSON: hash, transactions root, receipts root and Bitcoin work.

    `receipts` are every receipt of the block in order (None: not all read); `umm_root` the
    header's ummRoot when a raw header says it (the JSON does not carry it; usually empty);
    `between` runs between two transactions or receipts (`give_way` on a worker thread).
    Never raises on what a node sends: an unreadable field is a mismatch that names it.
    """
    claimed = obj.get("hash")
    if rules is None:
        why = "no consensus rules are known for this chain"
        return BlockVerdict(None, None, None, (_unchecked(Check.HASH, why),))
    if obj.get("number") is None or claimed is None:
        why = "a pending block has no hash yet"
        return BlockVerdict(None, None, None, (_unchecked(Check.HASH, why),))
    try:
        if parse_quantity(obj.get("number"), "number") == 0:
            return _genesis(obj, rules)
        fields = HeaderFields.from_json(obj)
        items = obj.get("transactions") or []
        if not isinstance(items, list):
            raise RecordFormatError("'transactions' must be an array")
        hashes = _listed_hashes(items)
    except (RecordFormatError, HexFormatError) as error:
        found = Finding(Check.HASH, Outcome.MISMATCH, f"unreadable header: {error}")
        return BlockVerdict(None, str(claimed), None, (found,))
    recomputed = recompute_hash(fields, rules, umm_root)
    block_hash = _short(fields.claimed_hash)
    if not recomputed.matches:
        detail = f"recomputed {_short(recomputed.computed)}, the node says {block_hash}"
        found = Finding(Check.HASH, Outcome.MISMATCH, detail)
        return BlockVerdict(fields.number, block_hash, fields.difficulty, (found,))
    base = base_hash_for_merged_mining(fields, rules, recomputed.encoding)
    return BlockVerdict(
        fields.number,
        block_hash,
        fields.difficulty,
        (
            Finding(Check.HASH, Outcome.VERIFIED, f"recomputed {block_hash}"),
            readable(
                Check.TRANSACTIONS_ROOT, lambda: _transactions_root(obj, fields, rules, between)
            ),
            readable(
                Check.RECEIPTS_ROOT,
                lambda: _receipts_root(receipts, hashes, fields, rules, between),
            ),
            _work(fields, rules, base),
        ),
    )
