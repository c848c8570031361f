"""JSON-RPC failures the devnet node answers with, and rskj's codes and messages."""

from __future__ import annotations

INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
TRANSACTION_REJECTED = -32010
LOG_LIMIT_EXCEEDED = -32012
EXECUTION_REVERTED = -32015

NONCE_TOO_LOW = "transaction nonce too low"
INSUFFICIENT_FUNDS = "insufficient funds"
GAS_PRICE_TOO_LOW = "transaction's gas price lower than block's minimum"
GAS_LIMIT_TOO_HIGH = "transaction's gas limit higher than block's gas limit"
BASIC_COST_TOO_HIGH = "transaction's basic cost is above the gas limit"
ALREADY_KNOWN = "pending transaction with same hash already exists"
REPLACEMENT_UNDERPRICED = "pending transaction with same nonce and lower or equal gas price exists"
INVALID_CHAIN_ID = "transaction's chain id does not match the network's"
INVALID_SIGNATURE = "transaction signature is invalid"


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
    """An invalid-params failure (-32602) with a message saying what is wrong."""
    return RpcFailure(INVALID_PARAMS, f"Invalid params: {message}")


def rejected(message: str) -> RpcFailure:
    """A transaction-pool rejection (-32010) with one of rskj's messages."""
    return RpcFailure(TRANSACTION_REJECTED, message)
