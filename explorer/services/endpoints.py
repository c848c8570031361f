"""The saved networks and their endpoints: read from and written to a settings store (no Qt)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

from explorer.rpc.endpoint import Endpoint, UrlForm
from explorer.rpc.errors import InvalidInput
from explorer.services.network_forms import (
    FormErrors,
    NetworkForm,
    custom_endpoint,
    custom_form_errors,
    key_error,
    parse_chain_id,
    split_pasted_key,
)
from explorer.services.networks import (
    BUILTIN,
    DEVNET,
    Network,
    NetworkKind,
    custom_network,
    key_needed,
)

DEVNET_DOWN = "the Local devnet runs only while the app has started it"


class EndpointStore(Protocol):
    """Where network choices persist; explorer.settings.store.Settings (over QSettings) is one."""

    def current_network(self) -> str:
        """Return the name of the chosen network."""

    def set_current_network(self, network: str) -> None:
        """Remember the chosen network."""

    def custom_networks(self) -> list[str]:
        """Return the stored custom endpoints, one entry each."""

    def set_custom_networks(self, entries: list[str]) -> None:
        """Store the custom endpoints."""

    def api_key(self, network: str) -> str:
        """Return a network's API key (empty when none)."""

    def set_api_key(self, network: str, key: str) -> None:
        """Store a network's API key."""

    def url_v2(self, network: str) -> bool:
        """Return whether a network uses the `/v2/<KEY>` URL form."""

    def set_url_v2(self, network: str, v2: bool) -> None:
        """Store whether a network uses the `/v2/<KEY>` URL form."""

    def use_public_node(self, network: str) -> bool:
        """Return whether a network uses its public node (no key)."""

    def set_use_public_node(self, network: str, public: bool) -> None:
        """Store whether a network uses its public node."""

    def forget_network(self, network: str) -> None:
        """Forget every value stored for a network."""


@dataclass(frozen=True)
class CustomEndpoint:
    """A user's endpoint as stored; its API key is stored apart, like every key."""

    name: str
    url: str
    chain_id: int
    allow_insecure_http: bool = False

    @property
    def network(self) -> Network:
        """Return the Network of this endpoint; RSK chain ids keep currency and RNS."""
        return custom_network(self.name, self.chain_id)

    @property
    def id(self) -> str:
        """Return the network id of this endpoint."""
        return self.network.id

    def to_json(self) -> str:
        """Return the stored form (no key)."""
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CustomEndpoint | None:
        """Read a stored endpoint; None when the entry is malformed."""
        try:
            obj = json.loads(text)
            endpoint = cls(
                str(obj["name"]),
                str(obj["url"]),
                int(obj["chain_id"]),
                obj.get("allow_insecure_http") is True,
            )
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        return endpoint if endpoint.name and endpoint.chain_id > 0 else None

    @classmethod
    def from_form(cls, form: NetworkForm) -> CustomEndpoint:
        """Return the stored form of a valid custom form."""
        endpoint = custom_endpoint(form)
        chain_id = parse_chain_id(form.chain_id)
        return cls(form.name.strip(), endpoint.base_url, chain_id, form.allow_insecure_http)


