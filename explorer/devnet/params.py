"""Parse JSON-RPC params; anything malformed is an invalid-params failure (-32602)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from eth_typing import Address

from explorer.chain.hexutil import HexFormatError, parse_data, parse_fixed, parse_quantity
from explorer.devnet.errors import invalid_params
from explorer.devnet.evm import ZERO_ADDRESS, CallRequest

T = TypeVar("T")
MAX_QUANTITY = 2**256 - 1
TAGS = ("latest", "earliest", "pending")


@dataclass(frozen=True)
class BlockRef:
    """A block selector: a tag, a number or a hash (exactly one is set)."""

    tag: str | None = None
    number: int | None = None
    block_hash: bytes | None = None


def _hex(parse: Callable[[object], T], value: object, what: str) -> T:
    """Run a hexutil parser, turning its failures into -32602."""
    try:
        return parse(value)
    except (HexFormatError, ValueError, TypeError) as error:
        raise invalid_params(f"{what}: {error}") from None


def quantity(value: object, what: str = "quantity") -> int:
    """Return a hex quantity of at most 256 bits: `0x` and at least one digit (not `0x`, `0X1`)."""
    if not isinstance(value, str) or not value.startswith("0x") or len(value) == 2:
        raise invalid_params(f"{what} must be 0x followed by hex digits")
    number = _hex(lambda v: parse_quantity(v, what), value, what)
    if number > MAX_QUANTITY:
        raise invalid_params(f"{what} is larger than 256 bits")
    return number


def data(value: object, what: str = "data") -> bytes:
    """Hex data."""
    return _hex(lambda v: parse_data(v, what), value, what)


def address(value: object, what: str = "address") -> Address:
    """Return a 20-byte address."""
    return Address(bytes.fromhex(_hex(lambda v: parse_fixed(v, 20, what), value, what)[2:]))


def block_hash(value: object, what: str = "block hash") -> bytes:
    """Return a 32-byte hash."""
    return bytes.fromhex(_hex(lambda v: parse_fixed(v, 32, what), value, what)[2:])


def boolean(value: object, what: str = "flag") -> bool:
    """Return a JSON boolean."""
    if not isinstance(value, bool):
        raise invalid_params(f"{what} must be true or false")
    return value


def block_ref(value: object, *, allow_hash: bool) -> BlockRef:
    """Return a block number or tag, or (when allowed) a block hash or EIP-1898 object."""
    if isinstance(value, dict) and allow_hash:
        return _block_object(value)
    if isinstance(value, str) and value in TAGS:
        return BlockRef(tag=value)
    if allow_hash and isinstance(value, str) and len(value) == 66:
        return BlockRef(block_hash=block_hash(value))
    if not isinstance(value, str):
        raise invalid_params("invalid block identifier")
    return BlockRef(number=quantity(value, "block number"))


def _block_object(value: dict[str, Any]) -> BlockRef:
    """Return an EIP-1898 selector: {"blockHash": …} or {"blockNumber": …}."""
    if set(value) <= {"blockHash", "requireCanonical"} and "blockHash" in value:
        return BlockRef(block_hash=block_hash(value["blockHash"]))
    if set(value) == {"blockNumber"}:
        return block_ref(value["blockNumber"], allow_hash=False)
    raise invalid_params("invalid block identifier")


def arity(params: list[Any], required: int, optional: int = 0) -> list[Any]:
    """Check the number of params; pad the optional ones with None."""
    if not required <= len(params) <= required + optional:
        raise invalid_params(f"expected {required} to {required + optional} params")
    return params + [None] * (required + optional - len(params))


#: Members of a call object that rskj reads only to check they are numbers (CallArgumentsParam);
#: any other member it does not know (accessList, maxFeePerGas, type, …) is ignored.
CHECKED_ONLY = ("gasLimit", "nonce", "chainId")


def call_request(value: object) -> CallRequest:
    """Return a call object (§2.2); `to` may be absent to simulate a contract creation.

    As rskj 9 reads it (CallArgumentsParam, CallArgumentsToByteArray): `gasLimit`, `nonce` and
    `chainId` must be quantities but change nothing, `input` stands for `data`, and members it
    does not know are ignored, so the call objects ethers and web3.py send are accepted.
    """
    if not isinstance(value, dict):
        raise invalid_params("call object must be an object with the fields of §2.2")
    for name in CHECKED_ONLY:
        _optional_quantity(value.get(name), name)
    raw_data = value.get("input") if value.get("input") is not None else value.get("data")
    to = value.get("to")
    gas = value.get("gas")
    return CallRequest(
        sender=address(value["from"], "from") if value.get("from") is not None else ZERO_ADDRESS,
        to=address(to, "to") if to is not None else None,
        gas=quantity(gas, "gas") if gas is not None else None,
        gas_price=_optional_quantity(value.get("gasPrice"), "gasPrice"),
        value=_optional_quantity(value.get("value"), "value"),
        data=data(raw_data, "data") if raw_data is not None else b"",
    )


def _optional_quantity(value: object, what: str) -> int:
    """Return a quantity that defaults to zero when absent."""
    return 0 if value is None else quantity(value, what)
