"""eth_call and eth_estimateGas on a block's state; reverts in rskj's words (EthModule.java)."""

from __future__ import annotations

from eth.abc import StateAPI
from eth.exceptions import Revert
from eth_abi.abi import decode
from eth_abi.exceptions import DecodingError
from eth_utils.exceptions import ValidationError

from explorer.chain.hexutil import to_data
from explorer.devnet.errors import EXECUTION_REVERTED, RpcFailure, invalid_params
from explorer.devnet.evm import BlockContext, CallRequest, Engine

VM_EXCEPTION = "VM Exception while processing transaction"
ERROR_SELECTOR = bytes.fromhex("08c379a0")  # Error(string)
GAS_ESTIMATION_CAP = 6_800_000  # reference.conf rpc.gasEstimationCap


def call_output(
    engine: Engine, request: CallRequest, state: StateAPI, context: BlockContext
) -> bytes:
    """Return what a call returns on a block's state, in its context; -32015 when it reverts.

    rskj reports a revert only: a call that fails otherwise (out of gas, an invalid
    instruction) answers its (empty) return data.
    """
    try:
        computation = engine.call(request, state, context)
    except ValidationError as error:
        raise invalid_params(f"call cannot run: {error}") from None
    if computation.is_error and isinstance(computation.error, Revert):
        raise revert_failure(bytes(computation.output))
    return bytes(computation.output)


def estimate(
    engine: Engine,
    request: CallRequest,
    state: StateAPI,
    context: BlockContext,
    *,
    reverts_fail: bool,
) -> int:
    """Return the gas for a call, capped at rskj's estimation cap.

    -32015 first if it reverts and reverts_fail (rskj), else an estimate whatever happens (the
    service, §4.3.1).
    """
    if reverts_fail:
        call_output(engine, request, state, context)
    return min(engine.estimate_gas(request, state, context), GAS_ESTIMATION_CAP)


def _error_string(output: bytes) -> str | None:
    """Return the text of an Error(string) revert, the only reason rskj decodes."""
    if output[:4] != ERROR_SELECTOR:
        return None
    try:
        (text,) = decode(["string"], output[4:])
    except (DecodingError, OverflowError, ValueError):
        return None
    return str(text)


def revert_failure(output: bytes) -> RpcFailure:
    """Return -32015 for a reverted call.

    `revert <reason>` when it gave an Error(string), else `transaction reverted`; the revert bytes
    as data.
    """
    reason = _error_string(output)
    words = "transaction reverted" if reason is None else f"revert {reason}"
    return RpcFailure(EXECUTION_REVERTED, f"{VM_EXCEPTION}: {words}", to_data(output))
