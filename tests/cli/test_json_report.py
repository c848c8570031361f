"""`explorer report --format json` on every kind of page follows docs/schemas/report.json.

The real command against the devnet (and a local node answering from real testnet samples):
the JSON says what the text says, as data; one broken habit at a time is refused.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import httpx
import pytest

from tests.helpers.devnet import Devnet
from tests.helpers.pool import pending_transfer
from tests.helpers.schemas import command_json, fields_of, schema_errors
from tests.helpers.scripted_server import scripted_server
from tests.helpers.testnet_node import REMASC_HASH, serve_testnet

NOT_FOUND = 1


def report_json(devnet: Devnet, query: str, *args: str, code: int = 0) -> Any:
    """Run `explorer report QUERY --format json` on the devnet's test network; check its schema."""
    url = devnet.url()
    return command_json(
        "report", "report", query, "--endpoint", url, *args, code=code, key=devnet.key
    )


def confirmations_said(text: str) -> int:
    """Return the confirmations a headline's words give (`… · 11,993 confirmations`)."""
    found = re.search(r"([\d,]+) confirmations", text)
    assert found is not None, text
    return int(found.group(1).replace(",", ""))


def node(devnet: Devnet, method: str, *params: Any) -> Any:
    """Ask the devnet directly."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    return httpx.post(devnet.url(), json=body, timeout=60).json()["result"]


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("plain_transfer", "success"),
        ("token_transfer", "success"),
        ("failed_tx", "failed"),
        ("contract_creation", "success"),
        ("nft_mint", "success"),
    ],
)
def test_a_mined_transaction_is_data(devnet: Devnet, name: str, status: str) -> None:
    tx_hash = devnet.manifest()[name]
    page = report_json(devnet, tx_hash)
    headline, fields = page["headline"], fields_of(page)
    assert page["page"] == "transaction"
    assert headline["value"] == status
    assert headline["confirmations"] == confirmations_said(headline["text"])
    raw = page["raw"]
    assert fields["overview.block"]["value"] == int(raw["transaction"]["blockNumber"], 16)
    assert fields["overview.value"]["value"] == str(int(raw["transaction"]["value"], 16))
    assert fields["overview.gas_used"]["value"] == int(raw["receipt"]["gasUsed"], 16)
    assert fields["overview.gas_used"]["gas_limit"] == int(raw["transaction"]["gas"], 16)
    assert fields["receipt.status"]["value"] == status
    assert fields["receipt.logs"]["value"] == len(raw["receipt"]["logs"])
    if status == "failed":
        assert headline["failure"] == "reverted"
        assert "reverted with" in headline["text"]


def test_a_token_amount_is_in_base_units_with_its_decimals(devnet: Devnet) -> None:
    page = report_json(devnet, devnet.manifest()["token_transfer"])
    amounts = [f for f in fields_of(page).values() if f.get("unit") == "token"]
    assert amounts
    assert all(f["decimals"] == 18 and f["text"].endswith(" DVT") for f in amounts)
    assert all(f["value"] == str(int(f["value"])) for f in amounts)


def test_a_block_and_its_transactions_are_data(devnet: Devnet) -> None:
    page = report_json(devnet, "100")
    assert page["page"] == "block"
    assert page["headline"]["value"] == "mined"
    assert page["headline"]["confirmations"] == confirmations_said(page["headline"]["text"])
    fields = fields_of(page)
    assert fields["overview.transactions"]["value"] == len(page["transactions"])
    assert fields["merge_mining.verified"]["value"] is True
    rows = page["transactions"]
    assert {row["status"] for row in rows} == {"success"}
    assert rows[-1]["kind"] == "remasc"
    assert rows[-1]["to"] == "0x0000000000000000000000000000000001000008"
    big = devnet.manifest()["big_block"]
    unread = report_json(devnet, str(big), "--receipts", "none")
    assert len(unread["transactions"]) == devnet.manifest()["big_block_tx_count"]
    assert {row["status"] for row in unread["transactions"]} == {None}  # receipts not read


def test_an_address_is_data(devnet: Devnet) -> None:
    manifest = devnet.manifest()
    account = report_json(devnet, manifest["accounts"][0])
    assert account["page"] == "address"
    balance = int(node(devnet, "eth_getBalance", manifest["accounts"][0], "latest"), 16)
    assert account["headline"]["value"] == str(balance)  # not "10,000,000.227… tRBTC"
    assert fields_of(account)["overview.kind"]["value"] == "account"
    token = fields_of(report_json(devnet, manifest["token"]))
    assert token["overview.kind"]["value"] == "contract"
    assert token["overview.kind"]["code_size"] > 0
    assert token["token.standard"]["value"] == "erc20"
    assert (token["token.total_supply"]["unit"], token["token.total_supply"]["decimals"]) == (
        "token",
        18,
    )


def test_the_bridge_is_data(devnet: Devnet) -> None:
    bridge = report_json(devnet, "bridge")
    assert (bridge["page"], bridge["headline"]["unit"]) == ("bridge", "wei")
    assert fields_of(bridge)["federation_powpeg.size"]["value"] == 3
    assert fields_of(bridge)["peg_outs.minimum_peg_out"]["unit"] == "satoshi"


@pytest.mark.parametrize(
    ("name", "where", "word"),
    [
        ("pegin_accepted_v1", "headline", "accepted"),
        ("pegin_refunded", "headline", "refused_refunded"),
        ("pegout_rejected", "peg_out.stage", "refused"),
        ("pegout_queued", "peg_out.stage", "queued"),
        ("pegout_confirming", "peg_out.stage", "in_batch"),
        ("pegout_signing", "peg_out.stage", "confirmed"),
        ("pegout_batch", "peg_out.stage", "sent_to_bitcoin"),
    ],
)
def test_pegins_and_pegouts_say_where_the_bitcoin_is(
    devnet: Devnet, name: str, where: str, word: str
) -> None:
    """A peg-in's verdict, a peg-out's stage: a word of the schema's enum."""
    query = devnet.manifest()["bridge"][name]
    page = report_json(devnet, query[0] if isinstance(query, list) else query)
    field = page["headline"] if where == "headline" else fields_of(page)[where]
    assert field["value"] == word


