"""The network switcher's state: networks, API keys, URL forms, custom endpoints, tests."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Protocol

import httpx
from PySide6.QtCore import QObject, Signal

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint, UrlForm
from explorer.rpc.errors import InvalidInput, RpcError
from explorer.rpc.retry import NO_RETRY
from explorer.services.networks import (
    BUILTIN,
    DEVNET,
    GET_A_KEY,
    Network,
    NetworkKind,
    custom_network,
)

FormErrors = dict[str, str]
TEST_TIMEOUT = 10.0
_PASTED_KEY = re.compile(r"[A-Za-z0-9._~\-]{16,}")
_CHAIN_ID_MESSAGE = "the chain id must be a positive whole number, e.g. 31"


class NetworkSettings(Protocol):
    """Where network choices persist (explorer.settings.Settings over QSettings)."""

    def current_network(self) -> str: ...
    def set_current_network(self, network: str) -> None: ...
    def custom_networks(self) -> list[str]: ...
    def set_custom_networks(self, entries: list[str]) -> None: ...
    def api_key(self, network: str) -> str: ...
    def set_api_key(self, network: str, key: str) -> None: ...
    def url_v2(self, network: str) -> bool: ...
    def set_url_v2(self, network: str, v2: bool) -> None: ...
    def use_public_node(self, network: str) -> bool: ...
    def set_use_public_node(self, network: str, public: bool) -> None: ...
    def forget_network(self, network: str) -> None: ...


@dataclass(frozen=True)
class CustomEndpoint:
    """A user's endpoint as stored; its API key is stored apart, like every key."""

    name: str
    url: str
    chain_id: int
    allow_insecure_http: bool = False

    @property
    def id(self) -> str:
        """Return the network id of this endpoint."""
        return custom_network(self.name, self.chain_id).id

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


@dataclass(frozen=True)
class NetworkForm:
    """One network's settings as the user typed them; the text stays verbatim until saved.

    network_id is '' for a custom endpoint not saved yet. name, url, chain_id and
    allow_insecure_http are edited for custom endpoints only; use_public_node for hosted ones.
    """

    network_id: str = ""
    name: str = ""
    url: str = ""
    api_key: str = ""
    v2: bool = False
    use_public_node: bool = False
    chain_id: str = ""
    allow_insecure_http: bool = False

    @property
    def is_custom(self) -> bool:
        """Tell whether the form describes a custom endpoint."""
        return not self.network_id or self.network_id.startswith("custom:")


@dataclass(frozen=True)
class ConnectionReport:
    """The verdict of a connection test: it shows the redacted endpoint, never the key."""

    endpoint: str
    ok: bool
    chain_id: int | None = None
    expected_chain_id: int | None = None
    client_version: str | None = None
    latency_ms: float | None = None
    error_kind: str | None = None
    message: str = ""

    @property
    def text(self) -> str:
        """Return the one-line result, e.g. `✓ chain 31 · RskJ/6.2.0/… · 120 ms`."""
        if self.chain_id is None or self.latency_ms is None:
            return f"✗ {self.error_kind}: {self.message}"
        facts = f"{self.client_version or 'no client version'} · {self.latency_ms:.0f}\u00a0ms"
        if self.ok:
            return f"✓ chain {self.chain_id} · {facts}"
        return f"✗ {self.error_kind}: {self.message} · {facts}"


def parse_chain_id(text: str) -> int:
    """Parse a chain id typed as decimal or 0x-hex; InvalidInput unless it is positive."""
    text = text.strip()
    try:
        value = int(text, 16) if text[:2].lower() == "0x" else int(text, 10)
    except ValueError:
        raise InvalidInput(_CHAIN_ID_MESSAGE) from None
    if value <= 0 or not text.isascii():
        raise InvalidInput(_CHAIN_ID_MESSAGE)
    return value


def split_pasted_key(form: NetworkForm) -> NetworkForm:
    """Move an API key pasted as the URL's last path segment (after /v2 or not) into the key."""
    try:
        endpoint = Endpoint.parse(form.url, allow_insecure_http=True)
    except InvalidInput:
        return form
    key = endpoint.api_key or ""
    if _PASTED_KEY.fullmatch(key) is None or form.api_key.strip() not in ("", key):
        return form
    v2 = endpoint.url_form is UrlForm.V2_KEY
    return dataclasses.replace(form, url=endpoint.base_url, api_key=key, v2=v2)


