"""Contract tools: storage slots (EIP-1967 pre-filled), read-contract calls and simulation."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eth_abi.abi import decode, encode
from eth_abi.exceptions import DecodingError, EncodingError
from eth_hash.auto import keccak

from explorer.chain.abi import DecodedParam
from explorer.chain.abi_input import AbiFunction, AbiInputError, parse_input
from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.params import BlockSelector
from explorer.rpc.wrappers import TypedCalls

ZERO_PREFIX = bytes(12)


def _eip1967_slot(label: str) -> int:
    """Return the EIP-1967 slot for a label: keccak256(label) - 1."""
    return int.from_bytes(keccak(label.encode("ascii")), "big") - 1


PROXY_SLOTS: dict[str, int] = {
    "EIP-1967 implementation": _eip1967_slot("eip1967.proxy.implementation"),
    "EIP-1967 admin": _eip1967_slot("eip1967.proxy.admin"),
    "EIP-1967 beacon": _eip1967_slot("eip1967.proxy.beacon"),
}


def parse_slot(text: str) -> int:
    """Parse a storage slot typed as decimal or 0x hex; ValueError when it is not one."""
    value = parse_input("uint256", text.strip())
    assert isinstance(value, int)
    return value


@dataclass(frozen=True)
class SlotValue:
    """A storage word and, when it looks like one, the address it holds."""

    slot: int
    word: bytes

    @property
    def address(self) -> str | None:
        """Return the word as an address when its top 12 bytes are zero and the rest is not."""
        if len(self.word) == 32 and self.word[:12] == ZERO_PREFIX and any(self.word[12:]):
            return "0x" + self.word[12:].hex()
        return None

    @property
    def short_string(self) -> str | None:
        """Return the text of an inline Solidity short string (length * 2 in the last byte)."""
        length, flag = divmod(self.word[-1], 2) if self.word else (0, 1)
        body = self.word[:length]
        if flag or not 0 < length <= 31 or any(self.word[length:-1]):
            return None
        text = body.decode("utf-8", errors="replace")
        return text if text.isprintable() else None

    @property
    def number(self) -> int:
        """Return the word as an unsigned integer."""
        return int.from_bytes(self.word, "big")


async def read_slot(
    client: TypedCalls, address: str, slot: int, block: BlockSelector = "latest"
) -> SlotValue:
    """Read one storage slot."""
    word = await client.get_storage_at(address, slot, block)
    return SlotValue(slot, word.rjust(32, b"\0")[-32:] if word else bytes(32))


@dataclass(frozen=True)
class ReadResult:
    """A read-contract call: decoded outputs, or an error with a revert reason."""

    function: AbiFunction
    outputs: tuple[DecodedParam, ...] = ()
    raw: bytes = b""
    error: str = ""


def encode_call(function: AbiFunction, texts: Sequence[str], chain_id: int | None) -> bytes:
    """Encode typed user inputs as calldata; AbiInputError names the bad input."""
    if len(texts) != len(function.inputs):
        raise AbiInputError(f"{function.name} takes {len(function.inputs)} inputs")
    values = []
    for param, text in zip(function.inputs, texts, strict=True):
        try:
            values.append(parse_input(param.type, text, chain_id))
        except AbiInputError as error:
            raise AbiInputError(f"{param.name or param.type}: {error}") from None
    try:
        return function.selector + encode([p.type for p in function.inputs], values)
    except EncodingError as error:
        raise AbiInputError(str(error)) from None


def _output_text(value: Any) -> str:
    """Return readable text for a decoded value."""
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_output_text(v) for v in value) + "]"
    return str(value)


def decode_outputs(function: AbiFunction, raw: bytes) -> tuple[DecodedParam, ...]:
    """Decode a call's output bytes with the function's output types."""
    types = [p.type for p in function.outputs]
    values = decode(types, raw)
    return tuple(
        DecodedParam(p.name, p.type, v, _output_text(v))
        for p, v in zip(function.outputs, values, strict=True)
    )


async def read_contract(
    client: TypedCalls,
    address: str,
    function: AbiFunction,
    texts: Sequence[str],
    block: BlockSelector = "latest",
    chain_id: int | None = None,
) -> ReadResult:
    """Call a function with typed inputs at block and decode its outputs."""
    data = encode_call(function, texts, chain_id)
    try:
        raw = await client.eth_call({"to": address, "data": "0x" + data.hex()}, block)
    except NodeError as error:
        reason = error.revert_reason
        return ReadResult(function, error=f"reverted: {reason}" if reason else error.message)
    try:
        return ReadResult(function, decode_outputs(function, raw), raw)
    except (DecodingError, OverflowError, ValueError) as exc:
        return ReadResult(function, raw=raw, error=f"the output does not decode: {exc}")


SPEC_RULE = (
    "eth_estimateGas may return an estimate even when the call would fail (service rule §4.3.1), "
    "so the eth_call result and its revert reason are shown alongside the estimate."
)


@dataclass(frozen=True)
class Simulation:
    """eth_call and eth_estimateGas of one call object, each with its own outcome."""

    output: bytes | None
    call_error: str
    revert_reason: str | None
    gas_estimate: int | None
    estimate_error: str

    @property
    def would_fail(self) -> bool:
        """Tell whether eth_call says the execution fails."""
        return self.output is None


async def simulate(
    client: TypedCalls, call: dict[str, Any], block: BlockSelector = "latest"
) -> Simulation:
    """Run eth_call and eth_estimateGas concurrently for the call object (docs/service.md §2.2)."""
    called, estimated = await asyncio.gather(
        client.eth_call(call, block), client.estimate_gas(call), return_exceptions=True
    )
    for outcome in (called, estimated):
        if isinstance(outcome, BaseException) and not isinstance(outcome, RpcError):
            raise outcome
    output = called if isinstance(called, bytes) else None
    reason = called.revert_reason if isinstance(called, NodeError) else None
    return Simulation(
        output,
        called.message if isinstance(called, RpcError) else "",
        reason,
        estimated if isinstance(estimated, int) else None,
        estimated.message if isinstance(estimated, RpcError) else "",
    )
