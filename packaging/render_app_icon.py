"""Render the app icon's PNG sizes from its SVG into resources/icons/hicolor (run on change)."""

# The PNGs are committed, not made at build time: the app run from a checkout, the wheel and the
# PyInstaller build all need them with no build step, and tests/gui/test_icons.py checks that
# each still equals a fresh render of the SVG.

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtGui import QGuiApplication

from explorer.views.icons import APP_ICON_SIZES, APP_ICON_SVG, app_icon_png, render_svg

RESOURCES = Path(__file__).resolve().parents[1] / "resources"


def main() -> None:
    """Write one PNG per size, beside the scalable SVG's hicolor tree."""
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # alive while rendering
    svg = (RESOURCES / APP_ICON_SVG).read_bytes()
    for size in APP_ICON_SIZES:
        target = RESOURCES / app_icon_png(size)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render_svg(svg, size).save(str(target), "PNG"):
            sys.exit(f"could not write {target}")
        print(f"{target.relative_to(RESOURCES.parent)}: {target.stat().st_size} bytes")


if __name__ == "__main__":
    main()
