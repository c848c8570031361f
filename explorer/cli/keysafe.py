"""Argument parsing that never shows a key: usage errors scrub URLs and key values.

Light on purpose (argparse only): `explorer` parses its arguments before importing the app.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

EXIT_INPUT = 2


class KeySafeParser(argparse.ArgumentParser):
    """An argument parser whose error messages never show the given secrets."""

    def __init__(self, *args: Any, secrets: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.secrets = secrets

    def error(self, message: str) -> NoReturn:
        """Print usage and a scrubbed message, exit 2."""
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {scrub(message, self.secrets)}\n")


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """Return text with every URL's path and every secret replaced (keys ride in paths)."""
    for url in sorted({s for s in text.split() if "://" in s}, key=len, reverse=True):
        scheme, _, rest = url.partition("://")
        host, slash, _path = rest.partition("/")
        text = text.replace(url, f"{scheme}://{host}{slash}{'…' if slash else ''}")
    for secret in secrets:
        text = text.replace(secret, "<key>")
    return text


def secrets_in(argv: list[str]) -> tuple[str, ...]:
    """Return what in argv may be a key: URL path segments and the value of --key."""
    found = [s for arg in argv if "://" in arg for s in arg.split("://", 1)[1].split("/")[1:] if s]
    found += [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--key"]
    found += [arg.split("=", 1)[1] for arg in argv if arg.startswith("--key=")]
    return tuple(sorted(set(found), key=len, reverse=True))
