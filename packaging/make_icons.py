"""Make the Windows .ico and the macOS .icns of the app icon from its SVG (at build time)."""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QGuiApplication

from explorer.views.icons import APP_ICON_SVG, render_svg

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types by pixel size (the @2x types share the pixels of the next size up).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
    (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
    (b"ic14", 512),
)  # fmt: skip


def png(svg: bytes, size: int) -> bytes:
    """Render the SVG at size×size and return PNG bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not render_svg(svg, size).save(buffer, "PNG"):
        sys.exit(f"could not render the icon at {size} px")
    return bytes(data.data())


def ico(images: dict[int, bytes]) -> bytes:
    """Return an .ico holding PNG images (Windows Vista and later read PNG entries)."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, payload = b"", b""
    for size, data in sorted(images.items()):
        side = size % 256  # 0 stands for 256
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
        payload += data
    return header + entries + payload


def icns(images: dict[int, bytes]) -> bytes:
    """Return an .icns holding PNG elements."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(images[size])) + images[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> None:
    """Write explorer.ico and explorer.icns into the directory given (created if missing)."""
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # alive while rendering
    svg = (RESOURCES / APP_ICON_SVG).read_bytes()
    sizes = sorted({*ICO_SIZES, *(size for _, size in ICNS_TYPES)})
    images = {size: png(svg, size) for size in sizes}
    (target / "explorer.ico").write_bytes(ico({size: images[size] for size in ICO_SIZES}))
    (target / "explorer.icns").write_bytes(icns(images))
    print(f"packaging: explorer.ico ({len(ICO_SIZES)} sizes) and explorer.icns in {target}")


if __name__ == "__main__":
    main()