class EndpointBook:
    """The selectable networks, the current one, and each network's saved endpoint settings."""

    def __init__(self, store: EndpointStore) -> None:
        """Read and write network choices in store."""
        self.store = store
        self.devnet: Endpoint | None = None

    def customs(self) -> list[CustomEndpoint]:
        """Return the stored custom endpoints, skipping malformed and duplicate entries."""
        found: dict[str, CustomEndpoint] = {}
        for text in self.store.custom_networks():
            custom = CustomEndpoint.from_json(text)
            if custom is not None and custom.name.casefold() not in found:
                found[custom.name.casefold()] = custom
        return list(found.values())

    def move_keys_out_of_entries(self) -> None:
        """Move a key saved at the end of a custom network's URL to where keys are kept.

        Older versions left keys under 16 characters there; the entry must never hold one.
        """
        moved: dict[str, NetworkForm] = {}
        for custom in self.customs():
            form = self.form_for(custom.id)
            split = split_pasted_key(form)
            if split.url != form.url:
                moved[custom.id] = split
        if moved:
            self.commit(moved)

    def networks(self) -> list[Network]:
        """Return the selectable networks: the built-in ones, then the custom endpoints."""
        return [*BUILTIN, *(custom.network for custom in self.customs())]

    def network(self, network_id: str) -> Network | None:
        """Return the network with this id, or None."""
        return next((n for n in self.networks() if n.id == network_id), None)

    def current_id(self) -> str:
        """Return the id of the current network (the Local devnet when none is stored)."""
        stored = self.store.current_network()
        return stored if self.network(stored) is not None else DEVNET.id

    def set_current(self, network_id: str) -> bool:
        """Make a known network current; return whether the current network changed."""
        if self.network(network_id) is None:
            return False
        before = self.current_id()
        self.store.set_current_network(network_id)
        return network_id != before

    def form_for(self, network_id: str) -> NetworkForm:
        """Return the saved settings of a network as a form; KeyError when unknown."""
        network = self.network(network_id)
        if network is None:
            raise KeyError(network_id)
        custom = next((c for c in self.customs() if c.id == network_id), None)
        public = False
        if network.kind is NetworkKind.HOSTED:
            public = self.store.use_public_node(network_id)
        return NetworkForm(
            network_id=network_id,
            name=network.name,
            url=custom.url if custom else network.hosted_base or "",
            api_key=self.store.api_key(network_id),
            v2=self.store.url_v2(network_id),
            use_public_node=public,
            chain_id=str(network.chain_id),
            allow_insecure_http=custom.allow_insecure_http if custom else False,
        )

    def saved_endpoint(self, network_id: str) -> tuple[Endpoint | None, str]:
        """Return a network's endpoint read straight from the stored settings, or None and why.

        What connecting needs: the same endpoint `resolve(form_for(network_id))` gives,
        without building the Settings dialog's form.
        """
        network = self.network(network_id)
        if network is None:
            return None, f"there is no network {network_id!r}"
        if network.kind is NetworkKind.DEVNET:
            return self.devnet, "" if self.devnet else DEVNET_DOWN
        key, v2 = self.store.api_key(network_id).strip(), self.store.url_v2(network_id)
        try:
            if network.kind is NetworkKind.CUSTOM:
                custom = next(c for c in self.customs() if c.id == network_id)
                insecure = custom.allow_insecure_http
                base = Endpoint.parse(custom.url, allow_insecure_http=insecure, split_key=False)
                url_form = UrlForm.V2_KEY if v2 else UrlForm.KEY
                return (Endpoint(base.base_url, key, url_form, insecure) if key else base), ""
            if self.store.use_public_node(network_id) or key:
                public = self.store.use_public_node(network_id)
                return network.endpoint(None if public else key, v2=v2), ""
        except InvalidInput as error:
            return None, error.message
        return None, key_needed(network.name)

    def form_endpoint(self, form: NetworkForm) -> Endpoint | None:
        """Return the endpoint a form describes, None when it needs a key; InvalidInput."""
        if form.is_custom:
            return custom_endpoint(form)
        if form.network_id == DEVNET.id:
            return self.devnet
        network = self.network(form.network_id) or DEVNET
        key = form.api_key.strip()
        if form.use_public_node or not key:
            return network.endpoint(None) if form.use_public_node else None
        return network.endpoint(key, v2=form.v2)

    def resolve(self, form: NetworkForm) -> tuple[Endpoint | None, str]:
        """Return a form's endpoint and '', or None and the reason it has none."""
        try:
            endpoint = self.form_endpoint(form)
        except InvalidInput as error:
            return None, error.message
        if endpoint is not None:
            return endpoint, ""
        if form.network_id == DEVNET.id:
            return None, DEVNET_DOWN
        return None, key_needed(form.name)

    def validate(self, form: NetworkForm, taken_names: Collection[str] | None = None) -> FormErrors:
        """Return a message per bad field; {} when valid.

        taken_names (casefolded) are the names of the other networks; by default those of the
        saved networks other than the form's own.
        """
        if not form.is_custom:
            key = form.api_key.strip()
            return key_error(key) if key and form.network_id != DEVNET.id else {}
        if taken_names is None:
            taken_names = {n.name.casefold() for n in self.networks() if n.id != form.network_id}
        return custom_form_errors(form, taken_names)

    def commit(
        self, forms: Mapping[str, NetworkForm], removed: Collection[str] = ()
    ) -> dict[str, FormErrors]:
        """Save forms (keyed by any draft id) and remove custom endpoints, all or nothing.

        Returns the errors by draft id; nothing is saved unless that is empty. A renamed
        current network stays current under its new id.
        """
        removed = {i for i in removed if i.startswith("custom:")}
        live = {d: f for d, f in forms.items() if f.network_id not in removed}
        edited = {f.network_id for f in live.values() if f.network_id}
        kept = [c for c in self.customs() if c.id not in removed]
        fixed_names = {n.name.casefold() for n in BUILTIN} | {
            c.name.casefold() for c in kept if c.id not in edited
        }
        errors: dict[str, FormErrors] = {}
        for draft_id, form in live.items():
            others = {o.name.strip().casefold() for d, o in live.items() if d != draft_id}
            found = self.validate(form, fixed_names | others)
            if found:
                errors[draft_id] = found
        if not errors:
            self._write(live, kept, removed)
        return errors

    def _write(
        self, forms: Mapping[str, NetworkForm], kept: list[CustomEndpoint], removed: set[str]
    ) -> None:
        """Store valid forms and the custom list; follow a rename of the current network."""
        by_id = {f.network_id: f for f in forms.values() if f.network_id}
        entries: list[tuple[CustomEndpoint, NetworkForm | None]] = []
        renamed: dict[str, str] = {}
        for custom in kept:
            form = by_id.get(custom.id)
            updated = custom if form is None else CustomEndpoint.from_form(form)
            if updated.id != custom.id:
                renamed[custom.id] = updated.id
            entries.append((updated, form))
        entries += [(CustomEndpoint.from_form(f), f) for f in forms.values() if not f.network_id]
        for old_id in removed | set(renamed):
            self.store.forget_network(old_id)
        for custom, form in entries:
            if form is not None:
                self._store_form(custom.id, split_pasted_key(form))
        for form in forms.values():
            if not form.is_custom and form.network_id != DEVNET.id:
                self._store_form(form.network_id, form)
        self.store.set_custom_networks([c.to_json() for c, _ in entries])
        stored = self.store.current_network()
        if stored in renamed:
            self.store.set_current_network(renamed[stored])

    def _store_form(self, network_id: str, form: NetworkForm) -> None:
        """Store a network's key, URL form and (hosted only) public-node choice."""
        self.store.set_api_key(network_id, form.api_key.strip())
        self.store.set_url_v2(network_id, form.v2)
        if not form.is_custom:
            self.store.set_use_public_node(network_id, form.use_public_node)
