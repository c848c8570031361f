"""Retry-After is honoured by the whole window: no request while the node asked for a pause.

The command line's one call waits and retries; the window has many callers (the chain check,
the head poll, every page), so the client itself holds every new call until the pause (capped)
is over: they fail at once, saying so, and nothing is sent meanwhile.
"""

from __future__ import annotations

import dataclasses
import functools
import time

import pytest
from pytestqt.qtbot import QtBot

from explorer.rpc.errors import ErrorKind
from explorer.services import session as session_module
from explorer.services.chaincheck import Verification
from explorer.viewmodels.page import PageState
from explorer.views.page_view import PageView
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import FAST, PAGE_ROUTES
from tests.gui.reliability.node import RETRY_AFTER_SECONDS, Mode
from tests.helpers.timing import WAIT


def loaded(view: PageView) -> bool:
    """Tell whether a page shows what it read."""
    return view.model.state is PageState.LOADED


CAP = 10.0  # the longest pause honoured (RetryPolicy.max_retry_after)
PROBE = 4  # the chain check's calls, sent at once


def test_a_pause_asked_with_retry_after_holds_every_request_of_the_window(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A node answering 429 with Retry-After: the first round trip only, then silence, then again.

    Pages opened meanwhile say they are rate limited without asking; once the pause is over the
    check tries again and, the node back, everything loads.
    """
    retry = dataclasses.replace(FAST.retry, max_retry_after=CAP)
    check = 1.5  # the check gives up well within the pause (FAST's own is longer, for load)
    budget = dataclasses.replace(FAST, retry=retry, check_deadline=check)
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", budget)
    node = nodes(Mode.RETRY_AFTER)
    started = time.monotonic()
    app = app_on({"Mine": (node, 31)})
    views = [app.open(route) for route in PAGE_ROUTES]
    quiet_until = started + RETRY_AFTER_SECONDS - 0.5
    qtbot.waitUntil(lambda: time.monotonic() > quiet_until, timeout=WAIT)
    assert len(node.server.requests) <= PROBE  # the first probe's calls, nothing after
    check_said = (Verification.UNREACHABLE, ErrorKind.RATE_LIMITED)  # between its quick retries
    qtbot.waitUntil(
        lambda: (app.session.check.verification, app.session.check.error_kind) == check_said,
        timeout=WAIT,
    )
    assert "asked for a pause (Retry-After)" in app.window.banner.text()
    for view in views:
        assert isinstance(view, PageView)
        assert view.model.state in (PageState.ERROR, PageState.LOADING)
    node.switch(Mode.GOOD)
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    for view in views:
        assert isinstance(view, PageView)
        qtbot.waitUntil(functools.partial(loaded, view), timeout=WAIT)
