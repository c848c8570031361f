"""The tools' pure parts against known vectors, with eth-abi and eth-utils as independent checks."""

from __future__ import annotations

import pytest
from eth_abi.abi import decode, encode
from eth_utils.abi import function_signature_to_4byte_selector
from eth_utils.address import to_checksum_address as eth_utils_checksum
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.abi_input import AbiInputError
from explorer.chain.tools import (
    HashInput,
    abi_table,
    amount_query,
    checksum_forms,
    convert_amount,
    encode_call,
    keccak_hex,
    keccak_input,
    lookup,
)
from explorer.chain.units import format_units
from explorer.presentation.document import Tone
from explorer.presentation.simulation import call_object
from explorer.presentation.tool_results import abi_decode_result, abi_encode_result
from explorer.services.network_forms import NetworkForm, custom_form_errors, parse_chain_id

EMPTY_KECCAK = "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
HELLO_KECCAK = "0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8"
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
# RSKIP-60 / EIP-1191 vectors (docs: Rootstock address checksums)
EIP1191 = {
    30: (
        "0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD",
        "0xFb6916095cA1Df60bb79ce92cE3EA74c37c5d359",
    ),
    31: (
        "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd",
        "0xFb6916095CA1dF60bb79CE92ce3Ea74C37c5D359",
    ),
}
EIP55 = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


def test_keccak_of_text_and_of_hex() -> None:
    """Keccak-256 (not SHA3-256): empty input and `hello`, as text and as the same bytes in hex."""
    assert keccak_hex(b"") == EMPTY_KECCAK
    data, how = keccak_input("hello")
    assert (keccak_hex(data), how) == (HELLO_KECCAK, HashInput.TEXT)
    data, how = keccak_input("0x68656c6c6f")
    assert (keccak_hex(data), how) == (HELLO_KECCAK, HashInput.HEX)
    assert keccak_input("0x68656c6c6f", HashInput.TEXT)[0] == b"0x68656c6c6f"
    with pytest.raises(ValueError, match="hex"):
        keccak_input("0x123", HashInput.HEX)


def test_units_are_exact_both_ways() -> None:
    """1.5 RBTC is 1.5e18 wei exactly; a fraction of a wei is refused."""
    assert convert_amount("1.5", "rbtc") == {
        "wei": "1,500,000,000,000,000,000",
        "gwei": "1,500,000,000",
        "RBTC": "1.5",
    }
    assert convert_amount("60", "gwei")["RBTC"] == "0.00000006"
    with pytest.raises(ValueError, match="not a whole number of wei"):
        convert_amount("0.1", "wei")
    with pytest.raises(ValueError, match="gwei has at most 9 decimal places"):
        convert_amount("0.0000000001", "gwei")
    assert amount_query("1.5 tRBTC") == ("1.5", "RBTC")
    assert amount_query("21,000 gwei") == ("21,000", "gwei")
    assert amount_query("1.5") is None


@given(st.integers(min_value=0, max_value=10**40))
def test_units_round_trip(wei: int) -> None:
    """Any wei amount shown in RBTC reads back as the same wei."""
    rbtc = format_units(wei, 18, grouping=False)
    assert convert_amount(rbtc, "RBTC")["wei"] == f"{wei:,}"


@pytest.mark.parametrize("chain", sorted(EIP1191))
def test_eip1191_vectors(chain: int) -> None:
    """Each vector's checksum for its chain, and the typed case says which it matches."""
    for vector in EIP1191[chain]:
        forms = checksum_forms(vector.lower())
        assert forms.eip1191[chain] == vector
        assert forms.single_case
        assert f"EIP-1191 chain {chain}" in checksum_forms(vector).matches


def test_eip55_is_the_checksum_without_a_chain() -> None:
    """EIP-55 as eth-utils computes it; a case matching nothing says so."""
    forms = checksum_forms(EIP55)
    assert forms.eip55 == eth_utils_checksum(EIP55.lower()) == EIP55
    assert forms.matches == ("EIP-55",)
    assert checksum_forms(EIP55[:-1] + "D").matches == ()


