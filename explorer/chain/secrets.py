"""API keys out of text: the one scrubber every message, log line, report and echo goes through.

A key is found however the text carries it: in any letter case (a gateway that upper-cases the
path it echoes), and with any of its characters %-encoded, once or twice (`%41`, `%2541`, hex
digits in either case). Masked forms (`••••` and the last four characters, what the status bar
shows) can be taken out too: logs keep no part of a key. Pure text, no IO: every room may use it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

REDACTED = "<key>"
MASK = "••••"
SHORTEST = 4  # a shorter "secret" would blot out ordinary words; none is that short
#: A key's characters (rpc/endpoint.py): letters, digits and . _ ~ -
KEY_CHARACTERS = r"A-Za-z0-9._~\-"
#: What the status bar shows of a key (rpc/endpoint.py's mask): the mask and up to four more.
MASKED = re.compile(f"{MASK}[{KEY_CHARACTERS}]{{0,4}}")
#: A URL's last path segment long enough to be a key (the service puts the key there).
KEY_IN_URL = re.compile(rf"(https?://[^\s/]+(?:/v\d+)?/)([{KEY_CHARACTERS}]{{20,}})")


def _character(character: str) -> str:
    """Return a pattern of one character: itself in either case, or %-encoded (even twice)."""
    codes = {f"{ord(form):02x}" for form in (character.lower(), character.upper())}
    return f"(?:{re.escape(character)}|%(?:25)?(?:{'|'.join(sorted(codes))}))"


@functools.lru_cache(maxsize=64)
def key_pattern(secret: str) -> re.Pattern[str]:
    """Return the pattern that finds secret in text in any letter case and %-encoding."""
    return re.compile("".join(map(_character, secret)), re.IGNORECASE)


def holds(text: str, secret: str) -> bool:
    """Tell whether text carries secret in any form the scrubber takes out."""
    return len(secret) >= SHORTEST and key_pattern(secret).search(text) is not None


def scrub(
    text: str,
    secrets: Iterable[str | None],
    *,
    replacement: str = REDACTED,
    masks: bool = False,
    key_segments: bool = False,
) -> str:
    """Return text with every secret replaced, in any letter case and %-encoding.

    masks also takes out masked keys (`••••1234`: logs keep no part of a key); key_segments
    every URL path segment long enough to be a key, known or not.
    """
    for secret in sorted({s for s in secrets if s and len(s) >= SHORTEST}, key=len, reverse=True):
        text = key_pattern(secret).sub(replacement, text)
    if masks:
        text = MASKED.sub(replacement, text)
    if key_segments:
        text = KEY_IN_URL.sub(lambda match: match.group(1) + replacement, text)
    return text


def is_secret(value: str, secrets: Iterable[str | None]) -> bool:
    """Tell whether a value is one of the secrets (in any letter case or %-encoding)."""
    stripped = value.strip()
    return any(
        secret and len(secret) >= SHORTEST and key_pattern(secret).fullmatch(stripped) is not None
        for secret in secrets
    )
