"""The simulate tool's texts: the typed call object and what eth_call and eth_estimateGas said."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from explorer.chain.abi_input import parse_input
from explorer.chain.units import GWEI_DECIMALS, parse_rbtc, parse_units
from explorer.services.estimate import Preflight


def call_fields(currency: str) -> dict[str, tuple[str, str]]:
    """Return the call object's fields (§2.2): label with its unit, and empty-field hint.

    Amounts read as on every page: the gas price in gwei, the value in the chain's coin.
    """
    return {
        "to": ("to", "this address (or another contract)"),
        "from": ("from", "sender address (optional)"),
        "gas": ("gas", "gas limit (optional)"),
        "gasPrice": ("gasPrice, gwei", "e.g. 0.06 (optional)"),
        "value": (f"value, {currency}", "e.g. 0.001 (optional)"),
        "data": ("data", "0x calldata"),
    }


def call_object(fields: Mapping[str, str], default_to: str) -> dict[str, Any]:
    """Build the §2.2 call object from typed fields; ValueError when one is not valid.

    `value` is in RBTC and `gasPrice` in gwei (each may end in its unit); `gas` is hex or
    decimal; `to` defaults to default_to.
    """
    typed = {name: fields.get(name, "").strip() for name in call_fields("")}
    call: dict[str, Any] = {"to": parse_input("address", typed["to"] or default_to)}
    if typed["from"]:
        call["from"] = parse_input("address", typed["from"])
    if typed["gas"]:
        call["gas"] = hex(parse_input("uint64", typed["gas"]))
    if typed["gasPrice"]:
        price = re.sub(r"\s*gwei\s*$", "", typed["gasPrice"], flags=re.IGNORECASE)
        call["gasPrice"] = hex(parse_units(price, GWEI_DECIMALS))
    if typed["value"]:
        call["value"] = hex(parse_rbtc(typed["value"]))
    if typed["data"]:
        call["data"] = "0x" + parse_input("bytes", typed["data"]).hex()
    return call


def describe_simulation(result: Preflight) -> str:
    """Return what eth_call and eth_estimateGas each said, one a line.

    A failing call gets an estimate from the hosted service (§4.3.1) but a refusal from a bare
    rskj node (-32015); both are said plainly, so the estimate is never taken for success.
    """
    reason = result.revert_reason or "no reason given"
    if result.output is None:
        error = result.call_error.message if result.call_error else ""
        call_line = f"eth_call: the execution fails — {reason} ({error})"
    else:
        call_line = f"eth_call: succeeds, output 0x{result.output.hex()}"
    estimate = result.estimate
    if estimate.reverts:
        estimate_line = (
            f"eth_estimateGas: no estimate, the node says the execution reverts — {reason}"
        )
    elif estimate.gas is not None and result.estimate_despite_failure:
        estimate_line = (
            f"eth_estimateGas: {estimate.gas:,} gas, although the call fails "
            "(this node estimates failing calls too)"
        )
    elif estimate.gas is not None:
        estimate_line = f"eth_estimateGas: {estimate.gas:,} gas"
    else:
        estimate_line = (
            f"eth_estimateGas: error — {estimate.error.message if estimate.error else ''}"
        )
    return f"{call_line}\n{estimate_line}"
