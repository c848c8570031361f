"""The crash report dialog: what happened, the report to copy or save, and the app goes on."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

KEEPS_RUNNING = (
    "The explorer keeps running, but what you were doing may not have finished. "
    "The report below has no API key in it; copy it into a bug report."
)
PREVIOUS_RUN = (
    "The explorer did not close properly the last time it ran. "
    "The report below holds its last log lines; copy it into a bug report."
)


class CrashDialog(QDialog):
    """A non-modal dialog showing a crash report (plain text) with Copy and Close."""

    def __init__(
        self,
        title: str,
        report: str,
        saved: Path | None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rootstock Explorer: an error occurred")
        self.setModal(False)
        self.resize(760, 520)
        layout = QVBoxLayout(self)
        self.headline = QLabel(title)
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.setWordWrap(True)
        self.explanation = QLabel(KEEPS_RUNNING)
        self.explanation.setWordWrap(True)
        where = f"Saved as {saved}" if saved else "The report could not be saved to a file."
        self.saved_label = QLabel(where)
        self.saved_label.setTextFormat(Qt.TextFormat.PlainText)
        self.report = QPlainTextEdit(report)
        self.report.setReadOnly(True)
        self.report.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("Copy report")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_report)
        buttons.rejected.connect(self.reject)
        for widget in (self.headline, self.explanation, self.saved_label, self.report, buttons):
            layout.addWidget(widget)

    def add_report(self, title: str, report: str) -> None:
        """Append a later report to the open dialog (one dialog, not a cascade)."""
        self.headline.setText(f"{self.headline.text()} (and later: {title})")
        self.report.appendPlainText("\n" + "=" * 72 + "\n" + report)

    def copy_report(self) -> None:
        """Put the whole report on the clipboard."""
        QGuiApplication.clipboard().setText(self.report.toPlainText())
