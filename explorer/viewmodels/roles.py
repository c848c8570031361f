"""Item-model roles the views share."""

from __future__ import annotations

from PySide6.QtCore import Qt

ROUTE_ROLE = Qt.ItemDataRole.UserRole + 1  # a cell's Route (explorer.services.routes), or None
TONE_ROLE = Qt.ItemDataRole.UserRole + 2  # a cell's Tone (explorer.presentation.document)
COPY_ROLE = Qt.ItemDataRole.UserRole + 3  # what Copy gives for a cell (an exact amount), else None
