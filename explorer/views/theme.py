"""The look every screen shares: tone colours for light and dark, plain labels, fonts."""

from __future__ import annotations

import html
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QSizePolicy, QWidget

from explorer.presentation.document import Tone

W = TypeVar("W", bound=QWidget)

# (on a light window, on a dark window): each readable on its background.
TONE_COLOURS: dict[Tone, tuple[str, str]] = {
    Tone.GOOD: ("#1a7f37", "#3fb950"),
    Tone.BAD: ("#cf222e", "#ff7b72"),
    Tone.WAITING: ("#9a6700", "#d29922"),
}

DARK_COLOURS: dict[QPalette.ColorRole, str] = {
    QPalette.ColorRole.Window: "#202124",
    QPalette.ColorRole.WindowText: "#e8eaed",
    QPalette.ColorRole.Base: "#171717",
    QPalette.ColorRole.AlternateBase: "#2a2b2e",
    QPalette.ColorRole.Text: "#e8eaed",
    QPalette.ColorRole.Button: "#2d2e31",
    QPalette.ColorRole.ButtonText: "#e8eaed",
    QPalette.ColorRole.Highlight: "#3d6fb4",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.ToolTipBase: "#2d2e31",
    QPalette.ColorRole.ToolTipText: "#e8eaed",
    QPalette.ColorRole.PlaceholderText: "#9aa0a6",
    QPalette.ColorRole.Link: "#8ab4f8",
    QPalette.ColorRole.Mid: "#3c4043",
    QPalette.ColorRole.Midlight: "#3c4043",
}
DARK_DISABLED: dict[QPalette.ColorRole, str] = {
    QPalette.ColorRole.WindowText: "#80868b",
    QPalette.ColorRole.Text: "#80868b",
    QPalette.ColorRole.ButtonText: "#6b7075",
    QPalette.ColorRole.Button: "#242528",
}


def is_dark(palette: QPalette) -> bool:
    """Tell whether a palette draws on a dark window."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def tone_colour(tone: Tone, palette: QPalette) -> QColor:
    """Return the text colour of a tone that reads well on the palette's window."""
    pair = TONE_COLOURS.get(tone)
    if pair is not None:
        return QColor(pair[1 if is_dark(palette) else 0])
    if tone is Tone.MUTED:
        return palette.color(QPalette.ColorRole.PlaceholderText)
    return palette.color(QPalette.ColorRole.WindowText)


TONE_PROPERTY = "tone"  # the tone a widget was given, to colour it again for another theme


def tone_palette(widget: QWidget, tone: Tone) -> None:
    """Colour a widget's text by its tone through its palette (light and dark).

    The colour comes from the theme (the application's palette), never from the widget's own
    palette: that holds the colour of its previous tone (a note after an error was red).
    """
    palette = widget.palette()
    theme = QApplication.palette(widget)
    palette.setColor(QPalette.ColorRole.WindowText, tone_colour(tone, theme))
    widget.setProperty(TONE_PROPERTY, tone.value)
    widget.setPalette(palette)


def retone(widgets: list[QWidget]) -> None:
    """Colour toned widgets again for the theme now in use (after the palette changed)."""
    for widget in widgets:
        value = widget.property(TONE_PROPERTY)
        if isinstance(value, str):
            tone_palette(widget, Tone(value))


def dark_palette() -> QPalette:
    """Return the dark palette the app and its screenshots use."""
    palette = QPalette()
    for role, colour in DARK_COLOURS.items():
        palette.setColor(role, QColor(colour))
    for role, colour in DARK_DISABLED.items():
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(colour))
    return palette


def plain_label(
    text: str = "",
    *,
    selectable: bool = True,
    wrap: bool = False,
    parent: QWidget | None = None,
) -> QLabel:
    """Return a label that shows text literally (never rich text), optionally word-wrapped."""
    label = QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if wrap:
        label.setWordWrap(True)
        policy = label.sizePolicy()  # keeps the height-for-width flag that word wrap set
        policy.setHorizontalPolicy(QSizePolicy.Policy.Expanding)
        label.setSizePolicy(policy)
    return label


def plain_tooltip(text: str) -> str:
    """Return a tooltip that shows text literally (Qt would guess rich text from tags)."""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>"


def monospace(widget: W) -> W:
    """Give a widget the system's fixed-width font at its current point size; return it."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(widget.font().pointSizeF())
    widget.setFont(font)
    return widget


def apply_theme(name: str, system: QPalette) -> None:
    """Colour the whole app light, dark or as the system does; toned texts follow."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    if name == "dark":
        palette = dark_palette()
    elif name == "light":
        palette = app.style().standardPalette()
    else:
        palette = system
    app.setPalette(palette)
    retone(app.allWidgets())
