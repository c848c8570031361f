"""Methods a bare rskj 9 serves beyond the service's 26: filters, node status, raw RLP, txpool.

Served on the rskj profile only (docs/service.md §15.8 lists them, and those not served, with
rskj's source). The devnet holds no keys, so the wallet methods answer as rskj does with its
wallet disabled (EthModuleWalletDisabled, PersonalModuleWalletDisabled).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eth.abc import SignedTransactionAPI

from explorer.chain.hexutil import to_data, to_quantity
from explorer.devnet import params
from explorer.devnet.accountmethods import AccountMethods
from explorer.devnet.blockdata import TxRecord
from explorer.devnet.blocks import encoded_header
from explorer.devnet.errors import RpcFailure, rskj_invalid_params
from explorer.devnet.profile import DB_METHODS, PERSONAL_FORMS
from explorer.devnet.shapes import Json, tx_json

WALLET_DISABLED = -32604  # DisabledWalletException
WALLET_DISABLED_TEXT = "The local wallet feature is disabled"
LOCAL_WALLET_TEXT = "Local wallet is disabled in this node"  # EthModuleWalletDisabled
#: rpc_modules: the modules reference.conf enables, with their versions.
RPC_MODULES = {
    name: "1.0" for name in ("eth", "net", "rpc", "web3", "evm", "txpool", "personal", "rsk")
}
PROTOCOL_VERSION = "0x3e"


class RskjMethods(AccountMethods):
    """The rskj-only methods, over the chain view and its filters."""

    @staticmethod
    def fixed_answers() -> dict[str, Callable[[list[Any]], None]]:
        """Return handlers of the methods whose answer never changes (wallet refusals, db_*)."""

        def refuse(_: list[Any]) -> None:
            raise RpcFailure(WALLET_DISABLED, WALLET_DISABLED_TEXT)

        def nothing(_: list[Any]) -> None:
            return None

        handlers: dict[str, Callable[[list[Any]], None]] = dict.fromkeys(PERSONAL_FORMS, refuse)
        handlers.update(dict.fromkeys(DB_METHODS, nothing))
        return handlers

    # --- filters (Web3Impl, FilterManager); eth_newFilter is the node's, beside eth_getLogs ----

    def _m_eth_newBlockFilter(self, args: list[Any]) -> str:
        """Install a filter of new blocks' hashes."""
        return self.filters.install("blocks")

    def _m_eth_newPendingTransactionFilter(self, args: list[Any]) -> str:
        """Install a filter of the hashes of transactions that become pending."""
        return self.filters.install("pending")

    def _m_eth_uninstallFilter(self, args: list[Any]) -> bool:
        """Remove a filter; false when there was none."""
        (filter_id,) = args
        return self.filters.uninstall(_filter_id(filter_id))

    def _m_eth_getFilterChanges(self, args: list[Any]) -> list[Json]:
        """Return a filter's events since it was last polled."""
        (filter_id,) = args
        return self.filters.changes(_filter_id(filter_id))

    def _m_eth_getFilterLogs(self, args: list[Any]) -> list[Json]:
        """Return every event a filter holds."""
        (filter_id,) = args
        return self.filters.everything(_filter_id(filter_id))

    # --- the node itself (Web3Impl) ----------------------------------------------------------

    def _m_eth_syncing(self, args: list[Any]) -> bool:
        """Never syncing: the devnet is its own chain."""
        return False

    def _m_eth_mining(self, args: list[Any]) -> bool:
        """Tell whether blocks are being mined (false after evm_stopMining)."""
        return self.mining

    def _m_eth_coinbase(self, args: list[Any]) -> str:
        """Return the address new blocks are mined to."""
        return to_data(self._miner)

    def _m_eth_hashrate(self, args: list[Any]) -> str:
        """No proof of work is done: 0 hashes a second."""
        return "0x0"

    def _m_eth_netHashrate(self, args: list[Any]) -> int:
        """Return the network's hash rate, a JSON number in rskj (a BigInteger): 0."""
        return 0

    def _m_net_listening(self, args: list[Any]) -> bool:
        """Say the node listens, as a started rskj node does."""
        return True

    def _m_net_peerCount(self, args: list[Any]) -> str:
        """No peers."""
        return "0x0"

    def _m_net_peerList(self, args: list[Any]) -> list[str]:
        """No peers."""
        return []

    def _m_rsk_protocolVersion(self, args: list[Any]) -> str:
        """Return the protocol version eth_protocolVersion also answers."""
        return PROTOCOL_VERSION

    def _m_rpc_modules(self, args: list[Any]) -> dict[str, str]:
        """Return the modules a default rskj enables, with their versions."""
        return dict(RPC_MODULES)

    def _m_eth_getCompilers(self, args: list[Any]) -> list[str]:
        """Answer as rskj does, though its eth_compileSolidity is not there."""
        return ["solidity"]

    # --- the wallet, disabled ----------------------------------------------------------------

    def _m_eth_pendingTransactions(self, args: list[Any]) -> list[Json]:
        """Return the wallet's pending transactions: none, without a wallet."""
        return []

    def _m_eth_sign(self, args: list[Any]) -> None:
        """No keys to sign with."""
        raise rskj_invalid_params(LOCAL_WALLET_TEXT)

    def _m_eth_sendTransaction(self, args: list[Any]) -> None:
        """No keys to sign with: send signed transactions with eth_sendRawTransaction."""
        raise rskj_invalid_params(LOCAL_WALLET_TEXT)

    # --- raw RLP (RskModuleImpl) -------------------------------------------------------------

    def _m_rsk_getRawBlockHeaderByHash(self, args: list[Any]) -> str | None:
        """Return a block's header RLP (its keccak is the block hash), or null."""
        (value,) = args
        block = self._block(params.BlockRef(block_hash=params.block_hash(value)))
        return None if block is None else to_data(encoded_header(block, self._ledger.rules))

    def _m_rsk_getRawBlockHeaderByNumber(self, args: list[Any]) -> str | None:
        """Return the header RLP of a block by number, tag or hash, or null."""
        (value,) = args
        block = self._block(params.block_ref(value, allow_hash=True))
        return None if block is None else to_data(encoded_header(block, self._ledger.rules))

    def _m_rsk_getRawTransactionReceiptByHash(self, args: list[Any]) -> str | None:
        """Return a mined transaction's receipt RLP (as the receipts root covers it), or null."""
        (value,) = args
        location = self._ledger.tx_locations.get(params.block_hash(value, "transaction hash"))
        if location is None:
            return None
        receipt = self._ledger.blocks[location.number].receipts[location.index]
        return to_data(receipt.encoded)

    # --- txpool (TxPoolModuleImpl) -----------------------------------------------------------

    def _m_txpool_status(self, args: list[Any]) -> dict[str, int]:
        """How many transactions are pending and queued (JSON numbers)."""
        return {"pending": len(self._pool.pending()), "queued": len(self._pool.queued())}

    def _m_txpool_content(self, args: list[Any]) -> dict[str, Json]:
        """Return the pending and queued transactions by sender and nonce."""
        return self._pool_by_sender(_pool_tx_json)

    def _m_txpool_inspect(self, args: list[Any]) -> dict[str, Json]:
        """Return the pool by sender and nonce, as one-line summaries."""
        return self._pool_by_sender(_pool_tx_summary)

    def _pool_by_sender(self, shape: Callable[[SignedTransactionAPI], Any]) -> dict[str, Json]:
        """Group the pool's pending and queued transactions by sender, then nonce."""
        result: dict[str, Json] = {}
        for name, waiting in (("pending", self._pool.pending()), ("queued", self._pool.queued())):
            grouped: dict[str, dict[str, list[Any]]] = {}
            for tx in waiting:
                by_nonce = grouped.setdefault(bytes(tx.sender).hex(), {})  # no 0x, as rskj
                by_nonce.setdefault(str(tx.nonce), []).append(shape(tx))
            result[name] = grouped
        return result


def _filter_id(value: object) -> str:
    """Return a filter id: hex data, compared in lower case."""
    return to_data(params.data(value, "filter id"))


def _pool_tx_json(tx: SignedTransactionAPI) -> Json:
    """Shape a pool transaction as txpool_content does: a zero block hash, no number."""
    shaped = tx_json(TxRecord.from_signed(tx), None, None)
    shown = {key: shaped[key] for key in ("from", "gas", "gasPrice", "hash", "input", "nonce")}
    return {
        "blockHash": to_data(bytes(32)),
        "blockNumber": None,
        "transactionIndex": None,
        **shown,
        "to": to_data(bytes(tx.to)),
        "value": to_quantity(tx.value),
    }


def _pool_tx_summary(tx: SignedTransactionAPI) -> str:
    """Sum up a pool transaction as txpool_inspect: `<to>: <value> wei + <gas> x <price> gas`."""
    return f"{bytes(tx.to).hex()}: {tx.value} wei + {tx.gas} x {tx.gas_price} gas"
