"""The network switcher's state: the selectable networks, the current one, their endpoints."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import httpx
from PySide6.QtCore import QObject

from explorer.rpc.endpoint import Endpoint
from explorer.services.endpoints import CustomEndpoint, EndpointBook, EndpointStore
from explorer.services.network_forms import FormErrors, NetworkForm
from explorer.services.networks import DEVNET, GET_A_KEY, Network, NetworkKind
from explorer.services.probe import ConnectionReport, probe_form
from explorer.viewmodels.observable import TypedSignal, qproperty


class NetworksViewModel(QObject):
    """The selectable networks, the current one, and each network's saved endpoint settings.

    Signals:
        networks_changed(): the list or a network's saved settings changed; re-read
            endpoint_for(current) to reconnect.
        current_changed(str): the id of the current network changed.
    """

    networks_changed = TypedSignal[()]()
    current_changed = TypedSignal[str]()

    def __init__(
        self,
        store: EndpointStore,
        *,
        http: httpx.AsyncClient | None = None,
        parent: QObject | None = None,
    ) -> None:
        """Read and write network choices in store; connection tests use http when given."""
        super().__init__(parent)
        self.book = EndpointBook(store)
        self._http = http

    def _get_networks(self) -> list[Network]:
        """Return the built-in networks, then the custom endpoints."""
        return self.book.networks()

    def _get_current_id(self) -> str:
        """Return the id of the current network (the Local devnet when none is stored)."""
        return self.book.current_id()

    def _get_current(self) -> Network:
        """Return the current network."""
        return self.book.network(self.book.current_id()) or DEVNET

    networks = qproperty(_get_networks, networks_changed)
    current_id = qproperty(_get_current_id, current_changed)
    current = qproperty(_get_current, current_changed)

    def customs(self) -> list[CustomEndpoint]:
        """Return the stored custom endpoints, skipping malformed and duplicate entries."""
        return self.book.customs()

    def network(self, network_id: str) -> Network | None:
        """Return the network with this id, or None."""
        return self.book.network(network_id)

    def set_current(self, network_id: str) -> None:
        """Make a known network current and remember it; unknown ids are ignored."""
        if self.book.set_current(network_id):
            self.current_changed.emit(network_id)

    def startup(self) -> tuple[Network, str]:
        """Return the network to open at start and a line to show: the devnet when needed.

        The devnet chosen needs no key, so its start shows no advice on getting one.
        """
        network = self.current
        if network is DEVNET:
            return DEVNET, ""
        if self.endpoint_for(network) is not None:
            return network, ""
        if network.kind is NetworkKind.HOSTED:
            return (
                DEVNET,
                f"{network.name} has no API key, so this is the Local devnet. {GET_A_KEY}",
            )
        reason = self.unavailable_reason(network)
        return DEVNET, f"{network.name} cannot be used, so this is the Local devnet: {reason}"

    def set_devnet_endpoint(self, endpoint: Endpoint | None) -> None:
        """Tell where the Local devnet listens once the app has started it (None: stopped)."""
        self.book.devnet = endpoint

    def resolve(self, form: NetworkForm) -> tuple[Endpoint | None, str]:
        """Return a form's endpoint and '', or None and the reason it has none."""
        return self.book.resolve(form)

    def endpoint_for(self, network: Network) -> Endpoint | None:
        """Return the saved endpoint of a network; None when it lacks something (see reason)."""
        return self.book.saved_endpoint(network.id)[0]

    def reachable(self) -> list[tuple[Network, Endpoint]]:
        """Return the networks that have an endpoint, with it."""
        return [
            (network, endpoint)
            for network in self.networks
            if (endpoint := self.endpoint_for(network))
        ]

    def unavailable_reason(self, network: Network) -> str:
        """Return why endpoint_for(network) is None, or '' when it is not."""
        return self.book.saved_endpoint(network.id)[1]

    def where(self, network: Network) -> str:
        """Return where a network's requests go (key masked), or why they cannot go."""
        endpoint, reason = self.book.saved_endpoint(network.id)
        return endpoint.redacted if endpoint else f"Not connected: {reason}"

    def form_for(self, network_id: str) -> NetworkForm:
        """Return the saved settings of a network as a form; KeyError when unknown."""
        return self.book.form_for(network_id)

    def validate(self, form: NetworkForm, taken_names: Collection[str] | None = None) -> FormErrors:
        """Return a message per bad field; {} when valid (see EndpointBook.validate)."""
        return self.book.validate(form, taken_names)

    def save(self, form: NetworkForm) -> FormErrors:
        """Validate one form and save it; return the errors instead when it is invalid."""
        draft_id = form.network_id or "new"
        return self.commit({draft_id: form}).get(draft_id, {})

    def remove(self, network_id: str) -> None:
        """Remove a custom endpoint (built-in networks stay)."""
        self.commit({}, [network_id])

    def commit(
        self, forms: Mapping[str, NetworkForm], removed: Collection[str] = ()
    ) -> dict[str, FormErrors]:
        """Save forms (keyed by any draft id) and remove custom endpoints, all or nothing.

        Returns the errors by draft id; nothing is saved unless that is empty. A rename or
        removal of the current network moves the current one along (current_changed).
        """
        before = self.current_id
        errors = self.book.commit(forms, removed)
        if not errors:
            self.networks_changed.emit()
            if self.current_id != before:
                self.current_changed.emit(self.current_id)
        return errors

    async def test_connection(self, target: Network | NetworkForm) -> ConnectionReport:
        """Probe a saved network or unsaved form values: chain id, client, latency, or error."""
        form = target if isinstance(target, NetworkForm) else self.form_for(target.id)
        return await probe_form(self.book, form, self._http)