def test_a_pending_transaction_is_data(devnet: Devnet) -> None:
    with pending_transfer(devnet) as tx_hash:
        page = report_json(devnet, tx_hash)
    headline = page["headline"]
    assert (headline["value"], headline["confirmations"]) == ("pending", 0)
    assert headline["hold"] == "next_in_line"
    assert fields_of(page)["overview.block"]["value"] is None  # "pending" is its text


def test_a_missing_transaction_is_data(devnet: Devnet) -> None:
    page = report_json(devnet, "0x" + "ab" * 32, code=NOT_FOUND)
    assert page["headline"]["value"] == "not_found"
    assert (page["headline"]["fate"], page["headline"]["found_on"]) == (None, [])
    elsewhere = devnet.manifest("mainnet")["token_transfer"]
    found = report_json(devnet, elsewhere, "--also", devnet.url("mainnet"), code=NOT_FOUND)
    assert found["headline"]["found_on"] == [30]
    sightings = [f for f in fields_of(found).values() if f.get("chain_id") == 30]
    assert [f["value"] for f in sightings] == ["mined"]


def test_a_node_answering_from_real_testnet_samples() -> None:
    """The REMASC transaction without its receipt: mined, no signature; the real block 0x1b4."""
    with scripted_server(serve_testnet) as server:
        where = ["--endpoint", f"{server.url}/key", "--insecure-http", "--no-cache"]
        remasc = command_json("report", "report", REMASC_HASH, *where)
        block = command_json("report", "report", "436", *where)
    assert (remasc["headline"]["value"], remasc["chain_id"]) == ("mined", 31)
    fields = fields_of(remasc)
    assert fields["overview.kind"]["value"] == "remasc"
    assert fields["signature.chain_id_from_v"]["value"] is None
    merge_mining = fields_of(block)
    assert merge_mining["merge_mining.bitcoin_time"]["value"].endswith("Z")
    assert merge_mining["merge_mining.bitcoin_bits"]["target"].startswith("0x")


def break_one(page: dict[str, Any], key: str, **member: Any) -> dict[str, Any]:
    """Return a copy of the page with one field's members replaced (the first with that key)."""
    broken = copy.deepcopy(page)
    for section in broken["sections"]:
        for field in section["fields"]:
            if field["key"] == key:
                field.update(member)
                return broken
    raise AssertionError(f"no field {key}")


def test_each_old_habit_is_refused_on_its_own(devnet: Devnet) -> None:
    page = report_json(devnet, devnet.manifest()["failed_tx"])
    fields = fields_of(page)
    lowercase = fields["overview.from"]["value"].lower()
    habits = {
        "a verdict as words": {**page, "headline": {**page["headline"], "value": "FAILED"}},
        "wei as a number": break_one(page, "fee", value=int(fields["overview.fee"]["value"])),
        "a count as text": break_one(page, "nonce", value="1"),
        "a count as words": break_one(page, "gas_used", type="text", value="21,528 of 100,000"),
        "a Unix time": break_one(page, "timestamp", value=1735689840),
        "a lowercase address": break_one(page, "from", value=lowercase),
        "an upper-case hash": break_one(
            page,
            "transaction_hash",
            value=page["raw"]["transaction"]["hash"].upper().replace("0X", "0x"),
        ),
        "a number as text": break_one(page, "method", text="42"),
        "words in a fact": break_one(page, "gas_used", gas_limit="100,000 gas"),
        "a note": {**page, "sections": [{**page["sections"][0], "note": "words"}]},
    }
    assert schema_errors(page, "report") == []
    for habit, shape in habits.items():
        assert schema_errors(shape, "report"), habit
