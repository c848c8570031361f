"""The Inside tab's screens for `--screenshot`: deep call, caught revert, Bridge call, divergence.

The diverged one replays the CREATE2 factory's call under testnet's upgrade heights (the
devnet runs regtest's): SELFBALANCE is not there yet, so the replay leaves the receipt and
the tab says so, with the receipt's facts, as it would for any replay that diverged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from explorer.services.networks import TESTNET_GENESIS
from explorer.services.routes import tx_route
from explorer.services.trace import Tracer
from explorer.tour.passes import Helpers
from explorer.viewmodels.tx_inside import InsideState
from explorer.views.main_window import MainWindow
from explorer.views.tx_page_view import TxPageView

STORIES = (("deep-call", "deep_call"), ("caught-revert", "caught_revert"),
           ("bridge-call", "bridge_write"), ("diverged", "create2_call"))  # fmt: skip
DONE = (InsideState.SHOWN, InsideState.ERROR, InsideState.ASKING, InsideState.CANCELLED)


async def shoot_inside(
    window: MainWindow, tx_hash: str, path: Path, helpers: Helpers, diverged: bool = False
) -> Path:
    """Open a transaction, choose its Inside tab, wait for the rows, save the window."""
    shoot, settle, wait_for = helpers
    await shoot(window, tx_route(tx_hash), path)
    view, session = window.current_page(), window.shell.session
    if not isinstance(view, TxPageView) or session is None:
        return path
    inside = view.tx_model.inside
    if diverged:
        client, reader = session.client, session.reader
        inside.tracer_of = lambda: Tracer(client, reader, 31, TESTNET_GENESIS, False)
    view.content.setCurrentWidget(view.inside)
    await wait_for(lambda: inside.state in DONE and not inside.streaming, 120)
    await settle(window)
    window.grab().save(str(path))
    return path


async def take_inside_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    mode: str,
    helpers: Helpers,
) -> list[Path]:
    """Shoot the Inside tab's screens of one palette."""
    inside = manifest.get("inside") or {}
    return [
        await shoot_inside(window, str(inside[key]), directory / f"inside-{stem}-{mode}.png",
                           helpers, diverged=stem == "diverged")
        for stem, key in STORIES
        if inside.get(key)
    ]  # fmt: skip
