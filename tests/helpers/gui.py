"""GUI helpers: waiting for pages and reading their fields."""

from __future__ import annotations

import asyncio
from typing import Any

from explorer.views.main_window import MainWindow


def wait_loaded(qtbot: Any, window: MainWindow, timeout: int = 20_000) -> Any:
    """Wait until the current page has left the loading state; return its view."""

    def settled() -> bool:
        page = window.current_page()
        return (
            page is not None
            and not page.model.waiting
            and not page.model.busy
            and page.document_view.is_complete
        )

    qtbot.waitUntil(settled, timeout=timeout)
    return window.current_page()


def field_text(page: Any, label: str) -> str:
    """Return the shown text of a field by label."""
    return str(page.document_view.value_labels[label].text())


async def settle() -> None:
    """Yield to the loop once."""
    await asyncio.sleep(0)
