"""Shows a cost gate's question in a message box: start anyway, or not."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from explorer.viewmodels.cost_gate import CostGate


def bind_cost_gate(parent: QWidget, gate: CostGate) -> None:
    """Ask the gate's questions in a window-modal box over parent; its buttons answer."""
    boxes: list[QMessageBox] = []

    def on_question(text: str) -> None:
        for box in boxes:
            box.close()
        boxes.clear()
        if not text:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "Past today's quota?", text, parent=parent)
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.buttonClicked.connect(
            lambda button: gate.answer(box.buttonRole(button) == QMessageBox.ButtonRole.YesRole)
        )
        box.finished.connect(lambda _result: gate.answer(False))
        boxes.append(box)
        box.open()

    gate.question_changed.connect(on_question)
