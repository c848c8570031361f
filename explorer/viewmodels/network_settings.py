"""The Settings dialog's state: a draft per network, the shown one, its checks and its test."""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass

from PySide6.QtCore import QObject

from explorer.services.network_forms import (
    FormErrors,
    FormField,
    NetworkForm,
    split_pasted_key,
)
from explorer.services.networks import DEVNET, GET_A_KEY, Network, NetworkKind
from explorer.services.probe import ConnectionReport
from explorer.viewmodels.keyring_option import KeyringOptionViewModel, KeySafe
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.observable import TypedSignal, qproperty

NEW_NAME = "New endpoint"
CUSTOM_ABOUT = (
    "Your own endpoint. A key pasted at the end of the URL is moved to the API key field."
)
URL_FORMS = ("{base}/<KEY>", "{base}/v2/<KEY>")
CUSTOM_FIELDS = frozenset(FormField) - {FormField.PUBLIC_NODE}
HOSTED_FIELDS = frozenset({FormField.API_KEY, FormField.URL_FORM, FormField.PUBLIC_NODE})


class PreviewState(enum.Enum):
    """How far a draft is from an endpoint requests can go to."""

    READY = "ready"
    INCOMPLETE = "incomplete"
    INVALID = "invalid"


class ProbeState(enum.Enum):
    """Where the shown draft's connection test is."""

    IDLE = "idle"
    RUNNING = "running"
    DONE = "done"


@dataclass(frozen=True)
class DraftEntry:
    """One network in the dialog's list."""

    draft_id: str
    title: str
    is_current: bool


@dataclass(frozen=True)
class DraftLayout:
    """What the form shows around the shown draft's values; key_hint '' is hidden."""

    title: str
    about: str
    fields: frozenset[FormField]
    url_forms: tuple[str, ...]
    url_form_enabled: bool
    key_hint: str
    endpoint: str
    endpoint_state: PreviewState
    removable: bool


def describe(network: Network | None) -> str:
    """Return one line on where a network's node is."""
    if network is None or network.kind is NetworkKind.CUSTOM:
        return CUSTOM_ABOUT
    if network.kind is NetworkKind.HOSTED:
        return (
            f"Chain {network.chain_id} · {network.currency}. Hosted RPC API at "
            f"{network.hosted_base} with your key, or the public node {network.public_url}."
        )
    return (
        f"Chain {network.chain_id} · a local node with seeded history, started by the app. "
        "No key needed."
    )


