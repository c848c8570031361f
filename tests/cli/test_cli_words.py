"""What the command line says in words: how a number was read, names, pages, build progress."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from explorer.cli.devnet_output import DevnetOutput
from tests.helpers.cli import explorer_history, report
from tests.helpers.devnet import Devnet


def test_a_short_hex_query_is_said_to_be_read_as_a_block_number(devnet: Devnet) -> None:
    done = report(devnet, "0x1234")
    assert done.returncode == 0, done.stderr
    assert "0x1234 is read as a hexadecimal block number: block 4,660" in done.stderr
    assert "4,660" in done.stdout
    plain = report(devnet, "4660")
    assert "hexadecimal" not in plain.stderr  # a decimal number needs no note


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("99999999", "not found: block 99,999,999 on "),
        ("0x" + "ab" * 32, "not found: transaction 0x" + "ab" * 32 + " on "),
    ],
)
def test_not_found_is_said_in_words_not_routes(devnet: Devnet, query: str, words: str) -> None:
    done = report(devnet, query)
    assert done.returncode == 1
    assert words in done.stderr
    for route_syntax in ("block/", "tx/", "pegin/"):
        assert route_syntax not in done.stderr + done.stdout


def test_history_takes_the_names_report_takes(devnet: Devnet, tmp_path: Path) -> None:
    name, address = devnet.manifest()["rns_names"][0]
    by_report = report(devnet, name, "--format", "json")
    assert by_report.returncode == 0, by_report.stderr
    window = ("--endpoint", devnet.url(), "--insecure-http", "--from", "0", "--to", "400", "--yes")
    by_name = explorer_history(devnet.key, tmp_path, name, *window, "--format", "json")
    assert by_name.returncode == 0, by_name.stderr
    assert f"{name} → {address}" in by_name.stderr
    by_address = explorer_history(devnet.key, tmp_path, address, *window, "--format", "json")
    assert json.loads(by_name.stdout) == json.loads(by_address.stdout)
    unknown = explorer_history(devnet.key, tmp_path, "nobody-here.rsk", *window)
    assert unknown.returncode == 1
    assert "not found: nobody-here.rsk is not registered" in unknown.stderr
    invalid = explorer_history(devnet.key, tmp_path, "-bad-.rsk", *window)
    assert invalid.returncode == 2


def test_the_devnet_s_build_progress_does_not_contradict_itself() -> None:
    out = io.StringIO()
    output = DevnetOutput(json_lines=False, out=out)
    output.progress("testnet", "building block 200 of 12,000", 0.13)
    output.progress("testnet", "loaded the snapshot", 1.0)
    said = out.getvalue().splitlines()
    assert said[0] == (
        "test network: building block 200 of 12,000 (13% of the work; the busy first blocks "
        "take longest)"
    )
    assert said[1] == "test network: loaded the snapshot (done)"
