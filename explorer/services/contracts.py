"""Contract tools: storage slots (EIP-1967 pre-filled) and read-contract calls.

Simulation (eth_call beside eth_estimateGas) lives in services/estimate.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eth_abi.abi import decode, encode
from eth_abi.exceptions import DecodingError, EncodingError
from eth_hash.auto import keccak

from explorer.chain.abi import DecodedParam
from explorer.chain.abi_input import AbiFunction, AbiInputError, parse_input
from explorer.rpc.errors import NodeError
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
