"""Endpoint persistence and connection tests without Qt: a plain in-memory store."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from explorer.rpc.errors import ErrorKind
from explorer.services.endpoints import CustomEndpoint, EndpointBook
from explorer.services.network_forms import FormField, NetworkForm
from explorer.services.networks import DEVNET, TESTNET
from explorer.services.probe import ProbeOutcome, probe_form

KEY = "k3yAbcdefGhijkLMNop0123456789x"


class MemoryStore:
    """An EndpointStore in a dict, as Settings keeps it in QSettings."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    def current_network(self) -> str:
        """Return the name of the chosen network."""
        return str(self.values.get("current", ""))

    def set_current_network(self, network: str) -> None:
        """Remember the chosen network."""
        self.values["current"] = network

    def custom_networks(self) -> list[str]:
        """Return the stored custom endpoints, one entry each."""
        return list(self.values.get("customs", []))

    def set_custom_networks(self, entries: list[str]) -> None:
        """Store the custom endpoints."""
        self.values["customs"] = list(entries)

    def api_key(self, network: str) -> str:
        """Return a network's API key (empty when none)."""
        return str(self.values.get(f"{network}/key", ""))

    def set_api_key(self, network: str, key: str) -> None:
        """Store a network's API key."""
        self.values[f"{network}/key"] = key

    def url_v2(self, network: str) -> bool:
        """Return whether a network uses the `/v2/<KEY>` URL form."""
        return self.values.get(f"{network}/v2") is True

    def set_url_v2(self, network: str, v2: bool) -> None:
        """Store whether a network uses the `/v2/<KEY>` URL form."""
        self.values[f"{network}/v2"] = v2

    def use_public_node(self, network: str) -> bool:
        """Return whether a network uses its public node (no key)."""
        return self.values.get(f"{network}/public") is True

    def set_use_public_node(self, network: str, public: bool) -> None:
        """Store whether a network uses its public node."""
        self.values[f"{network}/public"] = public

    def forget_network(self, network: str) -> None:
        """Forget every value stored for a network."""
        for name in [n for n in self.values if n.startswith(f"{network}/")]:
            del self.values[name]


@pytest.fixture
def book() -> EndpointBook:
    """Return a book over an empty store."""
    return EndpointBook(MemoryStore())


def custom(name: str, url: str = "https://node.example", **kw: Any) -> NetworkForm:
    """Return a new custom endpoint form on chain 31."""
    return NetworkForm(name=name, url=url, chain_id="31", **kw)


def test_a_commit_with_one_bad_form_saves_nothing(book: EndpointBook) -> None:
    """All or nothing: a valid form is not saved while another one is invalid."""
    keyed = NetworkForm(network_id=TESTNET.id, name=TESTNET.name, api_key=KEY)
    errors = book.commit({"testnet": keyed, "new:1": custom("A", url="ftp://x")})
    assert list(errors) == ["new:1"]
    assert set(errors["new:1"]) == {FormField.URL}
    assert book.store.api_key(TESTNET.id) == ""
    assert book.customs() == []
    assert book.commit({"testnet": keyed, "new:1": custom("A")}) == {}
    assert book.store.api_key(TESTNET.id) == KEY
    assert [c.name for c in book.customs()] == ["A"]


def test_renaming_the_current_endpoint_moves_its_key_and_keeps_it_current(
    book: EndpointBook,
) -> None:
    """The key follows the new id, the old id is forgotten, the current network follows."""
    assert book.commit({"new:1": custom("Old", api_key=KEY, v2=True)}) == {}
    assert book.set_current("custom:Old") is True
    renamed = book.form_for("custom:Old").with_value(FormField.NAME, "New")
    assert book.commit({"custom:Old": renamed}) == {}
    assert book.current_id() == "custom:New"
    assert book.store.api_key("custom:New") == KEY
    assert book.store.url_v2("custom:New")
    assert book.store.api_key("custom:Old") == ""
    assert book.commit({}, ["custom:New"]) == {}
    assert book.current_id() == DEVNET.id


def test_stored_entries_that_are_broken_or_repeated_are_skipped(book: EndpointBook) -> None:
    """Malformed JSON, a zero chain id and a second entry of a name are not networks."""
    good = CustomEndpoint("Node", "https://node.example", 31).to_json()
    again = CustomEndpoint("node", "https://other.example", 30).to_json()
    zero = '{"name": "Zero", "url": "https://z.example", "chain_id": 0}'
    book.store.set_custom_networks([good, "not json", zero, again])
    assert book.customs() == [CustomEndpoint("Node", "https://node.example", 31)]
    assert book.set_current("custom:Zero") is False


def test_a_form_field_takes_only_its_own_type() -> None:
    """Text fields take text, switches take bool."""
    form = NetworkForm().with_value(FormField.URL_FORM, True)
    assert form.v2 is True
    with pytest.raises(TypeError):
        form.with_value(FormField.CHAIN_ID, 31)  # type: ignore[arg-type]


def test_a_probe_of_a_closed_port_is_a_transport_failure(book: EndpointBook) -> None:
    """Nothing listens: the report says transport, on a plain asyncio loop."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    report = asyncio.run(probe_form(book, custom("Closed", url=f"http://127.0.0.1:{port}")))
    assert report.outcome is ProbeOutcome.FAILED
    assert report.error_kind is ErrorKind.TRANSPORT
    assert report.endpoint == f"http://127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("network", "key", "v2", "public"),
    [
        ("testnet", "", False, False),
        ("testnet", KEY, False, False),
        ("mainnet", KEY, True, False),
        ("testnet", KEY, True, True),
        ("testnet", "", False, True),
        ("testnet", "bad key/with slash", False, False),
        ("custom:Mine", "", False, False),
        ("custom:Mine", KEY, True, False),
        ("devnet", "", False, False),
        ("nowhere", "", False, False),
    ],
)
def test_connecting_reads_the_stored_endpoint_without_the_dialogs_form(
    network: str, key: str, v2: bool, public: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """saved_endpoint gives what the Settings form would, and never builds that form."""
    store = MemoryStore()
    book = EndpointBook(store)
    mine = NetworkForm(name="Mine", url="http://127.0.0.1:4444", chain_id="33")
    assert book.commit({"new:1": mine}) == {}
    store.set_api_key(network, key)
    store.set_url_v2(network, v2)
    store.set_use_public_node(network, public)
    known = book.network(network) is not None
    expected = book.resolve(book.form_for(network)) if known else None
    monkeypatch.setattr(EndpointBook, "form_for", None)  # connecting must not need it
    endpoint, reason = book.saved_endpoint(network)
    if expected is None:
        assert (endpoint, reason) == (None, "there is no network 'nowhere'")
    else:
        assert (endpoint, reason) == expected
