"""What must hold at every moment, checked from outside the app.

No chain data from an unchecked node or a network the user left, and the API key in no
widget, title, clipboard, log record or file.
"""

from __future__ import annotations

import functools
from pathlib import Path

from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.session import Session
from explorer.viewmodels.page import PageState, PageViewModel
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.home_view import HomeView
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.gui.reliability.node import CHAIN_MARKS
from tests.helpers.widget_texts import every_text, visible_texts


def private_lines(path: Path) -> str:
    """Return a settings file's text without its [api_keys] section (where keys belong)."""
    kept: list[str] = []
    section = ""
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("["):
            section = line.strip()
        if section != "[api_keys]":
            kept.append(line)
    return "\n".join(kept)


def files_with(secret: str, root: Path, settings: Path) -> list[str]:
    """Return the files under root that hold secret (the settings file: outside its keys)."""
    found = []
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        if path == settings:
            if secret in private_lines(path):
                found.append(str(path))
        elif secret.encode() in path.read_bytes():
            found.append(str(path))
    return found


def key_leaks(secret: str, log_lines: list[str], root: Path, settings: Path) -> list[str]:
    """Return every place the key shows: widgets, titles, clipboard, log records, files."""
    leaks = [f"widget: {text[:80]}" for text in every_text() if secret in text]
    leaks += [f"log: {line[:80]}" for line in log_lines if secret in line]
    return leaks + [f"file: {name}" for name in files_with(secret, root, settings)]


class Watch:
    """Records every publication of chain data that should not have happened.

    That is one on a session that has not passed its chain check (or has failed it), or on
    one the user has left.
    """

    def __init__(self, shell: ShellViewModel) -> None:
        """Follow the shell's sessions."""
        self.shell = shell
        self.violations: list[str] = []
        self.verified: set[int] = set()  # ids of sessions whose check passed once
        self.publications = 0
        self._followed: set[int] = set()
        shell.session_changed.connect(self._on_session)
        self._on_session()

    def _on_session(self) -> None:
        """Note when the new session's check passes."""
        session = self.shell.session
        if session is None or id(session) in self._followed:
            return
        self._followed.add(id(session))
        session.checker.listen(functools.partial(self._on_check, session))
        self._on_check(session, session.check)

    def _on_check(self, session: Session, check: ChainCheck) -> None:
        """Remember sessions that passed."""
        if check.verified:
            self.verified.add(id(session))

    def follow_search(self, search: SearchViewModel) -> None:
        """Check that a search opens its result only on the session it started on."""
        started: list[Session | None] = [None]

        def on_busy(busy: bool) -> None:
            if busy:
                started[0] = self.shell.session

        def on_navigation(route: object, _new_tab: bool) -> None:
            if started[0] is not self.shell.session:
                self.violations.append(f"a search begun on another network opened {route}")

        search.busy_changed.connect(on_busy)
        search.navigation_requested.connect(on_navigation)

    def published(self, session: Session, what: str) -> None:
        """Check one publication of chain data."""
        self.publications += 1
        if session is not self.shell.session:
            self.violations.append(f"{what} published on a session the user left")
        elif id(session) not in self.verified:
            self.violations.append(f"{what} published before the chain check passed")
        elif session.check.verification is Verification.MISMATCH:
            self.violations.append(f"{what} published from a node serving another chain")
        elif session.check.reason:
            self.violations.append(f"{what} published while the chain is checked again")

    def follow(self, window: MainWindow) -> None:
        """Watch every page of the window (once each)."""
        for index in range(window.tabs.count()):
            view = window.tabs.widget(index)
            if id(view) in self._followed:
                continue
            self._followed.add(id(view))
            if isinstance(view, PageView):
                model = view.model

                def page_published(m: PageViewModel = model) -> None:
                    self.published(m.session, f"{m.route} page")

                model.document_changed.connect(page_published)
            elif isinstance(view, HomeView):
                home = view.model
                home.blocks.modelReset.connect(
                    lambda h=home: (
                        self.published(h.session, "home blocks") if h.blocks.rowCount() else None
                    )
                )
            elif isinstance(view, LogsView):
                logs = view.model
                logs.table.rowsInserted.connect(
                    lambda *_, m=logs: self.published(m.session, "logs")
                )


def untrustworthy(window: MainWindow, watch: Watch) -> list[str]:
    """Return what the window shows that it must not, right now (and what was published)."""
    problems = list(watch.violations)
    session = watch.shell.session
    mismatch = session is not None and session.check.verification is Verification.MISMATCH
    for index in range(window.tabs.count()):
        view = window.tabs.widget(index)
        if not isinstance(view, PageView | HomeView | LogsView):
            continue
        if view.model.session is not session:
            problems.append(f"tab {index} belongs to a session the user left")
        if mismatch and shows_chain_data(view):
            problems.append(f"tab {index} shows data from a node serving another chain")
    if mismatch or session is None or id(session) not in watch.verified:
        shown = " ".join(visible_texts(window, (window.search_bar,))).lower()
        problems += [f"chain data {mark} on screen" for mark in CHAIN_MARKS if mark in shown]
    return problems


def shows_chain_data(view: PageView | HomeView | LogsView) -> bool:
    """Tell whether a page shows anything read from the node."""
    if isinstance(view, PageView):
        return view.model.state is PageState.LOADED
    if isinstance(view, HomeView):
        return view.model.blocks.rowCount() > 0
    return view.model.table.total > 0