class NetworkSettingsViewModel(QObject):
    """Every network's settings as drafts until accept(); one draft is shown and tested.

    Switching networks keeps what was typed. A field's error shows once the user has left it.

    Signals:
        drafts_changed(): a draft was added or removed, or a custom draft renamed (drafts).
        selection_changed(str): another draft is shown (selected_id).
        draft_changed(NetworkForm): the shown draft's values changed (draft).
        layout_changed(DraftLayout): texts, fields or preview around it changed.
        errors_changed(FormErrors): the messages under the fields changed.
        key_revealed_changed(bool): the API key is shown in clear (True) or masked.
        probe_state_changed(ProbeState): a connection test started, ended or was dropped.
        connection_tested(ConnectionReport): the shown draft's test finished; a
            test superseded by another test or another network is never reported.
    """

    drafts_changed = TypedSignal[()]()
    selection_changed = TypedSignal[str]()
    draft_changed = TypedSignal[NetworkForm]()
    layout_changed = TypedSignal[DraftLayout]()
    errors_changed = TypedSignal[FormErrors]()
    key_revealed_changed = TypedSignal[bool]()
    probe_state_changed = TypedSignal[ProbeState]()
    connection_tested = TypedSignal[ConnectionReport]()

    def __init__(
        self,
        networks: NetworksViewModel,
        parent: QObject | None = None,
        *,
        safe: KeySafe | None = None,
    ) -> None:
        """Draft the saved settings of every network; show the current one.

        safe is where the keys are kept (the keyring option is offered only with one).
        """
        super().__init__(parent)
        self.networks = networks
        self.keyring = KeyringOptionViewModel(safe, self)
        self._saved = {n.id: networks.form_for(n.id) for n in networks.networks}
        self._forms = dict(self._saved)
        self._removed: list[str] = []
        self._new_count = 0
        self._shown = networks.current_id
        self._touched: set[FormField] = set()
        self._errors: FormErrors = {}
        self._entries = self._list_entries()
        self._layout = self._lay_out()
        self._key_revealed = False
        self._probe_state = ProbeState.IDLE
        self._report: ConnectionReport | None = None
        self._test: asyncio.Future[None] | None = None

    def _get_drafts(self) -> list[DraftEntry]:
        """Return the list entries, in the order networks are listed."""
        return list(self._entries)

    def _get_selected_id(self) -> str:
        """Return the draft id of the shown draft (a network id, or new:<n>)."""
        return self._shown

    def _get_draft(self) -> NetworkForm:
        """Return the shown draft."""
        return self._forms[self._shown]

    def _get_layout(self) -> DraftLayout:
        """Return what the form shows around the draft."""
        return self._layout

    def _get_errors(self) -> FormErrors:
        """Return the messages of the fields the user has left."""
        return dict(self._errors)

    def _get_key_revealed(self) -> bool:
        """Tell whether the API key is shown in clear."""
        return self._key_revealed

    def _get_probe_state(self) -> ProbeState:
        """Return where the connection test is."""
        return self._probe_state

    def _get_report(self) -> ConnectionReport | None:
        """Return the shown draft's last test report (None while running or untested)."""
        return self._report

    drafts = qproperty(_get_drafts, drafts_changed)
    selected_id = qproperty(_get_selected_id, selection_changed)
    draft = qproperty(_get_draft, draft_changed)
    layout = qproperty(_get_layout, layout_changed)
    errors = qproperty(_get_errors, errors_changed)
    key_revealed = qproperty(_get_key_revealed, key_revealed_changed)
    probe_state = qproperty(_get_probe_state, probe_state_changed)
    report = qproperty(_get_report, probe_state_changed)

    def select(self, draft_id: str) -> None:
        """Show another draft: its test is dropped, its key masked, its errors unchecked."""
        if draft_id in self._forms and draft_id != self._shown:
            self._show(draft_id)

    def _show(self, draft_id: str) -> None:
        """Show a draft afresh (the list first, so that it holds the draft)."""
        self._drop_test()
        self._set_probe(ProbeState.IDLE, None)
        self._shown = draft_id
        self._touched = set()
        self._refresh_list()
        self.selection_changed.emit(draft_id)
        self.draft_changed.emit(self.draft)
        self.set_key_revealed(False)
        self._refresh_form()

    def edit(self, field: FormField, value: str | bool) -> None:
        """Set a field of the shown draft (ticking insecure http re-checks the URL)."""
        if field is FormField.INSECURE_HTTP:
            self._touched.add(FormField.URL)
        self._replace(self.draft.with_value(field, value))

    def leave(self, field: FormField) -> None:
        """Check a field the user has left; a key pasted at the end of the URL moves over."""
        self._touched.add(field)
        form = split_pasted_key(self.draft) if field is FormField.URL else self.draft
        self._replace(form)

    def set_key_revealed(self, revealed: bool) -> None:
        """Show the API key in clear or masked."""
        if revealed != self._key_revealed:
            self._key_revealed = revealed
            self.key_revealed_changed.emit(revealed)

    def add_custom(self) -> None:
        """Add a new custom endpoint draft and show it."""
        self._new_count += 1
        draft_id = f"new:{self._new_count}"
        self._forms[draft_id] = NetworkForm()
        self._show(draft_id)

    def remove_shown(self) -> None:
        """Remove the shown custom endpoint (saved only by accept); show its neighbour."""
        if not self.draft.is_custom:
            return
        if self.draft.network_id:
            self._removed.append(self.draft.network_id)
        ids = list(self._forms)
        row = ids.index(self._shown)
        del self._forms[ids.pop(row)]
        self._show(ids[min(row, len(ids) - 1)])

    def test_connection(self) -> None:
        """Test the shown draft's endpoint; a test still running is dropped."""
        self._drop_test()
        self._set_probe(ProbeState.RUNNING, None)
        self._test = asyncio.ensure_future(self._run_test(self.draft))

    async def _run_test(self, form: NetworkForm) -> None:
        """Run one test and report it (a dropped test is cancelled before it can report)."""
        report = await self.networks.test_connection(form)
        self._test = None
        self._set_probe(ProbeState.DONE, report)
        self.connection_tested.emit(report)

    def accept(self) -> bool:
        """Save every changed draft and removal, or show the first bad draft and return False."""
        if not self.keyring.apply():
            return False
        pending = {d: f for d, f in self._forms.items() if self._saved.get(d) != f}
        if pending or self._removed:
            errors = self.networks.commit(pending, self._removed)
            if errors:
                draft_id, found = next(iter(errors.items()))
                self.select(draft_id)
                self._touched = set(FormField)
                self._set_errors(found)
                return False
        self.dispose()
        return True

    def dispose(self) -> None:
        """Stop a running connection test and the keyring lookup (the dialog closes)."""
        self._drop_test()
        self.keyring.dispose()

    def _drop_test(self) -> None:
        """Cancel the running test: its result, however late, is never shown nor emitted."""
        if self._test is not None:
            self._test.cancel()
        self._test = None

    def _set_probe(self, state: ProbeState, report: ConnectionReport | None) -> None:
        """Set the test state and report."""
        if (state, report) != (self._probe_state, self._report):
            self._probe_state, self._report = state, report
            self.probe_state_changed.emit(state)

    def _replace(self, form: NetworkForm) -> None:
        """Store the shown draft and refresh what depends on it.

        A connection test of other values (another endpoint or chain id) no longer applies:
        its result goes, and a test still running is dropped.
        """
        if form != self.draft:
            if self._tested_as(form) != self._tested_as(self.draft):
                self._drop_test()
                self._set_probe(ProbeState.IDLE, None)
            self._forms[self._shown] = form
            self.draft_changed.emit(form)
        self._refresh()

    def _tested_as(self, form: NetworkForm) -> tuple[str | None, str]:
        """Return what a connection test of a form depends on: its request URL and chain id."""
        endpoint = self.networks.resolve(form)[0]
        return (None if endpoint is None else endpoint.url), form.chain_id.strip()

    def _refresh(self) -> None:
        """Recompute the list, the layout and the checked fields' errors; emit what changed."""
        self._refresh_list()
        self._refresh_form()

    def _refresh_list(self) -> None:
        """Recompute the list entries; emit drafts_changed when they changed."""
        entries = self._list_entries()
        if entries != self._entries:
            self._entries = entries
            self.drafts_changed.emit()

    def _refresh_form(self) -> None:
        """Recompute the layout and the checked fields' errors; emit what changed."""
        layout = self._lay_out()
        if layout != self._layout:
            self._layout = layout
            self.layout_changed.emit(layout)
        others = {f.name.strip().casefold() for d, f in self._forms.items() if d != self._shown}
        errors = self.networks.validate(self.draft, others)
        self._set_errors({f: m for f, m in errors.items() if f in self._touched})

    def _set_errors(self, errors: FormErrors) -> None:
        """Set the messages shown under the fields."""
        if errors != self._errors:
            self._errors = errors
            self.errors_changed.emit(dict(errors))

    def _list_entries(self) -> list[DraftEntry]:
        """Return an entry per draft."""
        current = self.networks.current_id
        return [
            DraftEntry(d, f.name.strip() or NEW_NAME, d == current) for d, f in self._forms.items()
        ]

    def _lay_out(self) -> DraftLayout:
        """Return the layout of the shown draft."""
        form = self.draft
        network = self.networks.network(form.network_id)
        hosted = network is not None and network.hosted_base is not None
        fields = CUSTOM_FIELDS if form.is_custom else HOSTED_FIELDS if hosted else frozenset()
        base = network.hosted_base if network and network.hosted_base else custom_base(form)
        no_key = not form.api_key.strip()
        endpoint, state = self._preview(form)
        return DraftLayout(
            title=form.name.strip() or NEW_NAME,
            about=describe(network),
            fields=fields,
            url_forms=tuple(pattern.format(base=base) for pattern in URL_FORMS),
            url_form_enabled=not no_key,
            key_hint=GET_A_KEY if hosted and no_key and not form.use_public_node else "",
            endpoint=endpoint,
            endpoint_state=state,
            removable=form.is_custom,
        )

    def _preview(self, form: NetworkForm) -> tuple[str, PreviewState]:
        """Return where a draft's requests would go (key masked), or what is missing."""
        endpoint, reason = self.networks.resolve(form)
        if endpoint is not None:
            return endpoint.redacted, PreviewState.READY
        if form.is_custom:
            return "nowhere yet: complete the fields above", PreviewState.INCOMPLETE
        if form.network_id == DEVNET.id:
            return "the app starts it when you choose Local devnet", PreviewState.INCOMPLETE
        if form.api_key.strip() and not form.use_public_node:
            return reason, PreviewState.INVALID
        return "nowhere yet: enter an API key or use the public node", PreviewState.INCOMPLETE


def custom_base(form: NetworkForm) -> str:
    """Return the base URL a custom draft names, or a stand-in."""
    return split_pasted_key(form).url.strip().rstrip("/") or "URL"
