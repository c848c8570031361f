"""Before the window opens on Linux: the system libraries Qt's X11 plugin needs, there or named.

Qt's X11 (xcb) platform plugin links libraries a desktop usually has and a fresh system may
lack (libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1 on Debian 12); without them Qt aborts
with a terse message. `make run` runs `python -m explorer.app.qtdeps --install` first: the list is
what `ldd` finds missing for the installed PySide6's own plugin, so it follows the wheel.
As root with apt-get they are installed; otherwise the exact `sudo apt-get install …` line is
printed and the start stops; the window's own start checks too (`window_can_open`), for
`.venv/bin/explorer` run directly. No Qt is loaded here.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Check another plugin than the installed PySide6's (tests point it at a doctored copy).
PLUGIN_VARIABLE = "EXPLORER_QT_XCB_PLUGIN"
NOT_FOUND = re.compile(r"^\s*(\S+) => not found", re.MULTILINE)
UNLOADABLE = re.compile(r"error while loading shared libraries: (?:\S*/)?([^/:\s]+):")
SONAME = re.compile(r"^(lib[\w.+-]*?)\.so\.(\d[\w.]*)$")


def xcb_plugin() -> Path | None:
    """Return the X11 platform plugin of the installed PySide6 (None when there is none)."""
    override = os.environ.get(PLUGIN_VARIABLE)
    if override:
        return Path(override)
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(spec.submodule_search_locations[0], "Qt", "plugins", "platforms", "libqxcb.so")
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path) -> list[str]:
    """Return the libraries the plugin (or one it loads) needs and the system cannot give."""
    run = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=False)
    output = run.stdout + run.stderr
    names = NOT_FOUND.findall(output) + UNLOADABLE.findall(output)
    return sorted(set(names))


def debian_package(soname: str) -> str:
    """Return the Debian package that ships a library, by Debian's naming of library packages.

    libxcb-cursor.so.0 is in libxcb-cursor0, libxkbcommon-x11.so.0 in libxkbcommon-x11-0 (a
    hyphen when the name ends in a digit), libX11-xcb.so.1 in libx11-xcb1.
    """
    match = SONAME.match(soname)
    if match is None:
        return soname
    name, version = match.groups()
    name = name.lower()
    if name.startswith("libglib-2.0") or name.startswith("libgthread-2.0"):
        return "libglib2.0-0"  # GLib's libraries ship together, under this name
    return f"{name}-{version}" if name[-1].isdigit() else f"{name}{version}"


def should_check(environ: dict[str, str]) -> bool:
    """Tell whether the window would use the X11 plugin here (Linux, no other platform asked)."""
    platform = environ.get("QT_QPA_PLATFORM", "")
    return sys.platform.startswith("linux") and (not platform or "xcb" in platform)


def apt_install(packages: list[str]) -> str:
    """Install packages with apt-get (as root), updating the lists once if needed.

    Return '' when they were installed, else why not: apt-get's errors (its `E:` lines).
    """
    command = ["apt-get", "install", "-y", "-q", *packages]
    if subprocess.run(command, capture_output=True, check=False).returncode == 0:
        return ""
    subprocess.run(["apt-get", "update", "-q"], capture_output=True, check=False)
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode == 0:
        return ""
    said = [line.strip() for line in run.stderr.splitlines() if line.strip()]
    errors = [line.removeprefix("E: ") for line in said if line.startswith("E: ")]
    return "; ".join(errors or said[-1:]) or f"apt-get exited with status {run.returncode}"


def advice(missing: list[str]) -> str:
    """Say what is missing and the exact command that installs it."""
    packages = sorted({debian_package(name) for name in missing})
    lines = [
        "explorer: the window cannot open: Qt's X11 (xcb) platform plugin needs libraries "
        f"this system lacks: {', '.join(missing)}.",
    ]
    if shutil.which("apt-get"):
        lines += ["Install them with:", f"    sudo apt-get install {' '.join(packages)}"]
    else:
        lines.append(f"Install the packages that provide them (on Debian: {' '.join(packages)}).")
    lines.append("Then start it again (`make run`, or `explorer`).")
    return "\n".join(lines)


def window_can_open(stamp_dir: Path) -> bool:
    """Check before the window's start (`.venv/bin/explorer` skips `make run`'s check).

    Say what is missing, with the install line, and return False; True when nothing is. A
    plugin found complete once is not checked again (a stamp in stamp_dir names it): the check
    runs `ldd`, tens of milliseconds before the first frame.
    """
    plugin = xcb_plugin()
    if not should_check(dict(os.environ)) or plugin is None or not shutil.which("ldd"):
        return True
    facts = plugin.stat()
    stamp = stamp_dir / f"qt-xcb-complete-{facts.st_size}-{int(facts.st_mtime)}"
    if stamp.exists():
        return True
    missing = missing_libraries(plugin)
    if missing:
        print(advice(missing), file=sys.stderr)
        return False
    with contextlib.suppress(OSError):
        stamp_dir.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    return True


def main(argv: list[str] | None = None) -> int:
    """Check (and with --install, as root, install) the X11 plugin's libraries; 1 if missing."""
    parser = argparse.ArgumentParser(prog="python -m explorer.app.qtdeps", description=__doc__)
    parser.add_argument("--install", action="store_true", help="apt-get install them as root")
    args = parser.parse_args(argv)
    plugin = xcb_plugin()
    if not should_check(dict(os.environ)) or plugin is None or not shutil.which("ldd"):
        return 0
    missing = missing_libraries(plugin)
    if missing and args.install and shutil.which("apt-get") and os.geteuid() == 0:
        packages = sorted({debian_package(name) for name in missing})
        print(
            f"explorer: installing what Qt's X11 plugin needs: apt-get install {' '.join(packages)}"
        )
        failure = apt_install(packages)
        if failure:
            print(f"explorer: apt-get could not install them: {failure}", file=sys.stderr)
        missing = missing_libraries(plugin)
    if missing:
        print(advice(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
