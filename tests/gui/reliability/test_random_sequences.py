"""Random sequences of search, switch network, back, retry and misbehaving nodes.

Hypothesis drives them; after every step nothing untrustworthy is shown and the key is
nowhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.rpc.errors import ErrorKind
from explorer.services.chaincheck import Verification
from explorer.viewmodels.page import PageState
from explorer.viewmodels.shell import check_text
from explorer.views.page_view import PageView
from tests.gui.reliability.checks import key_leaks, untrustworthy
from tests.gui.reliability.conftest import AppFactory, NodeFactory, Records
from tests.gui.reliability.harness import App
from tests.gui.reliability.node import Mode, SwitchableNode
from tests.helpers.rpc import API_KEY
from tests.helpers.testnet_node import ADDRESS, BLOCK_HASH, TX_HASH
from tests.helpers.timing import WAIT

SEARCHES = (TX_HASH, BLOCK_HASH, "436", ADDRESS, "0x" + "ab" * 32, "latest")
NETWORKS = ("First", "Second")
SEQUENCES = 14
STEPS = 10
SETTLE_MS = 120
LATENCY = 0.2
UNVERIFIED_BANNER = (Verification.MISMATCH, Verification.UNREACHABLE)


class Counts:
    """How much the machine ran."""

    sequences = 0
    steps = 0


class TrustMachine(RuleBasedStateMachine):
    """The user and the nodes take turns; the invariants are checked after each turn."""

    app: ClassVar[App]
    nodes: ClassVar[dict[str, SwitchableNode]]
    qtbot: ClassVar[QtBot]
    records: ClassVar[Records]
    home: ClassVar[Path]

    def __init__(self) -> None:
        """Start a sequence with both nodes behaving (the app keeps its network and tabs)."""
        super().__init__()
        Counts.sequences += 1
        for node in self.nodes.values():
            node.switch(Mode.GOOD)

    @rule(text=st.sampled_from(SEARCHES), new_tab=st.booleans())
    def search(self, text: str, new_tab: bool) -> None:
        """Type a search and press Enter (Ctrl+Enter: a new tab)."""
        bar = self.app.window.search_bar
        bar.setText(text)
        self.app.app.search.on_submit(text, new_tab and self.app.window.tabs.count() < 6)

    @rule(name=st.sampled_from(NETWORKS))
    def switch_network(self, name: str) -> None:
        """Choose a network in the toolbar."""
        self.app.switch(name)

    @rule(text=st.sampled_from(SEARCHES), name=st.sampled_from(NETWORKS))
    def switch_while_searching(self, text: str, name: str) -> None:
        """Search, and choose a network before the answer arrives."""
        self.search(text, new_tab=False)
        self.switch_network(name)

    @rule()
    def back(self) -> None:
        """Go back in the current tab."""
        self.app.app.navigator.back()

    @rule()
    def cancel_search(self) -> None:
        """Press Esc in the search bar."""
        self.qtbot.keyClick(self.app.window.search_bar, Qt.Key.Key_Escape)

    @rule()
    def retry(self) -> None:
        """Press the banner's Retry and the current page's, where shown."""
        window = self.app.window
        if window.banner_retry.isVisible():
            self.qtbot.mouseClick(window.banner_retry, Qt.MouseButton.LeftButton)
        page = window.current_page()
        if page is not None and page.retry_button.isVisible():
            self.qtbot.mouseClick(page.retry_button, Qt.MouseButton.LeftButton)

    @rule(name=st.sampled_from(NETWORKS), mode=st.sampled_from(Mode))
    def node_changes(self, name: str, mode: Mode) -> None:
        """Make a node answer differently from now on."""
        self.nodes[name].switch(mode)

    @rule(name=st.sampled_from(NETWORKS), chain=st.sampled_from([Mode.GOOD, Mode.OTHER_CHAIN]))
    def node_restarts(self, name: str, chain: Mode) -> None:
        """Stop a node (its connections drop) and bring it back, perhaps on another chain."""
        node = self.nodes[name]
        node.switch(Mode.DOWN)
        session = self.app.session
        if session.network.name == name:  # the app notices at its next head poll
            self.qtbot.waitUntil(lambda: not session.check.verified, timeout=WAIT)
        node.switch(chain)

    @invariant()
    def trustworthy(self) -> None:
        """Nothing untrustworthy shown, banner and status agree with the verdict, no key."""
        Counts.steps += 1
        self.qtbot.wait(SETTLE_MS)
        app = self.app
        assert untrustworthy(app.window, app.watch) == []
        connection = app.shell.connection
        banner = app.window.banner.isVisible()
        assert banner is bool(app.shell.banner.text)  # the window shows the verdict's banner
        if connection.verification in UNVERIFIED_BANNER:
            assert banner  # a node not confirmed is always said
        elif connection.verification is Verification.VERIFIED:
            assert banner is (connection.head_error is ErrorKind.MALFORMED)
        assert app.window.status_label.text().startswith(check_text(connection))
        if connection.verification is Verification.MISMATCH:
            for index in range(app.window.tabs.count()):
                view = app.window.tabs.widget(index)
                if isinstance(view, PageView):
                    assert view.model.state is PageState.MISMATCH
        assert key_leaks(API_KEY, self.records.lines, self.home, app.settings_path) == []


def test_random_sequences_keep_every_invariant(
    app_on: AppFactory,
    nodes: NodeFactory,
    qtbot: QtBot,
    records: Records,
    home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Hypothesis drives the app and two nodes that flip behaviour; every step is checked."""
    first, second = nodes(Mode.GOOD), nodes(Mode.GOOD)
    first.latency = second.latency = LATENCY  # searches still resolve as the user moves on
    TrustMachine.nodes = {"First": first, "Second": second}
    TrustMachine.app = app_on({"First": (first, 31), "Second": (second, 31)})
    TrustMachine.qtbot, TrustMachine.records, TrustMachine.home = qtbot, records, home
    Counts.sequences = Counts.steps = 0
    run_state_machine_as_test(
        TrustMachine,
        settings=settings(
            max_examples=SEQUENCES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        ),
    )
    with capsys.disabled():
        print(f"\ntrust invariants: {Counts.sequences} sequences, {Counts.steps} checked steps")
    assert Counts.sequences >= SEQUENCES
    assert Counts.steps >= SEQUENCES * 2
