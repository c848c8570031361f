"""Where Bitcoin txids, addresses and blocks open: a URL template per Bitcoin network."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from PySide6.QtCore import QObject

from explorer.viewmodels.observable import TypedSignal, qproperty

NETWORKS = {"main": "Bitcoin mainnet", "test": "Bitcoin testnet"}


class TemplateStore(Protocol):
    """Where the templates are kept (explorer.settings.store.Settings fits, with its Keys)."""

    def get(self, key: Any) -> Any:
        """Return a stored value or the key's default."""

    def set(self, key: Any, value: Any) -> None:
        """Store a value."""


def template_problem(template: str) -> str:
    """Return why a URL template cannot be used ("" when it can)."""
    if "{id}" not in template:
        return "the template needs {id} where the txid, address or hash goes"
    try:
        parts = urlsplit(template.replace("{kind}", "tx").replace("{id}", "x"))
    except ValueError:
        return "the template is not a URL"
    if parts.scheme not in ("https", "http") or not parts.netloc:
        return "the template must start with https:// (or http://) and a host"
    return ""


def explorer_url(template: str, kind: str, value: str) -> str:
    """Fill a template with what to show (the value is URL-quoted: it came from a node)."""
    return template.replace("{kind}", kind).replace("{id}", quote(value, safe=""))


class BitcoinLinksViewModel(QObject):
    """The saved templates, edited as drafts; `accept` saves them when both are usable.

    Signals:
        problem_changed(): the message about the drafts changed.
    """

    problem_changed = TypedSignal[()]()

    def __init__(
        self, store: TemplateStore, keys: Mapping[str, Any], parent: QObject | None = None
    ) -> None:
        """Edit the templates kept in store under keys["main"] and keys["test"]."""
        super().__init__(parent)
        self.store, self.keys = store, keys
        self.defaults = {network: str(keys[network].default) for network in NETWORKS}
        self.drafts = {network: self._read(network) for network in NETWORKS}
        self._problem = ""

    def _read(self, network: str) -> str:
        """Return the saved template of a network."""
        return str(self.store.get(self.keys[network]))

    def _get_problem(self) -> str:
        return self._problem

    problem = qproperty(_get_problem, problem_changed)

    def url(self, network: str, kind: str, value: str) -> str:
        """Return where a Bitcoin txid, address or block of a network ("main", "test") opens."""
        template = self._read(network)
        if template_problem(template):
            template = self.defaults[network]
        return explorer_url(template, kind, value)

    def accept(self) -> bool:
        """Save the drafts when both are usable; else say why and keep them."""
        for network, draft in self.drafts.items():
            problem = template_problem(draft.strip())
            if problem:
                self._problem = f"{NETWORKS[network]}: {problem}."
                self.problem_changed.emit()
                return False
        for network, draft in self.drafts.items():
            self.store.set(self.keys[network], draft.strip())
        return True

    def restore_defaults(self) -> None:
        """Put the default public explorer back in the drafts."""
        self.drafts = dict(self.defaults)
