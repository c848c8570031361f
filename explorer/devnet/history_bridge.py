"""The seeded history's peg: legacy events, peg-ins, peg-outs at every stage, REMASC payments.

Runs after the busy phases. Federators and users send real transactions to the Bridge
precompile (devnet/bridge_precompile.py), which emits what rskj emits; the quiet tail's
activity fills the blocks between. The Bitcoin transactions are built and signed here with
devnet keys. Block heights follow the network's constants (peg-out interval, confirmations),
so a mainnet-like devnet waits 4,000 blocks where a testnet-like one waits 10.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from eth.abc import SignedTransactionAPI

from explorer.chain.bridge_events import ReleaseBtc
from explorer.chain.bridge_logs import decode_bridge_log
from explorer.chain.btc_address import hash160, p2pkh_script, p2sh_script
from explorer.chain.btc_tx import BitcoinTx, TxInput, TxOutput, double_sha256, parse_tx
from explorer.chain.known import BRIDGE
from explorer.chain.peg import DEVNET_UPGRADE_HEIGHT, devnet_peg
from explorer.chain.pegin_data import encode_instructions
from explorer.devnet.abi import call_data
from explorer.devnet.accounts import DevAccount, derive_account
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.bridge_bitcoin import (
    compressed_pubkey,
    federation,
    federation_signatures,
    multisig_script,
    sign_multisig,
    sign_p2pkh,
)
from explorer.devnet.bridge_genesis import legacy_pegout
from explorer.devnet.bridge_state import load_state
from explorer.devnet.remasc import settlement
from explorer.devnet.seed import RBTC

if TYPE_CHECKING:
    from explorer.devnet.history import HistoryBuilder

BRIDGE_ADDRESS = bytes.fromhex(BRIDGE[2:])
Make = Callable[[], list[SignedTransactionAPI]]
SAT = 100_000_000
FEDERATOR_GAS = 1_500_000
PEGOUT_GAS = 100_000
MILLI_RBTC = RBTC // 1000


class BridgeHistory:
    """Schedules the peg's transactions block by block on a HistoryBuilder."""

    def __init__(self, builder: HistoryBuilder) -> None:
        self.b = builder
        self.peg = devnet_peg(builder.chain_id)
        self.fed = federation()
        self.federators = tuple(derive_account(label) for label in self.fed.labels)
        self.facts: dict[str, Any] = {}
        self.btc_height = 0

    # --- helpers ------------------------------------------------------------------------

    def at(self, number: int, make: Make, **kwargs: Any) -> DevBlock:
        """Mine block number (or the next) with the transactions make() signs then.

        The quiet tail's activity fills the blocks before, so they are signed after it (their
        senders' nonces follow the tail's).
        """
        if self.b.ledger.head.number < number - 1:
            self.b._quiet_tail(number - 1)
        return self.b.mine(make(), **kwargs)

    def call(self, sender: DevAccount, signature: str, *args: object) -> SignedTransactionAPI:
        """Return a federator's (or anyone's) call to the Bridge."""
        data = call_data(signature, *args)
        return self.b.send(sender, BRIDGE_ADDRESS, data=data, gas=FEDERATOR_GAS)

    def headers(self, count: int) -> SignedTransactionAPI:
        """Return federator 0 sending count Bitcoin headers (chained, devnet-made)."""
        headers, previous = [], double_sha256(b"devnet-btc-%d" % self.btc_height)
        for _ in range(count):
            header = (
                (0x20000000).to_bytes(4, "little")
                + previous
                + double_sha256(previous)
                + (1_735_689_600 + 600 * self.btc_height).to_bytes(4, "little")
                + bytes.fromhex("ffff001d")
                + self.btc_height.to_bytes(4, "little")
            )
            headers.append(header)
            previous = double_sha256(header)
            self.btc_height += 1
        return self.call(self.federators[0], "receiveHeaders(bytes[])", headers)

    def register(self, tx: BitcoinTx, height: int) -> SignedTransactionAPI:
        """Return federator 0 registering a Bitcoin transaction mined at height."""
        signature = "registerBtcTransaction(bytes,int256,bytes)"
        return self.call(self.federators[0], signature, tx.serialize(), height, b"\x01")

    def sign(self, member: int, creation_tx: str) -> SignedTransactionAPI:
        """Return a federator's addSignature for the peg-out created by creation_tx."""
        state = load_state(self.b.engine.state_at(self.b.ledger.head.number))
        pending = next(p for p in state.signing if "0x" + p.creation_tx_hash.hex() == creation_tx)
        signatures = list(federation_signatures(parse_tx(pending.raw_tx), member))
        return self.call(
            self.federators[member],
            "addSignature(bytes,bytes[],bytes)",
            self.fed.pubkeys[member],
            signatures,
            pending.creation_tx_hash,
        )

    def pegout(self, user: DevAccount, milli_rbtc: int) -> SignedTransactionAPI:
        """Return a user's peg-out request: RBTC sent to the Bridge."""
        return self.b.send(user, BRIDGE_ADDRESS, value=milli_rbtc * MILLI_RBTC, gas=PEGOUT_GAS)

    def note(self, key: str, value: Any) -> None:
        """Remember a fact for the manifest."""
        self.facts[key] = value

    # --- Bitcoin transactions -----------------------------------------------------------

    def _coin(self, label: str) -> TxInput:
        """Return an input spending a made-up earlier output of the sender's."""
        return TxInput(hashlib.sha256(label.encode()).hexdigest(), 0, b"", 0xFFFFFFFF)

    def pegin_tx(self, label: str, key: bytes, outputs: list[TxOutput]) -> BitcoinTx:
        """Return a P2PKH sender's Bitcoin transaction, signed."""
        return sign_p2pkh(BitcoinTx(2, (self._coin(label),), tuple(outputs), 0), key)

    def to_fed(self, satoshis: int) -> TxOutput:
        """Return an output paying the federation."""
        return TxOutput(satoshis, self.fed.script)

    # --- the phase ----------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Mine the peg's history and return its facts for the manifest."""
        start = self.b.ledger.head.number + 1
        if start + 10 >= DEVNET_UPGRADE_HEIGHT or self.b.size.head < DEVNET_UPGRADE_HEIGHT + 1000:
            return {}  # a small seed has no room for the peg
        self.btc_height = load_state(self.b.engine.state_at(start - 1)).btc_best_height
        self._legacy(start)
        self._pegins(DEVNET_UPGRADE_HEIGHT)
        self._pegouts(DEVNET_UPGRADE_HEIGHT + 6)
        return self.facts

    def _legacy(self, start: int) -> None:
        """Before RSKIP146: fund the federators, a heartbeat and a release, RLP-logged."""
        deployer = self.b.deployer
        self.at(
            start,
            lambda: [self.b.send(deployer, f.address, value=10 * RBTC) for f in self.federators],
        )
        block = self.at(start + 1, lambda: [self.call(self.federators[0], "updateCollections()")])
        self.note("legacy_update_block", block.number)
        creation = "0x" + legacy_pegout(self.b.chain_id).creation_tx_hash.hex()
        self.at(start + 2, lambda: [self.sign(0, creation)])
        release = self.at(start + 3, lambda: [self.sign(1, creation)])
        self.note("legacy_release_tx", "0x" + release.transactions[0].hash.hex())
        self.note("legacy_release_block", release.number)

    def _pegins(self, first: int) -> None:
        """Four peg-ins: accepted (legacy and v1), refused with a refund, refused for good."""
        users, base = self.b.users, self.btc_height + 1
        self.at(first, lambda: [self.headers(self.peg.btc_confirmations + 4)])
        legacy_key = users[0].private_key
        legacy = self.pegin_tx(
            "pegin-legacy",
            legacy_key,
            [self.to_fed(SAT), TxOutput(30_000_000, p2pkh_script(hash160(_pub(legacy_key))))],
        )
        refund_hash = hash160(_pub(users[2].private_key))
        payload = encode_instructions(users[1].address, (1, refund_hash))
        v1 = self.pegin_tx(
            "pegin-v1",
            users[2].private_key,
            [self.to_fed(SAT // 2), TxOutput(0, b"\x6a" + bytes([len(payload)]) + payload)],
        )
        keys = [users[10].private_key, users[11].private_key]
        redeem = multisig_script([_pub(k) for k in keys], 2)
        multisig = sign_multisig(
            BitcoinTx(2, (self._coin("pegin-multisig"),), (self.to_fed(SAT // 5),), 0),
            keys,
            redeem,
        )
        small = self.pegin_tx("pegin-small", users[3].private_key, [self.to_fed(400_000)])
        cases = (
            ("pegin_accepted", legacy),
            ("pegin_accepted_v1", v1),
            ("pegin_refunded", multisig),
            ("pegin_unrefundable", small),
        )
        for offset, (key, tx) in enumerate(cases, start=1):
            registering = [self.register(tx, base + offset - 1)]  # federator 0 has no tail txs
            block = self.at(first + offset, registering.copy)
            self.note(key, tx.txid)
            self.note(key + "_block", block.number)
            self.note(key + "_rsk_tx", "0x" + block.transactions[0].hash.hex())
        self.note("pegin_refund_address", p2sh_script(hash160(redeem)).hex())
        self.note("pegin_unknown", hashlib.sha256(b"never sent").hexdigest())

    def _pegouts(self, first: int) -> None:
        """Peg-outs: a delivered batch of three, a refusal, one at each stage after."""
        users, peg, fed0 = self.b.users, self.peg, self.federators[0]
        requests = ((users[3], 10), (users[4], 20), (users[5], 5))
        batch = self.at(first, lambda: [self.pegout(user, milli) for user, milli in requests])
        self.note("pegout_batch", ["0x" + tx.hash.hex() for tx in batch.transactions[:-1]])
        rejected = self.at(first + 1, lambda: [self.pegout(users[6], 1)])
        self.note("pegout_rejected", "0x" + rejected.transactions[0].hash.hex())
        created = self.at(first + 2, lambda: [self.call(fed0, "updateCollections()")])
        creation = "0x" + created.transactions[0].hash.hex()
        self.note("pegout_batch_block", created.number)
        refund_creation = self.facts["pegin_refunded_rsk_tx"]
        refund_confirm = self.facts["pegin_refunded_block"] + peg.pegout_confirmations
        self.at(
            max(refund_confirm, created.number + 1),
            lambda: [self.call(fed0, "updateCollections()")],
        )
        self.at(self.b.ledger.head.number + 1, lambda: [self.sign(0, refund_creation)])
        self.at(self.b.ledger.head.number + 1, lambda: [self.sign(1, refund_creation)])
        self._remasc(self.b.ledger.head.number + 2)
        confirm = max(created.number + peg.pegout_confirmations, self.b.ledger.head.number + 1)
        self.at(confirm, lambda: [self.call(fed0, "updateCollections()")])
        self.note("pegout_confirmed_block", confirm)
        self.at(confirm + 1, lambda: [self.sign(0, creation)])
        released = self.at(confirm + 2, lambda: [self.sign(1, creation)])
        self.note("pegout_release_block", released.number)
        self._return_change(released)
        self._later_pegouts()

    def _return_change(self, released: DevBlock) -> None:
        """Register the released peg-out back from Bitcoin: its change is the federation's."""
        raw = next(
            event.event.raw_tx
            for log in released.receipts[0].logs
            if (event := decode_bridge_log(["0x" + t.hex() for t in log.topics], log.data))
            and isinstance(event.event, ReleaseBtc)
        )
        height = self.btc_height + 1
        self.at(released.number + 1, lambda: [self.headers(self.peg.btc_confirmations + 1)])
        self.at(released.number + 2, lambda: [self.register(parse_tx(raw), height)])
        self.note("pegout_btc_txid", parse_tx(raw).txid)

    def _later_pegouts(self) -> None:
        """One peg-out waiting for signatures, one for confirmations, one still queued."""
        users, peg, fed0 = self.b.users, self.peg, self.federators[0]
        head, now = self.b.size.head, self.b.ledger.head.number
        next_batch = max(load_state(self.b.engine.state_at(now)).next_pegout_height, now + 6)

        signing = self.at(next_batch - 5, lambda: [self.pegout(users[8], 15)])
        self.note("pegout_signing", "0x" + signing.transactions[0].hash.hex())
        created = self.at(next_batch, lambda: [self.call(fed0, "updateCollections()")])
        confirm = created.number + peg.pegout_confirmations
        if confirm + 1 >= head - 40:
            confirm = created.number + 1  # no room: left waiting for confirmations instead
        else:
            self.at(confirm, lambda: [self.call(fed0, "updateCollections()")])
            self.at(confirm + 1, lambda: [self.sign(0, "0x" + created.transactions[0].hash.hex())])
        waiting = self.at(head - 30, lambda: [self.pegout(users[7], 12)])
        self.note("pegout_confirming", "0x" + waiting.transactions[0].hash.hex())
        self.at(head - 6, lambda: [self.call(fed0, "updateCollections()")])
        queued = self.at(head - 3, lambda: [self.pegout(users[9], 8)])
        self.note("pegout_queued", "0x" + queued.transactions[0].hash.hex())

    def _remasc(self, start: int) -> None:
        """Three blocks whose REMASC transaction pays for an older block's fees."""
        maturity, number = self.peg.remasc_maturity, start
        paid_blocks: list[int] = []
        labs = bytes.fromhex(self.peg.rsk_labs[2:])
        while len(paid_blocks) < 3:
            paid = self.b.ledger.blocks[number - maturity] if number > maturity else None
            if paid is not None and paid.paid_fees > 0:
                addresses = [f.address for f in self.federators]
                self.at(number, lambda: [], remasc=settlement(paid, labs, addresses))
                paid_blocks.append(number)
            number += 1
        self.note("remasc_blocks", paid_blocks)


def _pub(private_key: bytes) -> bytes:
    """Return a devnet key's compressed public key."""
    return compressed_pubkey(private_key)


def bridge_history(builder: HistoryBuilder) -> dict[str, Any]:
    """Mine the peg's part of the seeded history; return its facts for the manifest."""
    return BridgeHistory(builder).run()
