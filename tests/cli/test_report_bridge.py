"""`explorer report` for the peg on the devnet: the Bridge, peg-ins by Bitcoin txid, peg-outs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.cli import report
from tests.helpers.devnet import PROFILES
from tests.helpers.schemas import assert_follows


def peg(devnet: Any) -> dict[str, Any]:
    """Return the peg's facts of the devnet's test network."""
    return dict(devnet.manifest()["bridge"])


def test_report_bridge(devnet: Any) -> None:
    done = report(devnet, "bridge")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "The Bridge (2-way peg with Bitcoin)"
    assert "== Federation (PowPeg)" in done.stdout
    assert "2 of 3 federators sign each peg-out" in done.stdout
    assert "Queued requests" in done.stdout


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_report_a_pegin_by_its_bitcoin_txid(devnet: Any) -> None:
    facts = peg(devnet)
    done = report(devnet, facts["pegin_accepted_v1"], "--format", "json")
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    assert_follows(page, "report")
    assert page["title"] == f"Peg-in {facts['pegin_accepted_v1']}"
    assert page["headline"]["text"].startswith("ACCEPTED — 0.50000000 BTC")
    assert page["headline"]["value"] == "accepted"
    assert page["headline"]["amount_sat"] == str(50_000_000)
    refunded = report(devnet, "0x" + facts["pegin_refunded"])
    assert refunded.returncode == 0, refunded.stderr
    assert "REFUSED, REFUNDED" in refunded.stdout
    assert "== Release on Bitcoin" in refunded.stdout


def test_report_an_unregistered_bitcoin_txid_says_the_bridge_has_no_such_pegin(devnet: Any) -> None:
    unknown = peg(devnet)["pegin_unknown"]
    done = report(devnet, unknown)
    assert done.returncode != 0
    assert "Nor is it the Bitcoin transaction of a peg-in the Bridge has registered" in done.stderr
    assert "pegin/" not in done.stderr  # words, never a route (issue 31 item 13)


@pytest.mark.parametrize(
    ("key", "stage"),
    [
        ("pegout_rejected", "REFUSED"),
        ("pegout_confirming", "IN A BATCH"),
        ("pegout_queued", "QUEUED"),
    ],
)
def test_report_pegout_stages(devnet: Any, key: str, stage: str) -> None:
    done = report(devnet, peg(devnet)[key])
    assert done.returncode == 0, done.stderr
    assert "== Peg-out" in done.stdout
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("Stage ")]
    assert line.split(maxsplit=1)[1].startswith(stage)


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_report_delivered_pegout_prints_every_stage(devnet: Any) -> None:
    facts = peg(devnet)
    done = report(devnet, facts["pegout_batch"][2])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for title in ("== Peg-out", "== Batch", "== Confirmation", "== Signatures"):
        assert title in out
    assert f"SENT TO BITCOIN as {facts['pegout_btc_txid']}" in out
    assert "Peg-out fee" in out
    assert "requested 0.00500000 BTC less received" in out
