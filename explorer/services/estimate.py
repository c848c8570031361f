"""Gas estimates and dry runs of a call object, whichever way the node treats a revert.

The hosted service answers eth_estimateGas with an estimate even when the call fails
(docs/service.md §4.3.1); rskj answers a reverting call with -32015 and the revert data, as
for eth_call (§11, co/rsk/rpc/modules/eth/EthModule.java). `preflight` runs eth_call beside
the estimate, so a revert is seen on either node: the simulate tool and the check before a
broadcast both use it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.nodefailures import NodeFailure
from explorer.rpc.params import BlockSelector
from explorer.rpc.wrappers import TypedCalls

# docs/service.md §4.3.1 (the hosted service) and rskj's -32015 (a bare node), in plain words.
SPEC_RULE = (
    "The hosted service may estimate gas even for a call that would fail, while a plain rskj "
    "node refuses to estimate one; so the eth_call result and its revert reason are shown "
    "beside the estimate."
)


@dataclass(frozen=True)
class GasEstimate:
    """What eth_estimateGas said: the gas, or that the call reverts, or another error."""

    gas: int | None
    reverts: bool = False  # the node refused to estimate because the call reverts (rskj)
    reason: str | None = None
    error: RpcError | None = None


async def estimate_gas(
    client: TypedCalls, call: dict[str, Any], block: BlockSelector = "latest"
) -> GasEstimate:
    """Ask for an estimate; a refusal because the call reverts is an answer, not an error."""
    try:
        return GasEstimate(await client.estimate_gas(call, block))
    except NodeError as error:
        if error.failure is NodeFailure.REVERTED:
            return GasEstimate(None, True, error.revert_reason, error)
        return GasEstimate(None, error=error)
    except RpcError as error:
        return GasEstimate(None, error=error)


@dataclass(frozen=True)
class Preflight:
    """eth_call and eth_estimateGas of one call object, each with its own outcome."""

    output: bytes | None
    call_error: RpcError | None
    estimate: GasEstimate

    @property
    def call_reverts(self) -> bool:
        """Tell whether eth_call says the execution reverts."""
        return isinstance(self.call_error, NodeError) and (
            self.call_error.failure is NodeFailure.REVERTED
        )

    @property
    def would_fail(self) -> bool:
        """Tell whether the execution fails, by either answer."""
        return self.output is None or self.estimate.reverts

    @property
    def revert_reason(self) -> str | None:
        """Return the decoded revert reason, from whichever answer carried it."""
        from_call = (
            self.call_error.revert_reason if isinstance(self.call_error, NodeError) else None
        )
        return from_call or self.estimate.reason

    @property
    def estimate_despite_failure(self) -> bool:
        """Tell whether the node estimated gas for a call that fails (the service, §4.3.1)."""
        return self.estimate.gas is not None and self.output is None


async def preflight(
    client: TypedCalls, call: dict[str, Any], block: BlockSelector = "latest"
) -> Preflight:
    """Run eth_call and eth_estimateGas concurrently for the call object (docs/service.md §2.2)."""
    called, estimated = await asyncio.gather(
        client.eth_call(call, block), estimate_gas(client, call, block), return_exceptions=True
    )
    if isinstance(estimated, BaseException):
        raise estimated
    if isinstance(called, BaseException) and not isinstance(called, RpcError):
        raise called
    if isinstance(called, RpcError):
        return Preflight(None, called, estimated)
    return Preflight(called, None, estimated)
