"""A throwaway profile for `--screenshot`: settings, data, caches and logs in a temporary folder.

Screenshots show a fresh profile (no tabs, bookmarks or keys of the user's) and change nothing
of the user's: the folder is deleted when the run ends. Only the devnet's snapshots are read
from the user's cache (never written), so that the pictures do not wait for a build.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QSettings

from explorer.devnet.process import CACHE_VARIABLE, default_cache_dir

#: The folders the app and its libraries (platformdirs, Qt) keep the user's things in.
PROFILE_VARIABLES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


@contextlib.contextmanager
def throwaway_profile() -> Iterator[Path]:
    """Point the user's folders at a temporary one until the end; yield the user's devnet cache."""
    user_cache = default_cache_dir()
    saved = {name: os.environ.get(name) for name in (*PROFILE_VARIABLES, CACHE_VARIABLE)}
    with tempfile.TemporaryDirectory(prefix="explorer-screenshots-") as folder:
        for name in PROFILE_VARIABLES:
            os.environ[name] = str(Path(folder) / name.lower())
        os.environ.pop(CACHE_VARIABLE, None)
        settings = str(Path(folder) / "xdg_config_home")
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, settings)
        try:
            yield user_cache
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
