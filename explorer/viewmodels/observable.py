"""Typed Qt properties and signals: read through Python, notified by an event signal."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, TypeVarTuple, cast, overload

from PySide6.QtCore import Property, QMetaObject, QObject, Qt, Signal, SignalInstance

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

#: How a payload type crosses Qt: a Python int as a 64-bit one (a block number may pass 32
#: bits), float, str and bool as themselves; every other type (records, enums, tuples,
#: mappings, unions) as the Python object itself, never copied into a Qt container (a dict
#: sent as QVariantMap loses its keys that are not strings).
QT_TYPES: dict[object, object] = {int: "qlonglong", float: float, str: str, bool: bool}

if TYPE_CHECKING:

    class BoundSignal(SignalInstance, Generic[*Ts]):
        """One object's signal, whose emit and connect mypy checks against its payload."""

        def emit(self, *args: *Ts) -> None:
            """Send the payload to every connected slot."""

        def connect(  # type: ignore[override]
            self,
            slot: Callable[[*Ts], object] | Callable[[], object] | SignalInstance,
            type: Qt.ConnectionType = ...,
        ) -> QMetaObject.Connection:
            """Call a slot that takes the payload (or nothing) on every emit."""
            ...

    class TypedSignal(Signal, Generic[*Ts]):
        """A Qt signal declared with its payload's types: `TypedSignal[Route, bool]()`."""

        def __init__(self) -> None: ...

        @overload
        def __get__(self, instance: QObject, owner: object, /) -> BoundSignal[*Ts]: ...
        @overload
        def __get__(self, instance: None, owner: object, /) -> TypedSignal[*Ts]: ...
        def __get__(self, instance: object, owner: object, /) -> object:
            """Return the signal of one object, or this declaration on the class."""

else:

    class TypedSignal:
        """A Qt signal declared with its payload's types: `TypedSignal[Route, bool]()`."""

        def __class_getitem__(cls, payload: object) -> Callable[[], Signal]:
            """Return a maker of the Qt signal that carries these types (see QT_TYPES)."""
            types = payload if isinstance(payload, tuple) else (payload,)
            return lambda: Signal(*(QT_TYPES.get(kind, object) for kind in types))


def qproperty(getter: Callable[[Any], T], notify: Signal) -> T:
    """Declare a read-only Qt property typed as the getter's value for type checkers."""
    return cast(T, Property(object, getter, notify=notify))
