"""Help > About: the app, its version, the versions of what it runs on, and the licences."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtGui import QFontDatabase, QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer.chain.bundled import read_text
from explorer.views.theme import plain_label

LICENCES = (
    ("Licence", "licenses/LICENSE"),
    ("Third-party", "licenses/THIRD-PARTY-NOTICES.txt"),
    ("LGPL-3.0", "licenses/LGPL-3.0.txt"),
    ("GPL-3.0", "licenses/GPL-3.0.txt"),
)

SUMMARY = (
    "A desktop block explorer for Rootstock (RSK): blocks, transactions, addresses, tokens "
    "and logs, from a node access service or the built-in local devnet.\n"
    "Free software under the MIT licence. Qt and PySide6 are used under the LGPL-3.0: "
    "see the Third-party tab for how to replace the Qt libraries."
)


class AboutDialog(QDialog):
    """The About dialog: name, icon, versions, then one tab per licence text."""

    def __init__(
        self,
        icon: QIcon,
        versions: Mapping[str, str],
        licences: Sequence[tuple[str, str]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("About Rootstock Explorer")
        self.resize(640, 520)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._about_tab(icon, versions), "About")
        for title, text in licences:
            self.tabs.addTab(_text_tab(text), title)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(buttons)

    def _about_tab(self, icon: QIcon, versions: Mapping[str, str]) -> QWidget:
        """Return the first tab: icon, name and version, summary, the versions table."""
        tab = QWidget()
        heading = QHBoxLayout()
        picture = QLabel()
        picture.setPixmap(icon.pixmap(64, 64))
        version = versions.get("Explorer", "")
        title = plain_label(f"Rootstock Explorer {version}", selectable=False)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        title.setFont(font)
        heading.addWidget(picture)
        heading.addWidget(title, 1)
        summary = plain_label(SUMMARY, selectable=False, wrap=True)
        table = QFormLayout()
        self.version_labels: dict[str, QLabel] = {}
        for name, value in versions.items():
            label = plain_label(value)
            self.version_labels[name] = label
            table.addRow(f"{name}:", label)
        layout = QVBoxLayout(tab)
        layout.addLayout(heading)
        layout.addWidget(summary)
        layout.addSpacing(8)
        layout.addLayout(table)
        layout.addStretch(1)
        return tab


def _text_tab(text: str) -> QPlainTextEdit:
    """Return a read-only, fixed-width view of a licence text."""
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return view


def licence_texts() -> list[tuple[str, str]]:
    """Return (tab title, text) of the licence and the notices bundled in resources/."""
    return [(title, read_text(path)) for title, path in LICENCES]
