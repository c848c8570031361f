"""The app's own devnet, started as soon as the first frame is painted when the app will use it.

The window's imports (chain libraries, HTTP stack, views) and the devnet child's (py-evm, the
server) take seconds each on a busy machine: started here, before the window's, the child
loads beside them instead of after them. Light on purpose: Qt is loaded, nothing heavy is.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace

from explorer.devnet.process import (
    DevnetOptions,
    DevnetProcess,
    default_chain_dir,
    devnet_command,
)
from explorer.settings.store import Settings

#: The app's own devnet lives: a block every few seconds, with a few transactions in each.
#: (The seeded waiting transactions stay in its pool, for the tour: no expiry.)
APP_DEVNET = DevnetOptions(
    network="test",
    block_time=5.0,
    niceness=5,  # it serves the window: the window goes first on a busy machine
    recent_first=True,  # a first start from source serves the shipped newest blocks at once
    extra_arguments=("--traffic", "--pool-expiry-blocks", "1000000", "--pool-expiry-seconds", "0"),
)
DEVNET_ID = "devnet"  # explorer.services.networks.DEVNET.id (that module is not light)


def chain_arguments(reset: bool) -> tuple[str, ...]:
    """Return the app's devnet arguments: its chain kept in the user's data, or reset first."""
    return ("--keep-chain", str(default_chain_dir()), *(("--reset-chain",) if reset else ()))


def app_devnet(arguments: tuple[str, ...], networks: str = "test") -> DevnetProcess:
    """Return the app's devnet child (not started) serving networks with these arguments."""
    options = replace(APP_DEVNET, network=networks)
    return DevnetProcess(options, command=[*devnet_command(), *arguments])


def will_use_devnet(options: argparse.Namespace, settings: Settings) -> bool:
    """Tell, cheaply, whether this start opens the devnet (a later choice starts it then)."""
    if options.screenshot is not None or options.smoke_test:
        return False  # the tour starts its own, on a throwaway profile
    asked = bool(options.devnet or options.until_home or options.reset_devnet)
    return asked or settings.current_network() in ("", DEVNET_ID)


def spawn_early(
    loop: asyncio.AbstractEventLoop, options: argparse.Namespace, settings: Settings
) -> DevnetProcess | None:
    """Start the app's devnet now when this start will use it; None otherwise or on failure."""
    if not will_use_devnet(options, settings):
        return None
    devnet = app_devnet(chain_arguments(bool(options.reset_devnet)))
    try:
        loop.run_until_complete(devnet.spawn())
    except OSError:
        return None  # the app starts it again later, and says what failed then
    return devnet
