#!/usr/bin/env bash
# Build the PyInstaller folder and smoke-test it: the window, a subcommand, the devnet child.
set -euo pipefail
cd "$(dirname "$0")"
VENV=../.venv
"$VENV/bin/python" -m pip install -q "pyinstaller==6.22.3"
"$VENV/bin/pyinstaller" --noconfirm --clean --distpath dist --workpath build explorer.spec
EXE=dist/explorer/explorer
QT_QPA_PLATFORM=offscreen "$EXE" --smoke-test
"$EXE" rpc --help > /dev/null
"$EXE" devnet --help > /dev/null
echo "packaging: dist/explorer built and smoke-tested"
