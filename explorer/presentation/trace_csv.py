"""The Inside tab's CSV export: the trace's JSON (presentation/trace_json.py) flattened.

One row per call, transfer and change, tagged by `section`; amounts in wei (or token base
units) as decimal strings, addresses checksummed: the same values as the JSON export.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from explorer.chain.trace import TraceResult
from explorer.presentation.trace_json import trace_data

CSV_COLUMNS = ("section", "depth", "type", "from", "to", "asset", "amount", "input", "output",
               "error", "gas_used", "address", "slot", "before", "after")  # fmt: skip


def _calls(calls: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every call of a JSON call tree in execution order, as CSV rows."""
    for call in calls:
        yield {"section": "call", "depth": call["depth"], "type": call["type"],
               "from": call["from"], "to": call["to"], "asset": "native",
               "amount": call["value"], "input": call["input"], "output": call["output"],
               "error": call["error"], "gas_used": call["gas_used"]}  # fmt: skip
        yield from _calls(call["calls"])


def csv_rows(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield the CSV rows of a trace's JSON: calls, transfers, then the state diff."""
    yield from _calls(data["calls"])
    for move in data["transfers"]:
        yield {"section": "transfer", "depth": move["depth"], "type": move["kind"],
               "from": move["from"], "to": move["to"], "asset": move["asset"],
               "amount": move["amount"]}  # fmt: skip
    for section, key in (("balance", "balance_changes"), ("nonce", "nonce_changes"),
                         ("storage", "storage_changes")):  # fmt: skip
        for change in data[key]:
            yield {"section": section, **change}
    for code in data["code_changes"]:
        yield {"section": "code", "address": code["address"], "after": code["code"]}


def trace_csv(result: TraceResult, chain_id: int | None) -> str:
    """Return a trace as CSV text (a header, then one row per call, move and change)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows(trace_data(result, chain_id)):
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()
