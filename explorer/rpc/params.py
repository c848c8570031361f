"""Parameter types and their validation, done before any request is sent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import (
    HexFormatError,
    parse_address,
    parse_data,
    parse_hash,
    parse_quantity,
    to_data,
    to_quantity,
)
from explorer.rpc.errors import InvalidInput

BLOCK_TAGS = ("latest", "earliest", "pending")
MAX_TOPICS = 4

BlockSelector = int | str
"""A block number (int or hex), a tag (latest/earliest/pending), or a block hash."""

Topic = str | None | Sequence[str]
"""One topic position: None (any), a 32-byte topic, or a list of topics (any of them)."""


def _checked(parse: Any, value: object, what: str) -> Any:
    """Run a hexutil parser, turning its error into InvalidInput."""
    try:
        return parse(value, what)
    except HexFormatError as exc:
        raise InvalidInput(str(exc)) from None


def address_param(value: object, what: str = "address") -> str:
    """Validate a 20-byte address; return it lowercase."""
    return str(_checked(parse_address, value, what))


def hash_param(value: object, what: str = "hash") -> str:
    """Validate a 32-byte hash; return it lowercase."""
    return str(_checked(parse_hash, value, what))


def quantity_param(value: object, what: str = "quantity") -> str:
    """Validate a non-negative int or hex quantity; return it as a minimal hex quantity."""
    if isinstance(value, bool):
        raise InvalidInput(f"{what} must be a number, not a boolean")
    if isinstance(value, int):
        if value < 0:
            raise InvalidInput(f"{what} must not be negative")
        return to_quantity(value)
    if value in ("0x", "0X"):
        raise InvalidInput(f"{what} needs at least one hex digit")
    return to_quantity(_checked(parse_quantity, value, what))


def data_param(value: object, what: str = "data") -> str:
    """Validate bytes or hex data; return it as lowercase 0x hex."""
    if isinstance(value, bytes | bytearray):
        return to_data(bytes(value))
    return to_data(_checked(parse_data, value, what))


def bool_param(value: object, what: str = "flag") -> bool:
    """Validate a JSON boolean."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{what} must be true or false")
    return value


def block_param(value: object, *, allow_hash: bool = False, what: str = "block") -> str:
    """Validate a block selector: number, tag, or (where allowed) a 32-byte block hash."""
    if isinstance(value, str) and value in BLOCK_TAGS:
        return value
    if isinstance(value, str) and len(value) == 66 and value[:2] in ("0x", "0X"):
        if not allow_hash:
            raise InvalidInput(f"{what}: this method takes a block number or tag, not a hash")
        return hash_param(value, f"{what} hash")
    if isinstance(value, str) and not value.startswith(("0x", "0X")):
        tags = ", ".join(BLOCK_TAGS)
        raise InvalidInput(f"{what} must be a hex number or one of {tags}")
    number = quantity_param(value, f"{what} number")
    if len(number) > 18:
        raise InvalidInput(f"{what} number is out of range")
    return number


def _optional_entries(obj: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate the present, non-null entries of obj with the checker of each field."""
    unknown = sorted(set(obj) - set(fields))
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(unknown)}")
    return {key: fields[key](obj[key], key) for key in fields if obj.get(key) is not None}


@dataclass(frozen=True)
class CallRequest:
    """The call object of eth_call and eth_estimateGas (docs/service.md §2.2); `to` is required."""

    to: str
    sender: str | None = None
    gas: int | None = None
    gas_price: int | None = None
    value: int | None = None
    data: bytes | str | None = None

    def to_json(self) -> dict[str, Any]:
        """Validate and return the JSON call object."""
        return call_param(
            {
                "from": self.sender,
                "to": self.to,
                "gas": self.gas,
                "gasPrice": self.gas_price,
                "value": self.value,
                "data": self.data,
            }
        )


_CALL_FIELDS = {
    "from": address_param,
    "to": address_param,
    "gas": quantity_param,
    "gasPrice": quantity_param,
    "value": quantity_param,
    "data": data_param,
}


def call_param(value: object) -> dict[str, Any]:
    """Validate a call object (CallRequest or JSON object); return the JSON form."""
    if isinstance(value, CallRequest):
        return value.to_json()
    if not isinstance(value, Mapping):
        raise InvalidInput("the call object must be a JSON object")
    if value.get("to") is None:
        raise InvalidInput("the call object needs a 'to' address")
    return _optional_entries(value, _CALL_FIELDS)


def topic_param(value: object, position: int) -> str | list[str] | None:
    """Validate one topic position: null, a 32-byte topic, or a non-empty OR-list."""
    what = f"topic {position}"
    if value is None:
        return None
    if isinstance(value, str):
        return hash_param(value, what)
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        if not value:
            raise InvalidInput(f"{what}: an OR-list of topics must not be empty")
        return [hash_param(item, what) for item in value]
    raise InvalidInput(f"{what} must be null, a 32-byte topic or a list of topics")


def topics_param(value: object, what: str = "topics") -> list[str | list[str] | None]:
    """Validate the topics array: up to four positions."""
    if not isinstance(value, Sequence) or isinstance(value, str | bytes | bytearray):
        raise InvalidInput(f"{what} must be an array")
    if len(value) > MAX_TOPICS:
        raise InvalidInput(f"{what}: at most {MAX_TOPICS} positions")
    return [topic_param(item, index) for index, item in enumerate(value)]


def _block_number_or_tag(value: object, what: str) -> str:
    """Validate a fromBlock/toBlock value."""
    return block_param(value, what=what)


_FILTER_FIELDS = {
    "blockHash": hash_param,
    "address": address_param,
    "fromBlock": _block_number_or_tag,
    "toBlock": _block_number_or_tag,
    "topics": topics_param,
}


@dataclass(frozen=True)
class LogFilter:
    """The eth_getLogs filter (docs/service.md §4.3): blockHash OR fromBlock/toBlock, never both."""

    from_block: BlockSelector | None = None
    to_block: BlockSelector | None = None
    block_hash: str | None = None
    address: str | None = None
    topics: Sequence[Topic] | None = None

    def to_json(self) -> dict[str, Any]:
        """Validate and return the JSON filter object."""
        return filter_param(
            {
                "fromBlock": self.from_block,
                "toBlock": self.to_block,
                "blockHash": self.block_hash,
                "address": self.address,
                "topics": None if self.topics is None else list(self.topics),
            }
        )


def filter_param(value: object) -> dict[str, Any]:
    """Validate a log filter (LogFilter or JSON object); return the JSON form."""
    if isinstance(value, LogFilter):
        return value.to_json()
    if not isinstance(value, Mapping):
        raise InvalidInput("the log filter must be a JSON object")
    checked = _optional_entries(value, _FILTER_FIELDS)
    if "blockHash" in checked and ("fromBlock" in checked or "toBlock" in checked):
        raise InvalidInput("a log filter takes blockHash or fromBlock/toBlock, not both")
    start, end = checked.get("fromBlock", ""), checked.get("toBlock", "")
    if start.startswith("0x") and end.startswith("0x") and int(start, 16) > int(end, 16):
        raise InvalidInput("fromBlock is after toBlock")
    return checked
