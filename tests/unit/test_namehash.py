"""namehash: EIP-137 nodes for RNS names and reverse records."""

from __future__ import annotations

import pytest
from eth_hash.auto import keccak
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.namehash import (
    ROOT_NODE,
    label_hash,
    namehash,
    normalize_name,
    reverse_name,
    reverse_node,
)

ADDRESS = "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"


@pytest.mark.parametrize(
    ("name", "node"),
    [
        ("", "00" * 32),
        ("rsk", "0cd5c10192478cd220936e91293afc15e3f6de4d419de5de7506b679cbdd8ec4"),
        ("eth", "93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae"),
        ("foo.eth", "de9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f"),
    ],
)
def test_known_nodes(name: str, node: str) -> None:
    assert namehash(name).hex() == node


def test_names_are_normalized() -> None:
    assert namehash(" Alice.RSK ") == namehash("alice.rsk")
    assert normalize_name(" Alice.RSK ") == "alice.rsk"


@pytest.mark.parametrize("bad", ["a..rsk", ".rsk", "alice.rsk."])
def test_empty_labels_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError, match="empty label"):
        namehash(bad)


def test_reverse_record() -> None:
    assert reverse_name(ADDRESS) == ADDRESS[2:].lower() + ".addr.reverse"
    assert reverse_node(ADDRESS) == namehash(ADDRESS[2:].lower() + ".addr.reverse")
    assert reverse_node(ADDRESS.lower()) == reverse_node(ADDRESS)


@given(st.lists(st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), min_size=1, max_size=4))
def test_node_is_the_recursive_definition(labels: list[str]) -> None:
    parent = namehash(".".join(labels[1:])) if len(labels) > 1 else ROOT_NODE
    assert namehash(".".join(labels)) == keccak(parent + label_hash(labels[0]))
