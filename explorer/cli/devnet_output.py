"""What `explorer devnet` prints: sentences for people, or with --json-lines `TAG {json}` lines.

With --json-lines, stdout carries only the machine-readable lines (PROGRESS, READY, ACCOUNTS)
and the sentences go to stderr; without it, stdout carries the sentences only.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from explorer.devnet.accounts import DevAccount

CHAIN_IDS = {"testnet": 31, "mainnet": 30}
NETWORK_NAMES = {"testnet": "test network", "mainnet": "main network"}
PROGRESS_STEP = 0.1  # a sentence each time a network's build has gone this much further
GENESIS_BALANCE_RBTC = 10_000_000
PUBLIC_KEYS_WARNING = (
    "WARNING: these private keys are public: anyone can derive them from the explorer's source.\n"
    "Use them on this local devnet only. Never send real funds to these addresses."
)


class DevnetOutput:
    """Prints progress, the served URLs and READY, as sentences or as JSON lines."""

    def __init__(self, *, json_lines: bool, out: TextIO | None = None) -> None:
        self.json_lines = json_lines
        self._out = out
        self._shown: dict[str, float] = {}

    @property
    def stdout(self) -> TextIO:
        """The stream machine lines (or, without --json-lines, the sentences) go to."""
        return self._out or sys.stdout

    def emit(self, tag: str, payload: object) -> None:
        """Print one machine-readable line (`TAG {json}`) with --json-lines; else nothing."""
        if self.json_lines:
            print(f"{tag} {json.dumps(payload)}", file=self.stdout, flush=True)

    def say(self, text: str) -> None:
        """Print a sentence for people: on stdout, or on stderr beside the JSON lines."""
        print(text, file=sys.stderr if self.json_lines else self.stdout, flush=True)

    def progress(self, network: str, stage: str, fraction: float) -> None:
        """Report how far a network's loading or building has come."""
        self.emit("PROGRESS", {"network": network, "stage": stage, "fraction": round(fraction, 3)})
        if self.json_lines:
            return
        last = self._shown.get(network)
        if last is not None and fraction < 1.0 and fraction - last < PROGRESS_STEP:
            return
        self._shown[network] = fraction
        self.say(f"{NETWORK_NAMES.get(network, network)}: {stage} ({progress_words(fraction)})")

    def ready(self, base_urls: Mapping[str, str], keys: Sequence[str], profile: str) -> None:
        """Print the URLs to paste into a client (with each key, or bare), then READY."""
        self.say(f"The local Rootstock devnet is serving ({profile} profile):")
        for name, base in base_urls.items():
            for path in [f"/{key}" for key in keys] or [""]:
                self.say(f"  {name} (chain id {CHAIN_IDS[name]}): {base}{path}")
        self.say(
            "Funded accounts: `explorer devnet --accounts` lists them with their (public) keys."
        )
        self.say("Ready. Stop with Ctrl+C.")
        self.emit("READY", dict(base_urls))


def progress_words(fraction: float) -> str:
    """Say how far a build is: a share of its time, which runs ahead of the block count."""
    if fraction >= 1.0:
        return "done"
    return f"{fraction:.0%} of the work; the busy first blocks take longest"


def print_accounts(output: DevnetOutput, accounts: Sequence[DevAccount]) -> None:
    """List the funded accounts and their private keys, under a warning that they are public."""
    output.emit(
        "ACCOUNTS",
        [{"address": a.address_hex, "privateKey": "0x" + a.private_key.hex()} for a in accounts],
    )
    if output.json_lines:
        output.say(PUBLIC_KEYS_WARNING)
        return
    lines = [
        "Funded accounts of the local devnet (the same on both networks, chain ids 31 and 30),",
        f"{GENESIS_BALANCE_RBTC:,} RBTC each at genesis; the seeded history spends a little of it.",
        "",
        PUBLIC_KEYS_WARNING,
        "",
        f"{'#':>3}  {'address':<42}  private key",
    ]
    for index, account in enumerate(accounts):
        lines.append(f"{index:>3}  {account.address_hex}  0x{account.private_key.hex()}")
    output.say("\n".join(lines))
