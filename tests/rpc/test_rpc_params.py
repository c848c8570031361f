"""Parameter validation: block selectors, call objects, log filters and method arity."""

from __future__ import annotations

from typing import Any

import pytest

from explorer.rpc.errors import InvalidInput
from explorer.rpc.methods import METHODS, method_spec
from explorer.rpc.params import (
    CallRequest,
    LogFilter,
    block_param,
    call_param,
    data_param,
    filter_param,
    quantity_param,
)

ADDRESS = "0x3843D583B0F087EC7E3476C3495E52DBDE5280B3"
HASH = "0x" + "Ab" * 32
TOPIC = "0x" + "11" * 32


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, "0x0"),
        (436, "0x1b4"),
        ("0x1b4", "0x1b4"),
        ("0x01B4", "0x1b4"),
        ("latest", "latest"),
        ("earliest", "earliest"),
        ("pending", "pending"),
    ],
)
def test_block_selector_canonical_forms(value: Any, expected: str) -> None:
    """Numbers and tags are accepted and sent in minimal hex."""
    assert block_param(value) == expected


@pytest.mark.parametrize(
    "value",
    [-1, True, None, 1.5, "436", "LATEST", "safe", "0x", "0xzz", "0x" + "1" * 17, [1], {}],
)
def test_block_selector_rejects(value: Any) -> None:
    """Anything else is refused before sending."""
    with pytest.raises(InvalidInput):
        block_param(value)


def test_block_hash_only_where_allowed() -> None:
    """A 32-byte hash is a selector only where the spec allows it."""
    assert block_param(HASH, allow_hash=True) == HASH.lower()
    with pytest.raises(InvalidInput, match="not a hash"):
        block_param(HASH)
    with pytest.raises(InvalidInput):
        block_param("0x" + "g" * 64, allow_hash=True)


def test_quantity_and_data_params() -> None:
    """Quantities become minimal hex; data becomes lowercase hex."""
    assert quantity_param(255) == "0xff"
    assert quantity_param("0x00ff") == "0xff"
    assert data_param(b"\x01\xab") == "0x01ab"
    assert data_param("0x01AB") == "0x01ab"
    for bad in (-1, False, "ff"):
        with pytest.raises(InvalidInput):
            quantity_param(bad)
    for bad in ("0x1", "01", 5):
        with pytest.raises(InvalidInput):
            data_param(bad)


def test_call_request_to_json() -> None:
    """A CallRequest becomes the spec's call object, leaving out unset fields."""
    call = CallRequest(to=ADDRESS, sender=ADDRESS, gas=21000, value=1, data=b"\x12")
    assert call.to_json() == {
        "from": ADDRESS.lower(),
        "to": ADDRESS.lower(),
        "gas": "0x5208",
        "value": "0x1",
        "data": "0x12",
    }
    assert call_param({"to": ADDRESS, "gasPrice": "0x01"}) == {
        "to": ADDRESS.lower(),
        "gasPrice": "0x1",
    }


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"from": ADDRESS},
        {"to": "0x1234"},
        {"to": ADDRESS, "gas": -1},
        {"to": ADDRESS, "data": "0x1"},
        {"to": ADDRESS, "input": "0x"},
        [ADDRESS],
        ADDRESS,
    ],
)
def test_call_object_rejects(value: Any) -> None:
    """`to` is required; fields must be well formed; unknown fields are refused."""
    with pytest.raises(InvalidInput):
        call_param(value)


def test_log_filter_forms() -> None:
    """Filters by range or by block hash; topics may be null, a topic or an OR-list."""
    by_range = LogFilter(from_block=1, to_block="latest", address=ADDRESS, topics=[TOPIC])
    assert by_range.to_json() == {
        "fromBlock": "0x1",
        "toBlock": "latest",
        "address": ADDRESS.lower(),
        "topics": [TOPIC],
    }
    by_hash = LogFilter(block_hash=HASH, topics=[None, [TOPIC, TOPIC], None, TOPIC])
    assert by_hash.to_json() == {
        "blockHash": HASH.lower(),
        "topics": [None, [TOPIC, TOPIC], None, TOPIC],
    }
    assert filter_param({}) == {}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"blockHash": HASH, "fromBlock": "0x1"}, "not both"),
        ({"blockHash": HASH, "toBlock": "latest"}, "not both"),
        ({"fromBlock": "0x10", "toBlock": "0x1"}, "after"),
        ({"topics": [None] * 5}, "at most 4"),
        ({"topics": [[]]}, "must not be empty"),
        ({"topics": ["0x12"]}, "32 bytes"),
        ({"topics": [[TOPIC, "0x12"]]}, "32 bytes"),
        ({"topics": [5]}, "topic 0"),
        ({"topics": TOPIC}, "array"),
        ({"fromBlock": HASH}, "not a hash"),
        ({"address": "0x12"}, "20 bytes"),
        ({"blockhash": HASH}, "unknown"),
        ([], "object"),
    ],
)
def test_log_filter_rules(value: Any, message: str) -> None:
    """The spec's §4.3 rules are enforced before sending."""
    with pytest.raises(InvalidInput, match=message):
        filter_param(value)


def test_all_26_methods_are_specified() -> None:
    """The table holds exactly the spec's 26 methods; only sendRawTransaction is not resent."""
    assert len(METHODS) == 27
    assert [name for name, spec in METHODS.items() if not spec.resendable] == [
        "eth_sendRawTransaction"
    ]


def test_method_arity_and_optional_params() -> None:
    """Too few or too many params are input errors.

    Optional ones left out are sent anyway, as rskj's overloads need them ("latest", false).
    """
    balance = method_spec("eth_getBalance")
    assert balance.check([ADDRESS]) == [ADDRESS.lower(), "latest"]
    assert balance.check([ADDRESS, None]) == [ADDRESS.lower(), "latest"]
    assert method_spec("eth_getBlockByNumber").check(["latest"]) == ["latest", False]
    assert method_spec("eth_getCode").check([ADDRESS, HASH]) == [
        ADDRESS.lower(),
        {"blockHash": HASH.lower()},
    ]
    assert balance.check([ADDRESS, HASH]) == [ADDRESS.lower(), HASH.lower()]
    with pytest.raises(InvalidInput, match="needs address"):
        balance.check([])
    with pytest.raises(InvalidInput, match="at most 2"):
        balance.check([ADDRESS, "latest", 1])
    with pytest.raises(InvalidInput, match="not a hash"):
        method_spec("eth_call").check([{"to": ADDRESS}, HASH])
    with pytest.raises(InvalidInput, match="unknown method"):
        method_spec("eth_sendTransaction")
