"""Typed wrappers for the service's 26 methods, returning chain records and ints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from explorer.chain import bounds
from explorer.chain.bounds import OutOfRange
from explorer.chain.hexutil import (
    HexFormatError,
    parse_address,
    parse_data,
    parse_hash,
    parse_optional_data,
)
from explorer.chain.records import Block, Log, Receipt, RecordFormatError, Transaction
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.params import BlockSelector, CallRequest, LogFilter

T = TypeVar("T")
Call = CallRequest | dict[str, Any]
Filter = LogFilter | dict[str, Any]


def _text(value: object) -> str:
    """Return value if it is a string."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def _array(value: object) -> list[Any]:
    """Return value if it is a JSON array."""
    if not isinstance(value, list):
        raise TypeError(f"expected an array, got {type(value).__name__}")
    return value


def _or_none(parse: Callable[[Any], T]) -> Callable[[Any], T | None]:
    """Wrap a parser so that `null` (not found) gives None."""
    return lambda value: None if value is None else parse(value)


def _logs(value: object) -> list[Log]:
    """Parse an array of log objects."""
    return [Log.from_json(item) for item in _array(value)]


def _addresses(value: object) -> list[str]:
    """Parse an array of addresses."""
    return [parse_address(item) for item in _array(value)]


_block = _or_none(Block.from_json)
_transaction = _or_none(Transaction.from_json)
_receipt = _or_none(Receipt.from_json)


