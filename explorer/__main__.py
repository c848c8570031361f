"""Command line: `explorer` opens the window; `explorer rpc|devnet …` run a command-line face."""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from explorer.cli.keysafe import EXIT_INPUT, KeySafeParser, scrub, secrets_in

SUBCOMMANDS = {
    "rpc": "explorer.cli.rpc",
    "logs": "explorer.cli.logs",
    "devnet": "explorer.cli.devnet",
    "report": "explorer.cli.report",
    "send": "explorer.cli.send",
    "node": "explorer.cli.node",
    "history": "explorer.cli.history",
    "trace": "explorer.cli.trace",
    "contract": "explorer.cli.contract",
    "verify": "explorer.cli.verify",
}


def gui_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the options of the window (no subcommand)."""
    parser = KeySafeParser(
        prog="explorer",
        secrets=secrets_in(list(argv)),
        description="A desktop block explorer for Rootstock (RSK).",
        epilog="Subcommands: " + ", ".join(f"explorer {name} --help" for name in SUBCOMMANDS),
    )
    parser.add_argument(
        "--smoke-test", action="store_true", help="open the window, print one line, exit 0"
    )
    parser.add_argument(
        "--devnet", action="store_true", help="start the embedded devnet and open the app on it"
    )
    parser.add_argument(
        "--screenshot",
        metavar="DIR",
        type=Path,
        help="with --devnet: render every screen to PNG files in DIR (light and dark), then exit",
    )
    parser.add_argument(
        "--reset-devnet",
        action="store_true",
        help="start the local devnet from its seeded history again: forget the blocks it mined "
        "and the transactions sent to it (kept across restarts otherwise)",
    )
    add_start_options(parser)
    options = parser.parse_args(list(argv))
    if options.screenshot is not None:
        options.devnet = True
    return options


def add_start_options(parser: argparse.ArgumentParser) -> None:
    """Add the logging options and the hidden ones that tests and benchmarks use."""
    parser.add_argument(
        "--log-level",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        default="INFO",
        help="what the log file records (default: INFO)",
    )
    parser.add_argument(
        "--log-file",
        metavar="FILE",
        type=Path,
        help="log here instead of the platform's log folder (rotated at 1 MB, 3 kept)",
    )
    parser.add_argument("--first-frame-modules", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--until-home", action="store_true", help=argparse.SUPPRESS)


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a subcommand, or open the window."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        module = importlib.import_module(SUBCOMMANDS[args[0]])
        return int(module.main(args[1:]))
    if args and not args[0].startswith("-"):
        return unknown_command(args)
    options = gui_arguments(args)
    from explorer.app import startup  # paints a first frame, then imports the rest of the app

    return startup.run(options)


def unknown_command(args: list[str]) -> int:
    """Say a command is unknown and suggest the nearest.

    The rest of the command line is not echoed: it may hold a key.
    """
    word = scrub(args[0], secrets_in(args))
    near = difflib.get_close_matches(args[0], SUBCOMMANDS, n=1)
    hint = f" (did you mean 'explorer {near[0]}'?)" if near else ""
    commands = ", ".join(SUBCOMMANDS)
    print(
        f"usage: explorer [--devnet] [--screenshot DIR] | explorer {{{commands}}} …\n"
        f"explorer: error: unknown command '{word}'{hint}",
        file=sys.stderr,
    )
    return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
