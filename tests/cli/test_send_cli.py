"""`explorer send` and the support desk in `explorer report`, as processes on the devnet."""

from __future__ import annotations

import json
import os
import pty
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from eth_abi.abi import encode
from eth_hash.auto import keccak

from explorer.devnet.contracts import load_artifact
from explorer.presentation.diagnosis_document import short
from tests.helpers.devnet import Devnet
from tests.helpers.schemas import assert_follows
from tests.helpers.support import Pool

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_home(tmp_path: Path) -> Path:
    """Return a user data directory of the test's own (the seen-transactions file goes there)."""
    return tmp_path / "data"


def explorer(
    devnet: Devnet, data_home: Path, *args: str, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """Run `explorer ARGS --endpoint <devnet>` as a process; the key must appear nowhere."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", *args, "--endpoint", devnet.url("testnet")],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "XDG_DATA_HOME": str(data_home)},
        stdin=stdin,
        timeout=120,
    )
    assert devnet.key not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done


def poke(value: int) -> bytes:
    """Return the calldata of Reverter.poke(value) (it reverts for 10 or more)."""
    return keccak(b"poke(uint256)")[:4] + encode(["uint256"], [value])


def test_without_a_terminal_nothing_is_sent(devnet: Devnet, pool: Pool, data_home: Path) -> None:
    before = pool.next_nonce("cli")
    done = explorer(devnet, data_home, "send", pool.sign("cli"))
    assert done.returncode == 2
    assert "not sent: stdin is not a terminal to confirm on; pass --yes" in done.stderr
    assert "== Checked with reads only" in done.stdout
    assert pool.next_nonce("cli") == before


def test_the_terminal_is_asked_and_only_yes_sends(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    before = pool.next_nonce("cli")
    raw = pool.sign("cli")
    for answer, code in (("n", 2), ("y", 0)):
        leader, follower = pty.openpty()
        os.write(leader, f"{answer}\n".encode())
        try:
            done = explorer(devnet, data_home, "send", raw, stdin=follower)
        finally:
            os.close(leader)
            os.close(follower)
        assert done.returncode == code, done.stderr
        assert "Send to 127.0.0.1 (chain id 31)?" in done.stdout
    assert pool.next_nonce("cli") == before + 1


@pytest.mark.parametrize(
    ("text", "words"),
    [("hello", "This is not hex"), ("0xc0", "Not a signed legacy transaction")],
)
def test_invalid_input_is_refused_before_any_connection(
    devnet: Devnet, data_home: Path, text: str, words: str
) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "send", text, "--endpoint", f"http://127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"refused, nothing sent: {words}")


def test_another_chain_is_refused_after_connecting(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    done = explorer(devnet, data_home, "send", pool.sign("cli", chainId=30), "--yes")
    assert done.returncode == 2
    assert "Signed for chain id 30, but 127.0.0.1 is chain 31" in done.stderr


def test_sent_and_waited_for_until_mined(devnet: Devnet, pool: Pool, data_home: Path) -> None:
    raw = pool.sign("cli")
    done = explorer(devnet, data_home, "send", raw, "--yes", "--wait", "--poll", "0.2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    tx_hash = next(line for line in lines if line.startswith("hash: ")).split()[1]
    assert f"Answer  accepted: {tx_hash} (the hash decoded here)" in done.stdout
    assert any(
        line.startswith("mined: block ") and line.endswith("status success") for line in lines
    )


def test_a_failed_transaction_exits_4(devnet: Devnet, pool: Pool, data_home: Path) -> None:
    raw = pool.sign("cli", to=pool.manifest["reverter"], gas=100_000, value=0, data=poke(50))
    done = explorer(devnet, data_home, "send", raw, "--yes", "--wait", "--poll", "0.2")
    assert done.returncode == 4, done.stderr
    assert "the call reverts with “Reverter: value too large”" in done.stdout
    assert "status FAILED" in done.stdout


def test_a_contract_creation_prints_the_created_address(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    code = load_artifact("Reverter").bytecode
    raw = pool.sign("cli", to=b"", gas=1_000_000, value=0, data=code)
    done = explorer(devnet, data_home, "send", raw, "--yes", "--wait", "--poll", "0.2")
    assert done.returncode == 0, done.stderr
    created = [line for line in done.stdout.splitlines() if line.startswith("contract created: ")]
    assert len(created) == 1
    assert len(created[0].split()[-1]) == 42


def test_a_refusal_exits_3_with_the_nodes_words(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    done = explorer(devnet, data_home, "send", pool.sign("cli", nonce=0), "--yes")
    assert done.returncode == 3
    assert "nonce 0 is already used" in done.stdout
    assert "refused: transaction nonce too low (node error -32010)" in done.stdout


def test_report_says_why_a_transaction_is_pending(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    with pool.held():
        tx_hash = pool.send(pool.sign("cli-report"))
        done = explorer(devnet, data_home, "report", tx_hash)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Status: PENDING — next in line: nonce ")
    assert "== Why it is pending" in done.stdout
    assert "since this app first saw it" in done.stdout


def test_report_says_what_became_of_a_transaction_sent_here(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    nonce = pool.next_nonce("cli-report")
    sent = explorer(devnet, data_home, "send", pool.sign("cli-report", ahead=1), "--yes")
    assert sent.returncode == 0, sent.stderr
    tx_hash = sent.stdout.split("hash: ")[1].split()[0]
    queued = explorer(devnet, data_home, "report", tx_hash)
    assert queued.returncode == 1
    assert (
        f"Status: NOT FOUND — queued: waiting for nonce {nonce} from this sender" in queued.stdout
    )
    pool.mine(11)
    dropped = explorer(devnet, data_home, "report", tx_hash, "--format", "json")
    assert dropped.returncode == 1
    assert "not found:" in dropped.stderr
    page = json.loads(dropped.stdout)
    assert_follows(page, "report")
    assert page["headline"]["text"].startswith("NOT FOUND — probably dropped from the pool: ")
    assert (page["headline"]["value"], page["headline"]["fate"]) == ("not_found", "dropped")


def test_report_looks_on_the_other_networks_given(devnet: Devnet, data_home: Path) -> None:
    tx_hash = devnet.manifest("mainnet")["token_transfer"]
    done = explorer(devnet, data_home, "report", tx_hash, "--also", devnet.url("mainnet"))
    assert done.returncode == 1
    where = devnet.base("mainnet").removeprefix("http://")
    elsewhere = f"chain 30 at {where} (not Rootstock Mainnet: another genesis block)"
    assert f"Status: NOT FOUND on 127.0.0.1 — found on {elsewhere}" in done.stdout
    assert "found on Rootstock Mainnet" not in done.stdout  # a devnet is not Rootstock's network
    assert "mined there (block " in done.stdout


def test_report_lists_every_transaction_of_a_block(devnet: Devnet, data_home: Path) -> None:
    number = str(devnet.manifest()["big_block"])
    text = explorer(devnet, data_home, "report", number, "--receipts", "none")
    assert text.returncode == 0, text.stderr
    listing = text.stdout.split("== Transactions (")[1]
    count = int(listing.split(")")[0].replace(",", ""))
    assert count == devnet.manifest()["big_block_tx_count"]  # REMASC counted, last
    assert len(listing.splitlines()) == count + 2  # the heading, the note, one line each
    small = explorer(devnet, data_home, "report", "100", "--format", "json")
    page = json.loads(small.stdout)
    assert_follows(page, "report")
    rows = page["transactions"]
    assert [row["index"] for row in rows] == list(range(len(rows)))
    assert rows[-1]["to"] == "0x0000000000000000000000000000000001000008"  # REMASC
    assert rows[-1]["kind"] == "remasc"
    assert all(row["value"] == str(int(row["value"])) for row in rows)  # wei, decimal strings
    assert all(row["status"] == "success" for row in rows)


def test_a_price_below_the_minimum_is_warned_and_refused(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    done = explorer(devnet, data_home, "send", pool.sign("cli", gasPrice=50_000_000), "--yes")
    assert done.returncode == 3
    assert "is below the latest block's minimum 0.06 gwei: the node will refuse it" in done.stdout
    assert (
        "refused: transaction's gas price lower than block's minimum (node error -32010)"
        in done.stdout
    )


def test_report_says_a_queued_transaction_cannot_be_paid(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    raw = pool.sign("funds", ahead=3, value=10**27)
    sent = explorer(devnet, data_home, "send", raw, "--yes")
    assert sent.returncode == 0, sent.stderr
    assert "the node queues it, and it cannot be mined until the sender can pay" in sent.stdout
    tx_hash = sent.stdout.split("hash: ")[1].split()[0]
    done = explorer(devnet, data_home, "report", tx_hash)
    assert done.returncode == 1
    headline = done.stdout.splitlines()[1]
    assert headline.startswith("Status: NOT FOUND — queued: waiting for nonces ")
    assert "; and the sender cannot pay it: a balance of " in headline


def test_report_names_the_replacement_of_a_transaction_it_saw_pending(
    devnet: Devnet, pool: Pool, data_home: Path
) -> None:
    with pool.held():
        nonce = pool.next_nonce("replaced")
        original = pool.send(pool.sign("replaced"))
        pending = explorer(devnet, data_home, "report", original)
        assert pending.returncode == 0, pending.stderr
        replacement = pool.send(pool.sign("replaced", nonce=nonce, gasPrice=100_000_000))
    done = explorer(devnet, data_home, "report", original, "--format", "json")
    assert done.returncode == 1
    page = json.loads(done.stdout)
    assert_follows(page, "report")
    assert page["headline"]["text"].startswith(
        f"NOT FOUND — replaced by {short(replacement)} with the same nonce {nonce}, mined in block"
    )
    assert page["headline"]["fate"] == "replaced"
    fields = {f["label"]: f for section in page["sections"] for f in section["fields"]}
    assert fields["Replaced by"]["link"] == f"tx/{replacement}"