class TypedCalls:
    """The typed face of the client; subclasses provide `request` (validate, send, raw result).

    Every quantity is checked against what its field can be on a real chain: an absurd one is
    a MalformedResponse naming the node (`node_name`), like an answer that is not JSON.
    """

    node_name = "the node"

    async def request(self, method: str, *args: Any) -> Any:
        """Validate args for method, send the call and return the raw result."""
        raise NotImplementedError

    async def _typed(self, parse: Callable[[Any], T], method: str, *args: Any) -> T:
        """Send a call and parse its result, turning a bad shape into MalformedResponse."""
        raw = await self.request(method, *args)
        try:
            return parse(raw)
        except (RecordFormatError, HexFormatError, TypeError) as exc:
            if isinstance(exc, OutOfRange) or isinstance(exc.__cause__, OutOfRange):
                raise MalformedResponse(
                    f"{self.node_name} sent an impossible {method} answer: {exc}"
                ) from None
            raise MalformedResponse(f"{method} returned an unexpected shape: {exc}") from None

    async def accounts(self) -> list[str]:
        """eth_accounts: addresses the node holds keys for (always empty here)."""
        return await self._typed(_addresses, "eth_accounts")

    async def block_number(self) -> int:
        """eth_blockNumber: the number of the most recent block."""
        return await self._typed(bounds.BLOCK_NUMBER.parse, "eth_blockNumber")

    async def eth_call(self, call: Call, block: BlockSelector = "latest") -> bytes:
        """eth_call: run a read-only call and return its output bytes."""
        return await self._typed(parse_data, "eth_call", call, block)

    async def chain_id(self) -> int:
        """eth_chainId: 31 on the test network, 30 on the main network."""
        return await self._typed(bounds.CHAIN_ID.parse, "eth_chainId")

    async def estimate_gas(self, call: Call, block: BlockSelector | None = None) -> int:
        """eth_estimateGas: the gas a call would use (simulated, not sent)."""
        return await self._typed(bounds.GAS.parse, "eth_estimateGas", call, block)

    async def gas_price(self) -> int:
        """eth_gasPrice: the current gas price in wei."""
        return await self._typed(bounds.WORD.parse, "eth_gasPrice")

    async def get_balance(self, address: str, block: BlockSelector | None = None) -> int:
        """eth_getBalance: the native balance in wei (at block; latest by default)."""
        return await self._typed(bounds.WORD.parse, "eth_getBalance", address, block)

    async def get_block_by_hash(self, block_hash: str, full: bool = False) -> Block | None:
        """eth_getBlockByHash: the block, with full transactions if asked, or None."""
        return await self._typed(_block, "eth_getBlockByHash", block_hash, full)

    async def get_block_by_number(self, block: BlockSelector, full: bool = False) -> Block | None:
        """eth_getBlockByNumber: the block, with full transactions if asked, or None."""
        return await self._typed(_block, "eth_getBlockByNumber", block, full)

    async def get_raw_block_header_by_hash(self, block_hash: str) -> bytes | None:
        """rsk_getRawBlockHeaderByHash (rskj): the header's own RLP, or None."""
        return await self._typed(parse_optional_data, "rsk_getRawBlockHeaderByHash", block_hash)

    async def get_code(self, address: str, block: BlockSelector = "latest") -> bytes:
        """eth_getCode: the byte code at address (empty for accounts)."""
        return await self._typed(parse_data, "eth_getCode", address, block)

    async def get_logs(self, log_filter: Filter) -> list[Log]:
        """eth_getLogs: the logs matching the filter."""
        return await self._typed(_logs, "eth_getLogs", log_filter)

    async def get_storage_at(
        self, address: str, position: int, block: BlockSelector = "latest"
    ) -> bytes:
        """eth_getStorageAt: the 32-byte storage word at position."""
        return await self._typed(parse_data, "eth_getStorageAt", address, position, block)

    async def get_transaction_by_hash(self, tx_hash: str) -> Transaction | None:
        """eth_getTransactionByHash: the transaction, or None."""
        return await self._typed(_transaction, "eth_getTransactionByHash", tx_hash)

    async def get_transaction_count(self, address: str, block: BlockSelector | None = None) -> int:
        """eth_getTransactionCount: transactions sent from address (the next nonce)."""
        return await self._typed(bounds.NONCE.parse, "eth_getTransactionCount", address, block)

    async def get_transaction_receipt(self, tx_hash: str) -> Receipt | None:
        """eth_getTransactionReceipt: the receipt, or None (unknown or pending)."""
        return await self._typed(_receipt, "eth_getTransactionReceipt", tx_hash)

    async def get_block_transaction_count_by_hash(self, block_hash: str) -> int | None:
        """eth_getBlockTransactionCountByHash: the block's transaction count, or None."""
        return await self._typed(
            bounds.COUNT.parse_optional, "eth_getBlockTransactionCountByHash", block_hash
        )

    async def get_block_transaction_count_by_number(self, block: BlockSelector) -> int | None:
        """eth_getBlockTransactionCountByNumber: the block's transaction count, or None."""
        return await self._typed(
            bounds.COUNT.parse_optional, "eth_getBlockTransactionCountByNumber", block
        )

    async def get_transaction_by_block_hash_and_index(
        self, block_hash: str, index: int
    ) -> Transaction | None:
        """eth_getTransactionByBlockHashAndIndex: the transaction at index, or None."""
        return await self._typed(
            _transaction, "eth_getTransactionByBlockHashAndIndex", block_hash, index
        )

    async def get_transaction_by_block_number_and_index(
        self, block: BlockSelector, index: int
    ) -> Transaction | None:
        """eth_getTransactionByBlockNumberAndIndex: the transaction at index, or None."""
        return await self._typed(
            _transaction, "eth_getTransactionByBlockNumberAndIndex", block, index
        )

    async def get_uncle_count_by_block_hash(self, block_hash: str) -> int | None:
        """eth_getUncleCountByBlockHash: the block's uncle count, or None."""
        return await self._typed(
            bounds.COUNT.parse_optional, "eth_getUncleCountByBlockHash", block_hash
        )

    async def get_uncle_count_by_block_number(self, block: BlockSelector) -> int | None:
        """eth_getUncleCountByBlockNumber: the block's uncle count, or None."""
        return await self._typed(
            bounds.COUNT.parse_optional, "eth_getUncleCountByBlockNumber", block
        )

    async def protocol_version(self) -> str:
        """eth_protocolVersion: the protocol version string (e.g. `0x3e`)."""
        return await self._typed(_text, "eth_protocolVersion")

    async def send_raw_transaction(self, signed: bytes | str) -> str:
        """eth_sendRawTransaction: submit a signed transaction; never resent automatically."""
        return await self._typed(parse_hash, "eth_sendRawTransaction", signed)

    async def net_version(self) -> str:
        """net_version: the network id as a decimal string ("31" test, "30" main)."""
        return await self._typed(_text, "net_version")

    async def client_version(self) -> str:
        """web3_clientVersion: the node software's version string."""
        return await self._typed(_text, "web3_clientVersion")

    async def sha3(self, data: bytes | str) -> str:
        """web3_sha3: the Keccak-256 hash of data, computed by the node."""
        return await self._typed(parse_hash, "web3_sha3", data)
