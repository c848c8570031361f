"""Every Qt signal in explorer/ says what it carries, and mypy checks what is sent on it."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api
from PySide6.QtCore import QObject

from explorer.viewmodels.observable import TypedSignal

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "explorer"
#: The one module that may call PySide6's Signal itself: the one that types it.
DECLARER = PACKAGE / "viewmodels" / "observable.py"
#: A payload that may truly be any Python object says why on its line.
ANY_OBJECT_REASON = re.compile(r"#\s*any object:\s*\S")
OPAQUE = {"object", "Any"}
#: Containers named without what they hold tell mypy nothing about their contents.
UNSAID = {"dict", "list", "tuple", "set", "frozenset", "Mapping", "Sequence", "Iterable"}


def _name(node: ast.expr) -> str:
    """Return the last part of a name or an attribute (`QtCore.Signal` is `Signal`)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def signal_problems(source: str, where: str) -> tuple[int, list[str]]:
    """Return how many signals a module declares and what is wrong with their payloads."""
    lines = source.splitlines()
    count, problems = 0, list[str]()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        at = f"{where}:{node.lineno}"
        if _name(node.func) == "Signal":
            count += 1
            problems.append(f"{at} declares a Signal: use TypedSignal[...]() so mypy checks it")
        elif isinstance(node.func, ast.Subscript) and _name(node.func.value) == "TypedSignal":
            count += 1
            payload = node.func.slice
            types = payload.elts if isinstance(payload, ast.Tuple) else [payload]
            for kind in types:
                if _name(kind) in OPAQUE and not ANY_OBJECT_REASON.search(lines[node.lineno - 1]):
                    problems.append(f"{at} carries a bare {_name(kind)} with no '# any object:'")
                elif isinstance(kind, ast.Name | ast.Attribute) and _name(kind) in UNSAID:
                    problems.append(f"{at} carries a {_name(kind)} without saying of what")
    return count, problems


def test_every_signal_in_explorer_carries_a_named_type() -> None:
    """No signal carries a bare object (unless it says why) and each is declared typed."""
    count, problems = 0, list[str]()
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != DECLARER:
            found, wrong = signal_problems(path.read_text(), str(path.relative_to(ROOT)))
            count, problems = count + found, problems + wrong
    assert problems == []
    assert count >= 100  # the walk sees the signals (113 when this was written)


def test_the_walk_sees_a_bare_or_untyped_payload() -> None:
    """The checker flags a PySide Signal, a bare object, an unsaid dict; a reason passes."""
    source = textwrap.dedent(
        """
        class Model(QObject):
            old = Signal(object)
            bare = TypedSignal[int, object]()
            loose = TypedSignal[dict]()
            anything = TypedSignal[object]()  # any object: a value the user's script returned
            named = TypedSignal[dict[str, int], Route | None]()
        """
    )
    count, problems = signal_problems(source, "model.py")
    assert count == 5
    assert problems == [
        "model.py:3 declares a Signal: use TypedSignal[...]() so mypy checks it",
        "model.py:4 carries a bare object with no '# any object:'",
        "model.py:5 carries a dict without saying of what",
    ]


class _Carrier(QObject):
    """Signals of each kind of payload."""

    number = TypedSignal[int]()
    mapping = TypedSignal[dict[int, str]]()
    optional = TypedSignal[str | None]()
    nothing = TypedSignal[()]()


def test_payloads_cross_qt_whole(qapp: object) -> None:
    """A 63-bit int, a dict keyed by ints and None arrive as sent; an empty signal sends none."""
    carrier = _Carrier()
    received: list[object] = []
    carrier.number.connect(received.append)
    carrier.mapping.connect(received.append)
    carrier.optional.connect(received.append)
    carrier.nothing.connect(lambda: received.append("nothing"))
    sent = {1: "one"}
    carrier.number.emit(2**63 - 1)  # the largest block number a node may send
    carrier.mapping.emit(sent)
    carrier.optional.emit(None)
    carrier.nothing.emit()
    assert received == [2**63 - 1, {1: "one"}, None, "nothing"]
    assert received[1] is sent  # the dict itself, never a QVariantMap copy
    with pytest.raises(TypeError):
        carrier.nothing.emit(1)  # type: ignore[call-arg]


@pytest.mark.slow
def test_mypy_catches_a_wrong_emit_and_a_mismatched_slot(tmp_path: Path) -> None:
    """A wrong payload, a slot of other types and an extra argument are type errors."""
    module = tmp_path / "sender.py"
    module.write_text(
        textwrap.dedent(
            """
            from PySide6.QtCore import QObject

            from explorer.services.routes import Route
            from explorer.viewmodels.observable import TypedSignal


            class Sender(QObject):
                moved = TypedSignal[Route, bool]()
                changed = TypedSignal[()]()


            def on_moved(text: str, new_tab: bool) -> None:
                pass


            def send(sender: Sender, route: Route) -> None:
                sender.moved.connect(lambda moved, new_tab: print(moved.path, new_tab))
                sender.moved.connect(sender.changed.emit)
                sender.moved.emit(route, True)
                sender.moved.emit("tx/0x01", True)
                sender.moved.connect(on_moved)
                sender.changed.emit(route)
            """
        )
    )
    report, _, status = mypy_api.run(
        [str(module), "--strict", "--cache-dir", str(tmp_path / "cache")]
    )
    errors = [line for line in report.splitlines() if ": error:" in line]
    assert status == 1
    assert [line.split(":")[1] for line in errors] == ["21", "22", "23"]
    assert 'expected "Route"' in errors[0]
