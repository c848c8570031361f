"""The service's 26 methods (docs/service.md §4.2): positional parameters and how to check them.

Every call goes out in a form rskj accepts: rskj matches a Java overload by its exact number of
parameters (co/rsk/rpc/Web3EthModule.java, jsonrpc4j's JsonRpcBasicServer), so a parameter the
service calls optional is sent anyway, as `"latest"` or `false` (docs/service.md §11, §15).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from explorer.rpc.errors import InvalidInput
from explorer.rpc.params import (
    address_param,
    block_param,
    bool_param,
    call_param,
    data_param,
    filter_param,
    hash_param,
    quantity_param,
)

Checker = Callable[[Any], Any]


@dataclass(frozen=True)
class Param:
    """One positional parameter.

    Its name, its checker, and what is sent when the caller leaves it out (None: the caller must
    give it).
    """

    name: str
    check: Checker
    default: Any = None

    @property
    def required(self) -> bool:
        """Tell whether the caller must give the parameter."""
        return self.default is None


@dataclass(frozen=True)
class MethodSpec:
    """A method of the service and its positional parameters."""

    name: str
    params: tuple[Param, ...] = ()
    resendable: bool = True

    def check(self, args: Sequence[Any]) -> list[Any]:
        """Validate positional args (Python or JSON values).

        Return every JSON param, a left out (or None) optional one as its default.
        """
        if len(args) > len(self.params):
            raise InvalidInput(f"{self.name} takes at most {len(self.params)} parameter(s)")
        missing = [p.name for p in self.params[len(args) :] if p.required]
        if missing:
            raise InvalidInput(f"{self.name} needs {', '.join(missing)}")
        given = list(args) + [None] * (len(self.params) - len(args))
        return [
            param.check(param.default if value is None and not param.required else value)
            for param, value in zip(self.params, given, strict=True)
        ]


def _named(check: Callable[..., Any], what: str) -> Checker:
    """Bind the parameter name used in error messages."""
    return partial(check, what=what)


def code_block_param(value: object) -> Any:
    """Return a block for eth_getCode.

    A hash goes as EIP-1898 `{"blockHash": …}`, since rskj reads a bare identifier there as a tag or
    a number (EthModule.getCode).
    """
    checked = block_param(value, allow_hash=True, what="block")
    return {"blockHash": checked} if len(checked) == 66 else checked


ADDRESS = Param("address", _named(address_param, "address"))
BLOCK_HASH = Param("block hash", _named(hash_param, "block hash"))
TX_HASH = Param("transaction hash", _named(hash_param, "transaction hash"))
NUMBER_OR_TAG = Param("block", _named(block_param, "block"))
OPT_NUMBER_OR_TAG = Param("block", NUMBER_OR_TAG.check, default="latest")
ANY_BLOCK = Param("block", partial(block_param, allow_hash=True, what="block"))
OPT_ANY_BLOCK = Param("block", ANY_BLOCK.check, default="latest")
CODE_BLOCK = Param("block", code_block_param)
FULL = Param("full transactions", _named(bool_param, "full transactions"), default=False)
INDEX = Param("index", _named(quantity_param, "index"))
CALL = Param("call object", call_param)

METHODS: dict[str, MethodSpec] = {
    spec.name: spec
    for spec in (
        MethodSpec("eth_accounts"),
        MethodSpec("eth_blockNumber"),
        MethodSpec("eth_call", (CALL, NUMBER_OR_TAG)),
        MethodSpec("eth_chainId"),
        MethodSpec("eth_estimateGas", (CALL, OPT_NUMBER_OR_TAG)),
        MethodSpec("eth_gasPrice"),
        MethodSpec("eth_getBalance", (ADDRESS, OPT_ANY_BLOCK)),
        MethodSpec("eth_getBlockByHash", (BLOCK_HASH, FULL)),
        MethodSpec("eth_getBlockByNumber", (NUMBER_OR_TAG, FULL)),
        MethodSpec("eth_getCode", (ADDRESS, CODE_BLOCK)),
        MethodSpec("eth_getLogs", (Param("filter", filter_param),)),
        MethodSpec(
            "eth_getStorageAt",
            (ADDRESS, Param("position", _named(quantity_param, "position")), ANY_BLOCK),
        ),
        MethodSpec("eth_getTransactionByHash", (TX_HASH,)),
        MethodSpec("eth_getTransactionCount", (ADDRESS, OPT_ANY_BLOCK)),
        MethodSpec("eth_getTransactionReceipt", (TX_HASH,)),
        MethodSpec("eth_getBlockTransactionCountByHash", (BLOCK_HASH,)),
        MethodSpec("eth_getBlockTransactionCountByNumber", (NUMBER_OR_TAG,)),
        MethodSpec("eth_getTransactionByBlockHashAndIndex", (BLOCK_HASH, INDEX)),
        MethodSpec("eth_getTransactionByBlockNumberAndIndex", (NUMBER_OR_TAG, INDEX)),
        MethodSpec("eth_getUncleCountByBlockHash", (BLOCK_HASH,)),
        MethodSpec("eth_getUncleCountByBlockNumber", (NUMBER_OR_TAG,)),
        MethodSpec("eth_protocolVersion"),
        MethodSpec(
            "eth_sendRawTransaction",
            (Param("signed transaction", _named(data_param, "signed transaction")),),
            resendable=False,
        ),
        MethodSpec("net_version"),
        MethodSpec("rsk_getRawBlockHeaderByHash", (BLOCK_HASH,)),  # rskj's, not the service's
        MethodSpec("web3_clientVersion"),
        MethodSpec("web3_sha3", (Param("data", _named(data_param, "data")),)),
    )
}


def method_spec(name: str) -> MethodSpec:
    """Return the spec of a method of the service, or raise InvalidInput."""
    try:
        return METHODS[name]
    except KeyError:
        by_case = {known.lower(): known for known in METHODS}
        near = difflib.get_close_matches(name.lower(), by_case, n=1)
        hint = f" (did you mean {by_case[near[0]]}?)" if near else ""
        known = ", ".join(sorted(METHODS))
        raise InvalidInput(
            f"unknown method {name!r}{hint}; the service's methods are {known}"
        ) from None
