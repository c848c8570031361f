"""The contract screens for `--screenshot`: each proxy kind, recovered functions, a match.

Each proxy kind's Contract tab, the implementation's functions recovered from bytecode, and a
source matched from a Hardhat project's artifacts (issue 32).

The matched artifact is the Notary's Hardhat project, shipped with the tests
(tests/fixtures/hardhat-notary); a build without it (the installed package) skips that screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QGroupBox

from explorer.services.routes import address_route
from explorer.tour.passes import Helpers, Settle
from explorer.views.address.page import AddressView
from explorer.views.main_window import MainWindow

PROXY_SCREENS = (
    ("contract-eip1967", "proxy"),
    ("contract-beacon", "beacon_proxy"),
    ("contract-uups", "uups_proxy"),
    ("contract-clone", "clone"),
)
FUNCTIONS = "Implementation's functions"
HARDHAT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "hardhat-notary"


async def open_contract_tab(
    window: MainWindow, address: str, path: Path, helpers: Helpers
) -> AddressView | None:
    """Open an address on its Contract tab once the contract's facts are read."""
    shoot, settle, wait_for = helpers
    await shoot(window, address_route(address), path)
    view = window.current_page()
    if not isinstance(view, AddressView):
        return None
    info = view.address_model.contract
    await wait_for(lambda: info.facts is not None and not info.running, 60)
    view.content.setCurrentWidget(view.contract_tab)
    await wait_for(lambda: view.contract_tab.info_box.facts_view.is_complete, 10)
    await settle(window)
    return view


async def shoot_functions(
    window: MainWindow, view: AddressView, path: Path, settle: Settle
) -> Path:
    """Scroll the Contract tab to the implementation's functions and save a PNG."""
    tab = view.contract_tab
    inner = tab.widget()
    for box in tab.info_box.facts_view.findChildren(QGroupBox):
        if box.title() == FUNCTIONS and inner is not None:
            tab.verticalScrollBar().setValue(box.mapTo(inner, QPoint(0, 0)).y())
    await settle(window)
    window.grab().save(str(path))
    tab.verticalScrollBar().setValue(0)
    return path


async def take_contract_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    mode: str,
    helpers: Helpers,
) -> list[Path]:
    """Shoot each proxy kind, the recovered functions and a matched artifact."""
    proxies = manifest.get("proxies") or {}
    if not proxies:
        return []
    _shoot, settle, wait_for = helpers
    written = []
    for stem, key in PROXY_SCREENS:
        address = proxies["clones"][0] if key == "clone" else proxies[key]
        path = directory / f"{stem}-{mode}.png"
        view = await open_contract_tab(window, str(address), path, helpers)
        if view is None:
            continue
        window.grab().save(str(path))
        written.append(path)
        if key == "proxy":
            functions = directory / f"contract-functions-{mode}.png"
            written.append(await shoot_functions(window, view, functions, settle))
    if HARDHAT.is_dir():
        path = directory / f"contract-matched-{mode}.png"
        view = await open_contract_tab(window, str(proxies["notary"]), path, helpers)
        if view is not None:
            info = view.address_model.contract
            info.choose_artifacts(str(HARDHAT))
            await wait_for(lambda: not info.running and info.facts is not None, 30)
            await wait_for(lambda: view.contract_tab.info_box.facts_view.is_complete, 10)
            await settle(window)
            window.grab().save(str(path))
            written.append(path)
    return written
