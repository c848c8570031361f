"""The one scrubber: a key goes in any letter case and %-encoding; ordinary text stays."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.secrets import holds, is_secret, scrub

KEY = "s3cr3tK3yABCDEFGHIJKLmnop1234"
KEY_CHARACTERS = st.sampled_from(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-"
)
KEYS = st.text(KEY_CHARACTERS, min_size=4, max_size=40)


def disguised(key: str, seed: int) -> str:
    """Return key with each character kept, case-flipped or %-encoded (once or twice), at random."""
    pick = random.Random(seed)
    parts = []
    for character in key:
        form = pick.randrange(5)
        code = f"{ord(character):02x}"
        parts.append(
            [
                character,
                character.swapcase(),
                f"%{code}",
                f"%{code.upper()}",
                f"%25{code}",
            ][form]
        )
    return "".join(parts)


@given(KEYS, st.integers(0, 2**32), st.text(max_size=20), st.text(max_size=20))
def test_a_key_in_any_form_is_taken_out(key: str, seed: int, before: str, after: str) -> None:
    """Whatever the case and encoding of each character, the key leaves no trace."""
    text = f"{before}/{disguised(key, seed)}/{after}"
    scrubbed = scrub(text, [key])
    assert "/<key>/" in scrubbed
    assert not holds(scrubbed.replace("<key>", "/"), key)


def test_every_form_the_issue_names_is_scrubbed() -> None:
    """Upper case, lower case and %-encoded echoes of the key."""
    encoded = "".join(f"%{ord(c):02X}" for c in KEY)
    for form in (KEY.upper(), KEY.lower(), encoded, encoded.lower()):
        assert scrub(f"no access to /{form}", [KEY]) == "no access to /<key>"


def test_ordinary_text_and_short_values_are_left_alone() -> None:
    """Nothing but the key changes; a value shorter than four characters is no secret."""
    text = "block 1,234 has 3 transactions: s3cr"
    assert scrub(text, [KEY, "", None, "abc"]) == text


def test_masked_keys_and_key_like_url_segments_go_when_asked() -> None:
    """Logs keep no part of a key: the status bar's mask and unknown keys in URLs too."""
    text = "key ••••1234 at https://node.example/v2/abcdefghijklmnopqrstuvwxyz"
    assert scrub(text, [], masks=True, key_segments=True) == (
        "key <key> at https://node.example/v2/<key>"
    )
    assert scrub(text, []) == text


def test_a_value_equal_to_a_key_is_recognised_in_any_form() -> None:
    """A value the user typed that is the key, however written; one that holds more is not."""
    assert is_secret(KEY.lower(), [KEY])
    assert is_secret(f" {KEY} ", [None, KEY])
    assert not is_secret(f"0x{KEY}", [KEY])
    assert not is_secret("12", [KEY])
