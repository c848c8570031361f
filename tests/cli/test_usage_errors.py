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


def test_an_unknown_option_of_the_window_shows_the_url_without_its_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The window's own parser scrubs what it echoes: the host stays, the path (key) goes."""
    with pytest.raises(SystemExit) as exited:
        main(["--endpoint", URL])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert KEY not in err
    assert "https://rpc.testnet.rootstock.io/…" in err


def test_a_subcommands_usage_error_hides_the_key_given_with_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--key KEY` with a bad option: the message names the option, never the key."""
    with pytest.raises(SystemExit):
        main(["rpc", "--network", "testnet", "--key", KEY, "--bogus", KEY])
    err = capsys.readouterr().err
    assert KEY not in err
    assert "--bogus" in err
