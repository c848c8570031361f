"""eth_call: run a call object on a block's state; failures in rskj's words."""

from __future__ import annotations

from eth.exceptions import Revert
from eth_utils.exceptions import ValidationError

from explorer.chain.hexutil import to_data
from explorer.chain.revert import decode_revert_reason
from explorer.devnet.errors import EXECUTION_REVERTED, RpcFailure, invalid_params
from explorer.devnet.evm import CallRequest, Engine

VM_EXCEPTION = "VM Exception while processing transaction"


def call_output(engine: Engine, request: CallRequest, number: int) -> bytes:
    """Return the return data of a call on top of block number; -32015 when it fails."""
    try:
        computation = engine.call(request, number)
    except ValidationError as error:
        raise invalid_params(f"call cannot run: {error}") from None
    if computation.is_error:
        raise execution_failure(computation.error, bytes(computation.output))
    return bytes(computation.output)


def execution_failure(error: Exception, output: bytes) -> RpcFailure:
    """-32015 for a failed call: the revert reason and revert bytes when it reverted."""
    if isinstance(error, Revert):
        reason = decode_revert_reason(output) or ""
        message = f"{VM_EXCEPTION}: revert {reason}".rstrip()
        return RpcFailure(EXECUTION_REVERTED, message, to_data(output))
    return RpcFailure(EXECUTION_REVERTED, f"{VM_EXCEPTION}: {error}")
