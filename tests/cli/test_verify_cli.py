"""`explorer verify` as a process: real blocks verify, forged fields are named, exit codes hold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.chain.checksum import to_checksum_address
from tests.helpers.cli import explorer
from tests.helpers.forged_node import NUMBER, ForgedNode, Forgery
from tests.helpers.schemas import assert_follows

KEY = "0123456789abcdef0123456789abcdef"  # sent as the URL's last segment; printed nowhere


def verify(node: ForgedNode, *args: str) -> Any:
    """Run `explorer verify` on the node (chain 31); the key must appear nowhere."""
    done = explorer(
        "verify",
        *args,
        "--endpoint",
        f"{node.url}/{KEY}",
        "--chain-id",
        "31",
        "--no-cache",
        "--insecure-http",
    )
    assert KEY not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done


@pytest.fixture
def forged_node(request: pytest.FixtureRequest) -> Iterator[ForgedNode]:
    """Serve block 798,248 with the forgery the test is parametrised with (if any)."""
    node = ForgedNode(getattr(request, "param", None))
    yield node
    node.close()


def data(done: Any) -> dict[str, Any]:
    """Parse JSON output and check it against the documented schema."""
    parsed: dict[str, Any] = json.loads(done.stdout)
    assert_follows(parsed, "verify")
    return parsed


def test_a_real_block_verifies(forged_node: ForgedNode) -> None:
    """Hash, transactions root, receipts root and Bitcoin work verify: exit 0, as data."""
    done = verify(forged_node, str(NUMBER), "--format", "json")
    assert done.returncode == 0, done.stderr
    page = data(done)
    assert page["verified"] is True
    assert page["mismatch"] is None
    outcomes = {check["check"]: check["outcome"] for check in page["checks"]}
    for name in ("hash", "transactions_root", "receipts_root", "bitcoin_work"):
        assert outcomes[name] == "verified"
    assert outcomes["raw_header"] == "unchecked"  # this node does not serve rskj's raw header
    assert page["block"]["number"] == NUMBER
    assert page["block"]["miner"] == to_checksum_address(forged_node.block["miner"], 31)
    assert page["text"].startswith("Verified: hash, transactions root, receipts root")
    assert isinstance(page["requests"], int)
    assert page["requests"] >= 9


def test_a_transaction_verifies_with_its_block(forged_node: ForgedNode) -> None:
    """A transaction hash: its own hash and place, and its whole block, in text."""
    tx = forged_node.block["transactions"][2]["hash"]
    done = verify(forged_node, tx)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Transaction {tx} in block 798,248")
    assert lines[1].startswith("Verified: hash, transactions root, receipts root")
    assert "transaction (at index 2 of its block)" in lines[1]


def _tx(field: str, value: str) -> Forgery:
    """Forge a field of transaction 2 (in the block, as eth_getBlockByNumber serves it)."""
    return lambda d: d["block"]["transactions"][2].__setitem__(field, value)


def _header(field: str, value: str) -> Forgery:
    """Forge a header field of the block."""
    return lambda d: d["block"].__setitem__(field, value)


def _receipt(field: str, value: str) -> Forgery:
    """Forge a field of receipt 2."""
    return lambda d: d["receipts"][2].__setitem__(field, value)


FORGED = [
    pytest.param(_header("miner", "0x" + "de" * 20), "hash", id="miner"),
    pytest.param(_header("gasUsed", "0x1"), "hash", id="gasUsed"),
    pytest.param(_header("paidFees", "0x1266cf4ec4d0c0000"), "hash", id="paidFees"),
    pytest.param(_tx("value", "0x1266cf4ec4d0c0000"), "transactions_root", id="tx-value"),
    pytest.param(_tx("to", "0x" + "de" * 20), "transactions_root", id="tx-to"),
    pytest.param(_receipt("status", "0x0"), "receipts_root", id="receipt-status"),
    pytest.param(
        _header("bitcoinMergedMiningMerkleProof", "0x" + "00" * 32), "bitcoin_work", id="proof"
    ),
]


@pytest.mark.parametrize(("forged_node", "check"), FORGED, indirect=["forged_node"])
def test_a_forged_field_is_named_and_exits_1(forged_node: ForgedNode, check: str) -> None:
    """One forged field: exit 1, the failing check named, the answer not called verified."""
    done = verify(forged_node, str(NUMBER), "--format", "json")
    assert done.returncode == 1, done.stderr
    page = data(done)
    assert page["verified"] is False
    assert page["mismatch"]["check"] == check
    assert page["text"].lower().startswith(f"does not verify — {check.replace('_', ' ')}")


def test_input_that_cannot_be_verified_exits_2(forged_node: ForgedNode) -> None:
    """An address, nonsense, or a block the node lacks: exit 2, a one-line reason."""
    for query, said in (
        ("0x" + "12" * 20, "verify takes a block or a transaction"),
        ("0x12345678901234567890", "invalid input"),
        (str(NUMBER + 1), "not found"),
    ):
        done = verify(forged_node, query)
        assert done.returncode == 2, (query, done.stdout, done.stderr)
        assert said in done.stderr


def test_a_node_that_cannot_be_reached_exits_3(tmp_path: Path) -> None:
    """Transport: exit 3, one line on stderr."""
    node = ForgedNode()
    url = node.url
    node.close()
    done = explorer("verify", "1", "--endpoint", url, "--chain-id", "31", "--no-cache")
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("error (")
