"""Usage errors of `explorer` never echo a key: a mistyped subcommand, an unknown option."""

from __future__ import annotations

import pytest

from explorer.__main__ import main

KEY = "s3cr3tK3yABCDEFGHIJKLmnop1234"
URL = f"https://rpc.testnet.rootstock.io/{KEY}"


def test_a_mistyped_subcommand_is_named_with_a_suggestion_and_no_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`explorer reprot … --endpoint https://…/KEY` says which command it meant, key unseen."""
    assert main(["reprot", "0x" + "ab" * 32, "--endpoint", URL]) == 2
    err = capsys.readouterr().err
    assert KEY not in err
    assert "unknown command 'reprot'" in err
    assert "did you mean 'explorer report'" in err


def test_an_unknown_option_of_the_window_echoes_nothing_typed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The window's own parser says how many words it did not know, not which."""
    with pytest.raises(SystemExit) as exited:
        main(["--endpoint", URL])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert KEY not in err
    assert "rootstock.io" not in err
    assert "explorer: error: unrecognized arguments (2 words); see --help" in err


def test_a_subcommands_usage_error_hides_the_key_given_with_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--key KEY` with a bad option: the message counts the words, never shows the key."""
    with pytest.raises(SystemExit):
        main(["rpc", "--network", "testnet", "--key", KEY, "--bogus", KEY])
    err = capsys.readouterr().err
    assert KEY not in err
    assert "unrecognized arguments (2 words)" in err


SHORT = "k3y9"  # a key shorter than any pattern catches: only refusing to echo hides it
TYPOS = [
    ["--kye", SHORT],
    ["rpc", "--network", "testnet", "--kye", SHORT],
    ["logs", "--network", "testnet", "--kye", SHORT],
    ["report", "--network", "testnet", "--kye", SHORT, "0x12"],
    ["send", "--network", "testnet", "--kye", SHORT, "0x12"],
    ["node", "--network", "testnet", "--kye", SHORT],
    ["devnet", "--kye", SHORT],
    ["rpc", "--network", SHORT],
    ["report", "--network", "testnet", "--chain-id", SHORT, "0x12"],
    ["devnet", "--testnet-port", SHORT],
    ["devnet", "--quota", "9" + SHORT[1:].replace("k", "9")],
]


@pytest.mark.parametrize("argv", TYPOS, ids=[" ".join(argv) for argv in TYPOS])
def test_no_usage_error_echoes_an_argument(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`explorer --kye KEY` and its like, window and subcommands: nothing typed comes back.

    Only the parser's own words are shown (its options, what a mistyped one may have meant).
    """
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert SHORT not in err
    message = err.splitlines()[-1]
    typed = [word for word in argv[1:] if not word.startswith("--") and len(word) > 1]
    assert [word for word in typed if word in message] == []
    assert ": error: " in message


KNOWN = [  # the key as the command line knows it: --key, the key variable, the URL's last segment
    ["--key", KEY],
    ["--endpoint", URL],
]
VALUE_ERRORS = [  # commands whose input errors quote the value given (a block, an address)
    ["history", "0x" + "ab" * 20, "--from", "{key}"],
    ["history", "0x" + "ab" * 20, "--to", "{key}"],
    ["history", "{key}"],
    ["contract", "{key}"],
    ["report", "{key}"],
]


@pytest.mark.parametrize("known", KNOWN, ids=["key", "url"])
@pytest.mark.parametrize("argv", VALUE_ERRORS, ids=[" ".join(a[:1] + a[2:3]) for a in VALUE_ERRORS])
@pytest.mark.parametrize("form", [str, str.upper, str.lower], ids=["as-is", "upper", "lower"])
def test_a_value_that_is_a_known_key_is_never_echoed(
    known: list[str],
    argv: list[str],
    form: object,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--from KEY` (the key pasted in the wrong place) is refused as input, the key unseen.

    Known from --key, the key variable or the endpoint's URL; typed in any letter case.
    """
    assert callable(form)
    monkeypatch.delenv("EXPLORER_API_KEY", raising=False)
    where = ["--endpoint", "http://127.0.0.1:9", "--insecure-http", *known]
    if known[0] == "--endpoint":
        where = ["--endpoint", "http://127.0.0.1:9/" + KEY, "--insecure-http"]
    words = [word.replace("{key}", form(KEY)) for word in argv]
    with pytest.raises(SystemExit) as exited:
        main([*words, *where])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "that is an API key (it is not shown)" in err
    assert KEY.lower() not in err.lower()


def test_a_value_that_is_the_key_variable_is_never_echoed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key from $EXPLORER_API_KEY is known too."""
    monkeypatch.setenv("EXPLORER_API_KEY", KEY)
    argv = ["history", "0x" + "ab" * 20, "--from", KEY, "--network", "testnet"]
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "explorer history: error: --from: that is an API key (it is not shown)" in err
    assert KEY not in err
