"""The support desk's screens for `--screenshot`: made on the devnet as a user would make them.

Transactions are signed with the devnet's seeded keys by py-evm, as the devnet itself signs
(the shipped app has no eth-account), and sent through the app's own Broadcast screen or the
client: a pending one (mining held), one replaced in the pool and mined, one queued behind a
nonce gap; a hash only the devnet's main network has, looked up there from the test network;
a confirmation before sending and a refused paste.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from eth_keys.datatypes import PrivateKey
from eth_typing import Address

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.elsewhere import OtherNetworks
from explorer.services.networks import custom_network
from explorer.services.routes import BROADCAST, HOME, tx_route
from explorer.services.session import Session
from explorer.tour.passes import Helpers, Settle, Shoot, Wait
from explorer.viewmodels.broadcast import Stage
from explorer.views.broadcast_view import BroadcastView
from explorer.views.main_window import MainWindow

# Seeded accounts the screenshots send from, one pair per palette (the seed's queued
# transactions are users 4 and 5): a pending or queued one of the first round stays.
#: Each pass its own senders: a nonce-gap transfer one pass left in the pool never meets the next.
SENDERS = {
    "light": (-3, -4),
    "dark": (-8, -9),
    "light-bookmarks": (-10, -11),
    "dark-bookmarks": (-12, -13),
}


def signed(manifest: dict[str, Any], sender: int, nonce: int, price: int, value: int = 1) -> str:
    """Return a transfer signed with a seeded key by py-evm (as the devnet signs), as hex."""
    limit = sys.getrecursionlimit()
    try:  # py-evm raises the limit for itself; the window keeps the default
        from eth.vm.forks.berlin import BerlinVM
    finally:
        sys.setrecursionlimit(limit)
    unsigned = BerlinVM.create_unsigned_transaction(
        nonce=nonce,
        gas_price=price,
        gas=21_000,
        to=Address(bytes.fromhex(manifest["accounts"][0][2:])),
        value=value,
        data=b"",
    )
    key = PrivateKey(bytes.fromhex(manifest["private_keys"][sender][2:]))
    return "0x" + unsigned.as_signed_transaction(key, chain_id=manifest["chain_id"]).encode().hex()


async def next_nonce(client: RpcClient, manifest: dict[str, Any], sender: int) -> int:
    """Return a seeded account's next nonce, its pending transactions counted."""
    return await client.get_transaction_count(str(manifest["accounts"][sender]), "pending")


async def shoot_pending_and_replaced(
    window: MainWindow,
    session: Session,
    manifest: dict[str, Any],
    paths: tuple[Path, Path],
    shoot: Shoot,
    sender: int,
) -> None:
    """Hold mining, send a transfer and shoot its page; replace it, mine, and shoot it again."""
    client = session.client
    nonce = await next_nonce(client, manifest, sender)
    price = await client.gas_price()
    await client.call("evm_stopMining", [])
    try:
        first = await client.send_raw_transaction(signed(manifest, sender, nonce, price))
        await shoot(window, tx_route(first), paths[0])
        await client.send_raw_transaction(signed(manifest, sender, nonce, price * 3 // 2, 2))
    finally:
        await client.call("evm_startMining", [])
    window.navigator.go(HOME)  # the same route again is no navigation: leave it first
    await shoot(window, tx_route(first), paths[1])


async def shoot_broadcasts(
    window: MainWindow,
    manifest: dict[str, Any],
    paths: tuple[Path, Path, Path],
    shoot: Shoot,
    settle: Settle,
    wait_for: Wait,
    sender: int,
) -> None:
    """Shoot a refused paste, the confirmation of a nonce-gap transfer, and its page once sent."""
    window.navigator.go(BROADCAST)
    await settle(window)
    view = window.tabs.currentWidget()
    if not isinstance(view, BroadcastView):
        return
    model = view.model
    other_chain = {**manifest, "chain_id": 30}
    view.raw.setPlainText(signed(other_chain, sender, 0, 66_000_000))
    await settle(window)
    window.grab().save(str(paths[0]))
    nonce = await next_nonce(model.session.client, manifest, sender)
    view.raw.setPlainText(signed(manifest, sender, nonce + 2, 66_000_000))
    await wait_for(lambda: model.stage is Stage.READY, timeout=30)
    view.send_button.click()
    await settle(window)
    window.grab().save(str(paths[1]))
    view.confirm_button.click()
    await wait_for(lambda: model.stage is not Stage.SENDING, timeout=30)
    tx = model.tx
    opened = window.navigator.current_index
    if tx is not None and window.navigator.route() == tx_route(tx.hash):
        page = window.current_page()
        await wait_for(lambda: page is not None and not page.model.busy, timeout=30)
        await settle(window)
        window.grab().save(str(paths[2]))
        window.navigator.close_tab(opened)


async def shoot_found_elsewhere(
    window: MainWindow, main: tuple[Endpoint, dict[str, Any]], path: Path, shoot: Shoot
) -> None:
    """Shoot a hash the test network lacks and the devnet's main network has."""
    endpoint, manifest = main
    support = window.shell.pages.support
    kept = support.elsewhere
    network = custom_network("Local devnet (main network)", 30)
    support.elsewhere = OtherNetworks(lambda: [(network, endpoint)])
    try:
        await shoot(window, tx_route(str(manifest["token_transfer"])), path)
    finally:
        await support.elsewhere.aclose()
        support.elsewhere = kept


async def take_support_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    mode: str,
    helpers: Helpers,
    main: tuple[Endpoint, dict[str, Any]] | None = None,
) -> list[Path]:
    """Shoot every support-desk screen in one palette; return the files written."""
    shoot, settle, wait_for = helpers
    session = window.shell.session
    if session is None or not manifest.get("private_keys"):
        return []
    names = ("tx-pending", "tx-replaced", "broadcast-refused", "broadcast-confirm", "tx-nonce-gap")
    paths = [directory / f"{name}-{mode}.png" for name in names]
    pending_sender, broadcast_sender = SENDERS.get(mode, SENDERS["light"])
    await shoot_pending_and_replaced(
        window, session, manifest, (paths[0], paths[1]), shoot, pending_sender
    )
    await shoot_broadcasts(
        window, manifest, (paths[2], paths[3], paths[4]), shoot, settle, wait_for, broadcast_sender
    )
    if main is not None:
        paths.append(directory / f"tx-found-elsewhere-{mode}.png")
        await shoot_found_elsewhere(window, main, paths[-1], shoot)
    return [path for path in paths if path.exists()]