def custom_endpoint(form: NetworkForm) -> Endpoint:
    """Return the endpoint of a custom form; InvalidInput names the URL or key problem."""
    form = split_pasted_key(form)
    insecure = form.allow_insecure_http
    base = Endpoint.parse(form.url, allow_insecure_http=insecure, split_key=False)
    key = form.api_key.strip()
    if not key:
        return base
    url_form = UrlForm.V2_KEY if form.v2 else UrlForm.KEY
    return Endpoint(base.base_url, key, url_form, insecure)


def _scrub(text: str, secret: str) -> str:
    """Remove a secret from text (belt and braces: node texts are not trusted)."""
    return text.replace(secret, "<key>") if secret else text


class NetworksViewModel(QObject):
    """The selectable networks, the current one, and each network's saved endpoint settings.

    Signals:
        networks_changed(): the list or a network's saved settings changed; re-read
            endpoint_for(current) to reconnect.
        current_changed(str): the id of the current network changed.
    """

    networks_changed = Signal()
    current_changed = Signal(str)

    def __init__(
        self,
        settings: NetworkSettings,
        *,
        http: httpx.AsyncClient | None = None,
        parent: QObject | None = None,
    ) -> None:
        """Read and write settings; connection tests use http when given."""
        super().__init__(parent)
        self.settings = settings
        self._http = http
        self._devnet: Endpoint | None = None

    def customs(self) -> list[CustomEndpoint]:
        """Return the stored custom endpoints, skipping malformed and duplicate entries."""
        found: dict[str, CustomEndpoint] = {}
        for text in self.settings.custom_networks():
            custom = CustomEndpoint.from_json(text)
            if custom is not None and custom.name.casefold() not in found:
                found[custom.name.casefold()] = custom
        return list(found.values())

    @property
    def networks(self) -> list[Network]:
        """Return the selectable networks: the built-in ones, then the custom endpoints."""
        return [*BUILTIN, *(self._custom_network(custom) for custom in self.customs())]

    def network(self, network_id: str) -> Network | None:
        """Return the network with this id, or None."""
        return next((n for n in self.networks if n.id == network_id), None)

    def _custom(self, network_id: str) -> CustomEndpoint | None:
        """Return the stored custom endpoint with this id, or None."""
        return next((c for c in self.customs() if c.id == network_id), None)

    @staticmethod
    def _custom_network(custom: CustomEndpoint) -> Network:
        """Return the Network of a custom endpoint; RSK chain ids keep currency and RNS."""
        return custom_network(custom.name, custom.chain_id)

    @property
    def current_id(self) -> str:
        """Return the id of the current network (the Local devnet when none is stored)."""
        stored = self.settings.current_network()
        return stored if self.network(stored) is not None else DEVNET.id

    @property
    def current(self) -> Network:
        """Return the current network."""
        return self.network(self.current_id) or DEVNET

    def set_current(self, network_id: str) -> None:
        """Make a known network current and remember it; unknown ids are ignored."""
        if self.network(network_id) is None:
            return
        before = self.current_id
        self.settings.set_current_network(network_id)
        if network_id != before:
            self.current_changed.emit(network_id)

    @property
    def hint(self) -> str:
        """Return how to get a key when no hosted network can be used, else ''."""
        hosted = [n for n in BUILTIN if n.kind is NetworkKind.HOSTED]
        return "" if any(self.endpoint_for(n) for n in hosted) else GET_A_KEY

    def startup(self) -> tuple[Network, str]:
        """Return the network to open at start and a line to show: the devnet when needed."""
        network = self.current
        if network is DEVNET:
            return DEVNET, self.hint
        if self.endpoint_for(network) is not None:
            return network, ""
        if network.kind is NetworkKind.HOSTED:
            return (
                DEVNET,
                f"{network.name} has no API key, so this is the Local devnet. {GET_A_KEY}",
            )
        reason = self.unavailable_reason(network)
        return DEVNET, f"{network.name} cannot be used ({reason}), so this is the Local devnet."

    def set_devnet_endpoint(self, endpoint: Endpoint | None) -> None:
        """Tell where the Local devnet listens once the app has started it (None: stopped)."""
        self._devnet = endpoint

    def endpoint_for(self, network: Network) -> Endpoint | None:
        """Return the saved endpoint of a network; None when it lacks something (see reason)."""
        return self._resolve(self.form_for(network.id))[0]

    def unavailable_reason(self, network: Network) -> str:
        """Return why endpoint_for(network) is None, or '' when it is not."""
        return self._resolve(self.form_for(network.id))[1]

    def _resolve(self, form: NetworkForm) -> tuple[Endpoint | None, str]:
        """Return a form's endpoint, or None and the reason."""
        try:
            endpoint = self._form_endpoint(form)
        except InvalidInput as error:
            return None, error.message
        if endpoint is not None:
            return endpoint, ""
        if form.network_id == DEVNET.id:
            return None, "the Local devnet runs only while the app has started it"
        return None, f"{form.name} needs an API key, or the public node. {GET_A_KEY}"

    def preview(self, form: NetworkForm) -> tuple[str, bool | None]:
        """Return where a form's requests would go (key masked) and True, or what is missing
        and None (nothing wrong yet) or False (a value is wrong)."""
        endpoint, reason = self._resolve(form)
        if endpoint is not None:
            return endpoint.redacted, True
        if form.is_custom:
            return "nowhere yet: complete the fields above", None
        if form.network_id == DEVNET.id:
            return "the app starts it when you choose Local devnet", None
        if form.api_key.strip() and not form.use_public_node:
            return reason, False
        return "nowhere yet: enter an API key or use the public node", None

    def _form_endpoint(self, form: NetworkForm) -> Endpoint | None:
        """Return the endpoint a form describes, None when it needs a key; InvalidInput."""
        if form.is_custom:
            return custom_endpoint(form)
        if form.network_id == DEVNET.id:
            return self._devnet
        network = self.network(form.network_id) or DEVNET
        key = form.api_key.strip()
        if form.use_public_node or not key:
            return network.endpoint(None) if form.use_public_node else None
        return network.endpoint(key, v2=form.v2)

    def form_for(self, network_id: str) -> NetworkForm:
        """Return the saved settings of a network as a form; KeyError when unknown."""
        network = self.network(network_id)
        if network is None:
            raise KeyError(network_id)
        custom = self._custom(network_id)
        public = False
        if network.kind is NetworkKind.HOSTED:
            public = self.settings.use_public_node(network_id)
        return NetworkForm(
            network_id=network_id,
            name=network.name,
            url=custom.url if custom else network.hosted_base or "",
            api_key=self.settings.api_key(network_id),
            v2=self.settings.url_v2(network_id),
            use_public_node=public,
            chain_id=str(network.chain_id),
            allow_insecure_http=custom.allow_insecure_http if custom else False,
        )

    def validate(self, form: NetworkForm, taken_names: Collection[str] | None = None) -> FormErrors:
        """Return a message per bad field (name, url, api_key, chain_id); {} when valid.

        taken_names (casefolded) are the names of the other networks; by default those of the
        saved networks other than the form's own.
        """
        if not form.is_custom:
            key = form.api_key.strip()
            return _key_error(key) if key and form.network_id != DEVNET.id else {}
        if taken_names is None:
            taken_names = {n.name.casefold() for n in self.networks if n.id != form.network_id}
        errors: FormErrors = {}
        name = form.name.strip()
        if not name:
            errors["name"] = "give the endpoint a name"
        elif "/" in name or "\\" in name:
            errors["name"] = "a name cannot hold / or \\"
        elif name.casefold() in taken_names:
            errors["name"] = f"another network is already called {name}"
        try:
            parse_chain_id(form.chain_id)
        except InvalidInput as error:
            errors["chain_id"] = error.message
        split = split_pasted_key(form)
        try:
            Endpoint.parse(split.url, allow_insecure_http=form.allow_insecure_http, split_key=False)
        except InvalidInput as error:
            errors["url"] = error.message
        key = split.api_key.strip()
        return errors | (_key_error(key) if key else {})

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

        Returns the errors by draft id; nothing is saved unless that is empty.
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
        """Store valid forms and the custom list; follow a rename or removal of the current."""
        before = self.current_id
        by_id = {f.network_id: f for f in forms.values() if f.network_id}
        entries: list[tuple[CustomEndpoint, NetworkForm | None]] = []
        renamed: dict[str, str] = {}
        for custom in kept:
            form = by_id.get(custom.id)
            updated = custom if form is None else _to_custom(form)
            if updated.id != custom.id:
                renamed[custom.id] = updated.id
            entries.append((updated, form))
        entries += [(_to_custom(f), f) for f in forms.values() if not f.network_id]
        for old_id in removed | set(renamed):
            self.settings.forget_network(old_id)
        for custom, form in entries:
            if form is not None:
                self._store(custom.id, split_pasted_key(form))
        for form in forms.values():
            if not form.is_custom and form.network_id != DEVNET.id:
                self._store(form.network_id, form)
        self.settings.set_custom_networks([c.to_json() for c, _ in entries])
        stored = self.settings.current_network()
        if stored in renamed:
            self.settings.set_current_network(renamed[stored])
        self.networks_changed.emit()
        if self.current_id != before:
            self.current_changed.emit(self.current_id)

    def _store(self, network_id: str, form: NetworkForm) -> None:
        """Store a network's key, URL form and (hosted only) public-node choice."""
        self.settings.set_api_key(network_id, form.api_key.strip())
        self.settings.set_url_v2(network_id, form.v2)
        if not form.is_custom:
            self.settings.set_use_public_node(network_id, form.use_public_node)

    async def test_connection(self, target: Network | NetworkForm) -> ConnectionReport:
        """Probe a saved network or unsaved form values: chain id, client, latency, or error."""
        form = target if isinstance(target, NetworkForm) else self.form_for(target.id)
        try:
            endpoint = self._form_endpoint(form)
            expected = parse_chain_id(form.chain_id) if form.chain_id.strip() else None
        except InvalidInput as error:
            return ConnectionReport("", False, error_kind=error.kind.value, message=error.message)
        if endpoint is None:
            reason = self._resolve(form)[1]
            return ConnectionReport("", False, error_kind="not set up", message=reason)
        return await self._probe(endpoint, expected)

    async def _probe(self, endpoint: Endpoint, expected: int | None) -> ConnectionReport:
        """Ask the node once (no retries) and turn the answer into a report."""
        secret = endpoint.api_key or ""
        client = RpcClient(endpoint, http=self._http, retry=NO_RETRY, timeout=TEST_TIMEOUT)
        try:
            probe = await client.probe(expected)
        except RpcError as error:
            message = _scrub(error.message, secret)
            return ConnectionReport(
                endpoint.redacted, False, None, expected, None, None, error.kind.value, message
            )
        finally:
            await client.aclose()
        mismatch = probe.mismatch()
        client_version = _scrub(probe.client_version, secret) if probe.client_version else None
        return ConnectionReport(
            endpoint=endpoint.redacted,
            ok=mismatch is None,
            chain_id=probe.chain_id,
            expected_chain_id=expected,
            client_version=client_version,
            latency_ms=probe.latency * 1000,
            error_kind=None if mismatch is None else mismatch.kind.value,
            message="" if mismatch is None else _scrub(mismatch.message, secret),
        )


def _key_error(key: str) -> FormErrors:
    """Return the API key's error when its characters cannot go into a URL path."""
    try:
        Endpoint("https://localhost", key)
    except InvalidInput as error:
        return {"api_key": error.message}
    return {}


def _to_custom(form: NetworkForm) -> CustomEndpoint:
    """Return the stored form of a valid custom form."""
    endpoint = custom_endpoint(form)
    chain_id = parse_chain_id(form.chain_id)
    return CustomEndpoint(form.name.strip(), endpoint.base_url, chain_id, form.allow_insecure_http)
