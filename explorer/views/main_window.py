"""The main window: search bar, page area and status bar."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QLineEdit, QMainWindow, QToolBar, QVBoxLayout, QWidget

from explorer.viewmodels.shell import ShellViewModel

TITLE = "Rootstock Explorer"


class MainWindow(QMainWindow):
    """Top-level window bound to a ShellViewModel."""

    def __init__(self, shell: ShellViewModel) -> None:
        super().__init__()
        self._shell = shell
        self.setWindowTitle(TITLE)
        self.resize(1200, 800)
        self.search_bar = QLineEdit()
        self.search_bar.setPlaceholderText(
            "Search by block number, transaction or block hash, address, or name.rsk"
        )
        self.search_bar.setClearButtonEnabled(True)
        toolbar = QToolBar("Search")
        toolbar.setMovable(False)
        toolbar.addWidget(self.search_bar)
        self.addToolBar(toolbar)
        QShortcut(QKeySequence("Ctrl+L"), self).activated.connect(self.focus_search)
        self.home_label = QLabel("Paste a transaction hash, a block number or an address above.")
        self.home_label.setTextFormat(Qt.TextFormat.PlainText)
        self.home_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addWidget(self.home_label)
        self.setCentralWidget(central)
        self.network_label = QLabel()
        self.network_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label = QLabel()
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addWidget(self.network_label)
        self.statusBar().addWidget(self.status_label, 1)
        shell.network_changed.connect(self.network_label.setText)
        shell.status_changed.connect(self.status_label.setText)
        self.network_label.setText(shell.network)
        self.status_label.setText(shell.status)

    def focus_search(self) -> None:
        """Put the cursor in the search bar with its text selected."""
        self.search_bar.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_bar.selectAll()
