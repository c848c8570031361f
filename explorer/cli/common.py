"""What the command-line faces share: exit codes, the key variable, a parser that hides keys."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_INPUT = 2
EXIT_REMOTE = 3
KEY_VARIABLE = "EXPLORER_API_KEY"


class KeySafeParser(argparse.ArgumentParser):
    """An argument parser whose error messages never show the given secrets."""

    secrets: tuple[str, ...] = ()

    def error(self, message: str) -> NoReturn:
        """Print usage and a scrubbed message, exit 2."""
        for secret in self.secrets:
            message = message.replace(secret, "<key>")
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n")


def secrets_in(argv: list[str]) -> tuple[str, ...]:
    """Return what in argv may be a key: URL path segments and the value of --key."""
    found = [s for arg in argv if "://" in arg for s in arg.split("://", 1)[1].split("/")[1:] if s]
    found += [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--key"]
    found += [arg.split("=", 1)[1] for arg in argv if arg.startswith("--key=")]
    return tuple(sorted(set(found), key=len, reverse=True))
