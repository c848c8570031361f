"""The simulate tool on both faces of the devnet: a failing call is never shown as fine.

The hosted service estimates a failing call (docs/service.md §4.3.1); a bare rskj node answers
-32015 to eth_estimateGas as to eth_call (co/rsk/rpc/modules/eth/EthModule.java).
"""

from __future__ import annotations

from typing import Any

import pytest

from explorer.services.tokens import selector
from tests.helpers.address import open_address
from tests.helpers.devnet import PROFILES, Devnet


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_a_reverting_call_is_told_either_way(
    qtbot: Any, session: Any, devnet: Devnet, devnet_manifest: dict[str, Any]
) -> None:
    """fail() on the Reverter.

    Both lines name the revert; the estimate line says how the node answered.
    """
    view = open_address(qtbot, session, devnet_manifest["reverter"])
    box = view.contract_tab.simulation_box
    box.edits["data"].setText("0x" + selector("fail()").hex())
    box.on_simulate()
    qtbot.waitUntil(lambda: "eth_estimateGas" in box.result.text(), timeout=30_000)
    call_line, estimate_line = box.result.text().splitlines()
    assert call_line.startswith("eth_call: the execution fails — Reverter: always fails")
    if devnet.profile == "rskj":
        assert estimate_line == (
            "eth_estimateGas: no estimate, the node says the execution reverts — "
            "Reverter: always fails"
        )
    else:
        assert estimate_line.startswith("eth_estimateGas: ")
        assert estimate_line.endswith(
            " gas, although the call fails (this node estimates failing calls too)"
        )
