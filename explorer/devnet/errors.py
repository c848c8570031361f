"""JSON-RPC failures the devnet node answers with, and rskj's codes and messages."""

from __future__ import annotations

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
TRANSACTION_REJECTED = -32010
RPC_LIMIT = -32011
LOG_LIMIT_EXCEEDED = -32012
EXECUTION_REVERTED = -32015
SERVER_ERROR = -32000  # JSON-RPC 2.0's implementation-defined server errors (the devnet's own)
STILL_BUILDING_TEXT = (
    "The local devnet is still building its older history, which this call needs (a first "
    "start only, about a minute): ask again shortly."
)

NONCE_TOO_LOW = "transaction nonce too low"
NONCE_TOO_HIGH = "transaction nonce too high"
INSUFFICIENT_FUNDS = "insufficient funds"
PENDING_FUNDS = "insufficient funds to pay for pending and new transactions"
NO_SENDER_ACCOUNT = "the sender account doesn't exist"
GAS_PRICE_TOO_LOW = "transaction's gas price lower than block's minimum"
BASIC_COST_TOO_HIGH = "transaction's basic cost is above the gas limit"
PENDING_KNOWN = "pending transaction with same hash already exists"
QUEUED_KNOWN = "queued transaction with same hash already exists"
BUMP_TOO_LOW = "gas price not enough to bump transaction"
TOO_LARGE = "transaction's size is higher than defined maximum"

# jsonrpc4j's and rskj's words for the envelope and the server's limits.
METHOD_NOT_FOUND_TEXT = "method not found"  # co/rsk/rpc/netty/JsonRpcCustomServer.java
PARAMS_INVALID_TEXT = "method parameters invalid"  # jsonrpc4j JsonError.METHOD_PARAMS_INVALID
TIMEOUT_TEXT = "Execution has got timeout out."  # co/rsk/rpc/exception/JsonRpcTimeoutError.java


class RpcFailure(Exception):
    """A JSON-RPC error answer: code, message and optional data (hex string)."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(code, message, data)
        self.code = code
        self.message = message
        self.data = data

    def __str__(self) -> str:
        """Show code and message, as in the error object."""
        return f"{self.code}: {self.message}"


def invalid_params(message: str) -> RpcFailure:
    """Return an invalid-params failure (-32602) with a message saying what is wrong."""
    return RpcFailure(INVALID_PARAMS, f"Invalid params: {message}")


def rskj_invalid_params(message: str) -> RpcFailure:
    """Return a -32602 in rskj's own words (RskJsonRpcRequestException.invalidParamError)."""
    return RpcFailure(INVALID_PARAMS, message)


def block_not_found(what: str) -> RpcFailure:
    """Return rskj's -32600 for a state read at a block it lacks (Web3InformationRetriever)."""
    return RpcFailure(INVALID_REQUEST, f"Block {what} not found")


def response_too_large(limit: int) -> str:
    """Return rskj's words for an answer over rpc.maxResponseSize (JsonRpcResponseLimitError)."""
    return f"Response size limit of {limit} bytes exceeded"


def gas_limit_too_high(gas: int, limit: int) -> str:
    """Return rskj's words for a transaction asking more gas than a block holds."""
    return f"transaction's gas limit of {gas} is higher than the block's gas limit of {limit}"


def rejected(message: str) -> RpcFailure:
    """Return a transaction-pool rejection (-32010) with one of rskj's messages."""
    return RpcFailure(TRANSACTION_REJECTED, message)
