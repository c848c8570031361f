"""A base for linked chain values: a link label, an optional tag, a copy button, a menu."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QSizePolicy, QWidget

from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.theme import monospace, plain_label
from explorer.views.widgets.links import CopyButton, LinkLabel
from explorer.views.widgets.menus import build_context_menu, copy_to_clipboard

TAG_STYLE = (
    "QLabel { background-color: palette(alternate-base); color: palette(text);"
    " border: 1px solid palette(mid); border-radius: 4px; padding: 0px 4px; }"
)


class LinkedValue(QWidget):
    """A chain value shown as a link with a tag and a copy button.

    Signals:
        link_activated(route, new_tab): the value's link was clicked (see LinkLabel) or
        "Open in new tab" was chosen from its context menu.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, link: LinkLabel, what: str, parent: QWidget | None = None):
        """Lay out link, tag and copy button; `what` names the value in tooltips."""
        super().__init__(parent)
        self.link = link
        monospace(link)
        link.link_activated.connect(self.link_activated)
        self._tag: QLabel | None = None  # made when first needed: most values have none
        self.copy_button = CopyButton(what)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.setSpacing(4)
        self._row.addWidget(link)
        self._row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self._row.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    @property
    def tag(self) -> QLabel:
        """Return the tag beside the value (hidden while it has no text)."""
        if self._tag is None:
            self._tag = tag_label("")
            self._tag.hide()
            self._row.insertWidget(1, self._tag, 0, Qt.AlignmentFlag.AlignVCenter)
        return self._tag

    def copy_text(self) -> str:
        """Return what Copy puts on the clipboard."""
        raise NotImplementedError

    def json_value(self) -> object:
        """Return what Copy as JSON serializes."""
        raise NotImplementedError

    def route(self) -> Route | None:
        """Return the route the value links to, if any."""
        return self.link.route()

    def copy(self) -> None:
        """Copy the value to the clipboard."""
        copy_to_clipboard(self.copy_text())

    def context_menu(self) -> QMenu:
        """Build the context menu: Copy, Copy as JSON, Open in new tab."""
        return build_context_menu(
            self, self.copy_text(), self.json_value(), self.route(), self.link_activated.emit
        )

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Show the context menu."""
        self.context_menu().exec(event.globalPos())

    def _set_tag(self, text: str | None) -> None:
        """Show a short tag beside the value, or hide it."""
        if not text and self._tag is None:
            return
        self.tag.setText(text or "")
        self.tag.setVisible(bool(text))

    def _refresh_copy(self) -> None:
        """Keep the copy button's text in step with the value."""
        self.copy_button.set_copy_text(self.copy_text())


def tag_label(text: str) -> QLabel:
    """Return a standalone tag label in the shared style."""
    label = plain_label(text, selectable=False)
    label.setStyleSheet(TAG_STYLE)
    return label