@given(st.integers(min_value=0, max_value=2**256 - 1), st.binary(min_size=20, max_size=20))
def test_encode_call_round_trips_through_eth_abi(amount: int, to: bytes) -> None:
    """Calldata of transfer(address,uint256) decodes with eth-abi to the arguments typed."""
    address = "0x" + to.hex()
    data = encode_call("transfer(address to, uint256 amount)", [address, str(amount)], 31)
    assert data[:4] == function_signature_to_4byte_selector("transfer(address,uint256)")
    assert decode(["address", "uint256"], data[4:]) == (address, amount)


def test_encode_call_checks_the_arguments() -> None:
    """A missing argument or a value out of range is explained, not encoded."""
    with pytest.raises(AbiInputError, match="takes 2 argument"):
        encode_call("transfer(address,uint256)", ["0x" + "00" * 20], None)
    with pytest.raises(AbiInputError, match="uint8"):
        encode_call("f(uint8)", ["256"], None)
    arrays = encode_call("f(uint256[],(bool,string))", ["[1, 2]", '[true, "x"]'], None)
    assert decode(["uint256[]", "(bool,string)"], arrays[4:]) == ((1, 2), (True, "x"))


def test_lookup_finds_selectors_topics_and_signatures() -> None:
    """The bundled table knows transfer and Transfer; a typed signature gives both keys."""
    (selector,) = lookup("0xa9059cbb")
    assert [s.canonical for s in selector.known] == ["transfer(address,uint256)"]
    (topic,) = lookup(TRANSFER_TOPIC)
    assert topic.kind == "event"
    assert "Transfer(address,address,uint256)" in {s.canonical for s in topic.known}
    function, event = lookup("Transfer(address,address,uint256)")
    assert "0x" + event.key.hex() == TRANSFER_TOPIC
    assert function.kind == "function"


def test_decode_with_a_pasted_abi_of_a_function_and_an_event() -> None:
    """A pasted ABI decodes calldata and a log the bundled table does not know."""
    abi = (
        '[{"type":"function","name":"poke","inputs":[{"name":"x","type":"uint256"}]},'
        '{"type":"event","name":"Poked","inputs":[{"name":"by","type":"address","indexed":true},'
        '{"name":"value","type":"uint256","indexed":false}]}]'
    )
    table = abi_table(abi)
    calldata = (
        "0x"
        + (function_signature_to_4byte_selector("poke(uint256)") + encode(["uint256"], [7])).hex()
    )
    lines = abi_decode_result({"data": calldata, "abi": abi}, None)
    assert [(line.label, line.text) for line in lines] == [
        ("Function", "poke(uint256 x)"),
        ("x (uint256)", "7"),
    ]
    (event,) = table.events.values()
    topics = "0x" + event[0].key.hex() + "\n0x" + "00" * 12 + "11" * 20
    lines = abi_decode_result(
        {"data": "0x" + encode(["uint256"], [9]).hex(), "topics": topics, "abi": abi}, None
    )
    assert lines[0].text == "Poked(address indexed by, uint256 value)"
    assert lines[-1].text == "9"


def test_the_other_examples_the_app_shows_work() -> None:
    """Hints' examples: a call's value, chain ids, the encoder's signature, a network's name."""
    assert call_object({"value": "0.001"}, "0x" + "11" * 20)["value"] == hex(10**15)
    assert parse_chain_id("31") == 31
    assert parse_chain_id("30") == 30
    encoded = abi_encode_result({"signature": "transfer(address to, uint256 amount)"}, 31)
    assert all(line.tone is not Tone.BAD for line in encoded)
    assert (
        custom_form_errors(
            NetworkForm(name="My rskj node", url="http://127.0.0.1:4444", chain_id="33"), set()
        )
        == {}
    )
