"""The simulate tool: a typed call object run through eth_call and eth_estimateGas side by side."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.presentation.simulation import call_fields, call_object, describe_simulation
from explorer.services.estimate import SPEC_RULE, preflight
from explorer.viewmodels.address.tool import Tool


class SimulationViewModel(Tool):
    """Simulates a call object typed by the user against the address (result: both answers)."""

    spec_rule = SPEC_RULE

    @property
    def fields(self) -> dict[str, tuple[str, str]]:
        """Return the call object's fields: label (with its unit) and hint, by name."""
        return call_fields(self.session.network.currency)

    def run(self, fields: Mapping[str, str]) -> None:
        """Simulate the call object of the typed fields."""
        try:
            call = call_object(fields, self.address)
        except ValueError as error:
            self._invalid(error)
            return
        self._start(self._simulate(call))

    async def _simulate(self, call: dict[str, Any]) -> None:
        """Run eth_call and eth_estimateGas and describe both."""
        self._publish(describe_simulation(await preflight(self.session.client, call)))
