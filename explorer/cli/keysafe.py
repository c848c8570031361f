"""Argument parsing that never shows a key: usage errors scrub URLs and key values.

Light on purpose (argparse only): `explorer` parses its arguments before importing the app.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from explorer.chain.secrets import is_secret
from explorer.chain.secrets import scrub as scrub_secrets

EXIT_INPUT = 2
KEY_VARIABLE = "EXPLORER_API_KEY"


class KeySafeParser(argparse.ArgumentParser):
    """An argument parser whose usage errors never echo what was typed (it may be a key).

    A mistyped option is answered with the options it may have meant, not with its words.
    """

    def __init__(self, *args: Any, secrets: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.secrets = secrets
        self._given: list[str] = []

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Remember the words given (so that no error repeats them), then parse."""
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """Parse; a known key given where a value belongs (`--from KEY`) is refused, unshown.

        So no command can quote it back in a message about its value.
        """
        parsed = super().parse_args(args, namespace)
        for name, value in vars(parsed).items():
            if name != "key" and isinstance(value, str) and is_secret(value, self.secrets):
                self.error(f"{self._named(name)}: that is an API key (it is not shown)")
        return parsed

    def _named(self, dest: str) -> str:
        """Return how the user names an argument: its option (`--from`), or its own name."""
        for action in self._actions:
            if action.dest == dest and action.option_strings:
                return action.option_strings[-1]
        return dest

    def error(self, message: str) -> NoReturn:
        """Print usage and a message that repeats nothing typed, exit 2."""
        options = sorted(self._option_string_actions)
        text = without_typed_words(message, self._given, options)
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {scrub(text, self.secrets)}\n")


def without_typed_words(message: str, given: list[str], options: list[str]) -> str:
    """Return an argparse error without the words the user typed (options of ours may stay)."""
    if message.startswith("unrecognized arguments:"):
        words = message.split(":", 1)[1].split()
        meant = {
            match
            for word in words
            if word.startswith("--")
            for match in difflib.get_close_matches(word.split("=", 1)[0], options, n=1)
        }
        hint = f"; did you mean {', '.join(sorted(meant))}?" if meant else "; see --help"
        return f"unrecognized arguments ({len(words)} word{'s' if len(words) > 1 else ''}){hint}"
    message = re.sub(r"invalid choice: '.*?'", "invalid choice", message)
    message = re.sub(r"invalid (\S+) value: '.*?'", r"invalid \1 value", message)
    message = re.sub(r"ambiguous option: \S+ could match", "ambiguous option: could match", message)
    for word in sorted(set(given) - set(options), key=len, reverse=True):
        if len(word) > 1 and word in message:
            message = message.replace(word, "…")
    return message


def scrub(text: str, secrets: tuple[str, ...]) -> str:
    """Return text with every URL's path and every secret replaced (keys ride in paths)."""
    for url in sorted({s for s in text.split() if "://" in s}, key=len, reverse=True):
        scheme, _, rest = url.partition("://")
        host, slash, _path = rest.partition("/")
        text = text.replace(url, f"{scheme}://{host}{slash}{'…' if slash else ''}")
    return scrub_secrets(text, secrets)


def secrets_in(argv: list[str]) -> tuple[str, ...]:
    """Return what may be a key: URL path segments, the value of --key, the key variable."""
    found = [s for arg in argv if "://" in arg for s in arg.split("://", 1)[1].split("/")[1:] if s]
    found += [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--key"]
    found += [arg.split("=", 1)[1] for arg in argv if arg.startswith("--key=")]
    found += [os.environ.get(KEY_VARIABLE) or ""]
    return tuple(sorted(set(found) - {""}, key=len, reverse=True))
