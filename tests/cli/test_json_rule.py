"""One rule for every command's JSON: the schemas are sound, and they refuse the old shapes.

tests/fixtures/json-before/ holds what `report`, `node`, `history` and `logs` printed before
the rule (on the devnet, `raw` emptied, lists cut to two): display text as values, amounts as
numbers, Unix times, lowercase addresses, the node's own log objects.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.helpers.schemas import load_schema, schema_errors, schema_names

BEFORE = Path(__file__).resolve().parents[1] / "fixtures" / "json-before"
COMMANDS = {"report", "node", "history", "logs"}  # each command with --format json


def test_every_schema_is_draft_2020_12_and_named_by_its_file() -> None:
    assert {*COMMANDS, "common"} <= set(schema_names())
    for name in schema_names():
        schema = load_schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == f"https://explorer.invalid/schemas/{name}.json"
        Draft202012Validator.check_schema(schema)


def path_of(page: dict[str, Any], key: str) -> str:
    """Return the JSON path of a page's first field with key (the headline's is $.headline)."""
    if page["headline"]["key"] == key:
        return "$.headline"
    for s, section in enumerate(page["sections"]):
        for f, field in enumerate(section["fields"]):
            if field["key"] == key:
                return f"$.sections[{s}].fields[{f}]"
    raise AssertionError(f"no field {key}")


def before(name: str) -> Any:
    """Return a command's JSON as it was printed before the rule."""
    return json.loads((BEFORE / f"{name}.json").read_text(encoding="utf-8"))


def refused_for(errors: list[str], path: str, reason: str) -> bool:
    """Tell whether one of the errors is at path (or below it) and says reason."""
    return any(error.startswith(path) and reason in error for error in errors)


# (fixture, schema, [(field key or JSON path, what the schema says of it)])
OLD_SHAPES = [
    (
        "report-tx",
        "report",
        [
            ("status", "'status' was expected"),  # "FAILED: … · 11,993 confirmations" as type text
            ("status", "None was expected"),  # … and as its value
            ("value", "is not of type 'string'"),  # wei as a JSON number
            ("fee", "is not of type 'string'"),
            ("type", "None was expected"),  # "legacy (0)"
            ("chain_id_from_v", "None was expected"),  # "31 (EIP-155)"
            ("$", "'page' is a required property"),
        ],
    ),
    (
        "report-block",
        "report",
        [
            ("status", "None was expected"),  # "Mined · 11,997 confirmations"
            ("paid_fees", "is not of type 'string'"),
            ("verified", "None was expected"),  # "Yes — the proof links…"
            ("$.transactions[0].value", "is not of type 'string'"),
            ("$.transactions[0].status", "is not one of"),  # "Success"
        ],
    ),
    (
        "report-address",
        "report",
        [
            ("balance", "'amount' was expected"),  # "10,000,000.227… tRBTC" as the headline
            ("kind", "None was expected"),  # "Account (no code)"
        ],
    ),
    (
        "node",
        "node",
        [
            ("status", "is not one of ['serves'"),  # "Serves … (chain 31)"
            ("the_two_agree", "'boolean' was expected"),  # "yes"
            ("latency", "None was expected"),  # "7 ms (fastest of 7 requests; …)"
            ("requests_today_utc", "None was expected"),  # "3,877 (no daily quota set)"
            ("protocol_version", "None was expected"),  # "0x3e (62)"
            ("url_form", "'status' was expected"),
        ],
    ),
]


@pytest.mark.parametrize(("fixture", "schema", "reasons"), OLD_SHAPES)
def test_the_pages_printed_before_the_rule_are_refused(
    fixture: str, schema: str, reasons: list[tuple[str, str]]
) -> None:
    """Refused as printed, and with the page's word added (its own page's rules apply then)."""
    page = before(fixture)
    word = {"tx": "transaction"}.get(fixture.rpartition("-")[2], fixture.rpartition("-")[2])
    errors = schema_errors(page, schema, chain_id=31)
    errors += schema_errors({**page, "page": word}, schema, chain_id=31)
    for where, reason in reasons:
        path = where if where.startswith("$") else path_of(page, where)
        assert refused_for(errors, path, reason), (where, reason, errors)


def test_the_history_printed_before_the_rule_is_refused() -> None:
    errors = schema_errors(before("history"), "history", chain_id=31)
    assert refused_for(errors, "$[0].timestamp", "is not of type 'string'")  # Unix seconds
    assert refused_for(errors, "$[0].counterparty", "is not a 'rsk-address'")  # lowercase
    assert refused_for(errors, "$[0]", "'decimals' is a required property")


def test_the_logs_printed_before_the_rule_are_refused() -> None:
    errors = schema_errors(before("logs"), "logs", chain_id=31)
    assert refused_for(errors, "$[0].address", "is not a 'rsk-address'")
    assert refused_for(errors, "$[0]", "'blockNumber', 'logIndex'")  # the node's own names
    assert refused_for(errors, "$[0]", "'block' is a required property")


def test_an_address_must_carry_its_own_chains_checksum() -> None:
    """RSKIP-60 vectors: chain 30's checksum is refused on chain 31, and the other way."""
    entry = before("history")[0] | {"decimals": 18, "failed": False}
    entry["timestamp"] = "2025-01-01T00:00:00Z"
    mainnet, testnet = (
        "0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD",
        "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd",
    )
    assert schema_errors([entry | {"counterparty": testnet}], "history", chain_id=31) == []
    assert schema_errors([entry | {"counterparty": mainnet}], "history", chain_id=30) == []
    wrong = schema_errors([entry | {"counterparty": mainnet}], "history", chain_id=31)
    assert wrong == [f"$[0].counterparty: '{mainnet}' is not a 'rsk-address'"]
