"""The suite's own rules: its limits in its configuration, shared helpers in tests/helpers."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from tests.helpers.devnet import timer_paused

TESTS = Path(__file__).resolve().parent


def test_timeouts_and_plugins_come_from_the_configuration(pytestconfig: pytest.Config) -> None:
    """A bare `pytest` is as strict and as bounded as `make test`."""
    assert float(pytestconfig.getini("timeout")) == 300
    assert 0 < float(pytestconfig.getini("faulthandler_timeout")) < 300
    required = " ".join(pytestconfig.getini("required_plugins"))
    for plugin in ("pytest-qt", "pytest-timeout", "hypothesis"):
        assert plugin in required
    assert pytestconfig.getini("xfail_strict")


def test_no_test_module_borrows_from_another() -> None:
    """What tests share lives in tests/helpers, not in another test module."""
    borrowed = [
        f"{path.relative_to(TESTS)} imports {node.module}"
        for path in sorted(TESTS.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("tests.")
        and node.module.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert borrowed == []


@pytest.mark.timeout(1)
def test_a_devnet_start_does_not_count_against_the_tests_timeout() -> None:
    """A start waits as long as a loaded machine makes it (tests/helpers/devnet.py)."""
    with timer_paused():
        time.sleep(1.5)  # past the test's timeout: a start on a busy machine


def test_the_longest_files_handed_out_first_still_exist(request: pytest.FixtureRequest) -> None:
    """A file on conftest's longest-first list that moved would run last again, unseen."""
    from tests.conftest import LONGEST_FIRST

    missing = [path for path in LONGEST_FIRST if not (TESTS.parent / path).is_file()]
    assert missing == []
    first = request.session.items[0].nodeid.partition("::")[0]
    assert first in LONGEST_FIRST or not any(
        item.nodeid.startswith(LONGEST_FIRST) for item in request.session.items
    )
