"""The bundled data files: they load, hold what the code expects, and are installed."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from explorer.chain import bundled
from explorer.chain.known import BRIDGE, REMASC, known_label
from explorer.chain.signatures import bundled_table
from explorer.services.tokens import known_tokens

REPO = Path(__file__).resolve().parents[2]
RIF = "0x2acc95758f8b5f583470ba265eb685a8f45fc9d5"
TRIF = "0x19f64674d8a5b4e652319f5e239efd3bc969a1fe"
TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


def test_bridge_and_remasc_are_labelled_on_both_networks() -> None:
    """The system contracts the code names are in the every-network table."""
    for chain_id in (30, 31, None):
        assert known_label(BRIDGE, chain_id) == "Bridge"
        assert known_label(REMASC, chain_id) == "REMASC"


def test_tokens_are_labelled_on_their_own_network_only() -> None:
    """RIF on the main network, tRIF on the test network, neither on the other."""
    assert known_label(RIF, 30) == "RIF"
    assert known_label(RIF, 31) is None
    assert known_label(TRIF.upper().replace("0X", "0x"), 31) == "tRIF"
    assert known_label(TRIF, 30) is None
    assert known_label(TRIF, None) is None


def test_token_lists_per_chain_and_each_token_has_a_label() -> None:
    """RIF is a main-network token and tRIF a test-network one; every listed token is named."""
    lists = bundled.token_lists()
    assert RIF in lists[30]
    assert lists[31] == (TRIF,)
    for chain_id, tokens in lists.items():
        for token in tokens:
            assert known_label(token, chain_id), f"{token} on {chain_id} has no label"
    assert known_tokens(31, [TRIF.upper().replace("0X", "0x"), "0x" + "ab" * 20]) == (
        TRIF,
        "0x" + "ab" * 20,
    )
    assert known_tokens(1) == ()


def test_signatures_hold_the_standard_ones() -> None:
    """ERC-20 transfer and the Transfer event are in the bundled table."""
    table = bundled_table()
    (transfer,) = table.functions[bytes.fromhex("a9059cbb")]
    assert transfer.text == "transfer(address to, uint256 amount)"
    assert {s.indexed_count for s in table.events[bytes.fromhex(TRANSFER_TOPIC)]} == {2, 3}


def test_data_is_read_once() -> None:
    """Each table is parsed once per process; later calls return the same objects."""
    assert bundled.known_labels() is bundled.known_labels()
    assert bundled.token_lists() is bundled.token_lists()
    assert bundled.signature_lines() is bundled.signature_lines()
    assert bundled_table() is bundled_table()


@pytest.mark.parametrize(
    ("path", "text", "message"),
    [
        (bundled.LABELS, "[]", "expected a JSON object"),
        (bundled.LABELS, '{"every_network": {}, "by_chain_id": []}', "by_chain_id is not"),
        (bundled.LABELS, '{"every_network": {"0x12": "x"}, "by_chain_id": {}}', "address"),
        (bundled.LABELS, '{"every_network": {}, "by_chain_id": {"main": {}}}', "chain id"),
        (
            bundled.LABELS,
            '{"every_network": {"0x' + "00" * 20 + '": 1}, "by_chain_id": {}}',
            "not a text",
        ),
        (bundled.TOKENS, '{"by_chain_id": {"30": "0x00"}}', "not a list"),
        (bundled.TOKENS, '{"by_chain_id": {"30": ["nope"]}}', "address"),
    ],
)
def test_malformed_data_is_refused_with_its_file_named(
    monkeypatch: pytest.MonkeyPatch, path: str, text: str, message: str
) -> None:
    """A broken data file fails loudly, naming the file, rather than labelling wrongly."""
    monkeypatch.setattr(bundled, "read_text", {path: text}.__getitem__)
    load = bundled.known_labels if path == bundled.LABELS else bundled.token_lists
    with pytest.raises(bundled.BundledDataError, match=message) as raised:
        load.__wrapped__()
    assert path in str(raised.value)


def test_every_package_and_resource_is_installed() -> None:
    """The pyproject.toml lists every package and every resource file.

    Every package under explorer/ is listed (the list is explicit because resources/ is mapped
    in as explorer.resources) and the package data covers every file in resources/, so wheels
    and editable installs hold the same files.
    """
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "explorer").rglob("__init__.py")
    }
    assert set(config["packages"]) == packages | {"explorer.resources"}
    root = REPO / config["package-dir"]["explorer.resources"]
    covered = {
        p for pattern in config["package-data"]["explorer.resources"] for p in root.glob(pattern)
    }
    files = {
        path
        for path in root.rglob("*")
        if path.is_file() and path.name != "__init__.py" and "__pycache__" not in path.parts
    }
    assert files
    assert files <= covered, sorted(str(p.relative_to(root)) for p in files - covered)
