#!/bin/sh
# Install Rootstock Explorer for the current user (no root needed), from the unpacked .tar.gz:
#   ./install.sh              installs under ~/.local (the program in ~/.local/opt/explorer)
#   ./install.sh --prefix DIR installs under DIR instead
#   ./install.sh --uninstall  removes what an install put there
# The command is DIR/bin/explorer; the desktop entry, icons and man page go under DIR/share.
set -eu

PREFIX="${HOME}/.local"
ACTION=install
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --prefix=*) PREFIX="${1#--prefix=}"; shift ;;
        --uninstall) ACTION=uninstall; shift ;;
        -h|--help) sed -n '2,6p' "$0" | cut -c3-; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
PROGRAM="$PREFIX/opt/explorer"
SHARE="$PREFIX/share"
SIZES="16x16 32x32 48x48 64x64 128x128 256x256"
METAINFO=io.github.rsk_explorer.Explorer.metainfo.xml

refresh_caches() {
    # Desktop menus and icon themes pick the new files up; missing tools are fine.
    command -v update-desktop-database > /dev/null && update-desktop-database -q "$SHARE/applications" || true
    command -v gtk-update-icon-cache > /dev/null && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" || true
    return 0
}

if [ "$ACTION" = uninstall ]; then
    rm -rf "$PROGRAM"
    rm -f "$PREFIX/bin/explorer" "$SHARE/applications/explorer.desktop" \
        "$SHARE/metainfo/$METAINFO" "$SHARE/man/man1/explorer.1.gz" \
        "$SHARE/icons/hicolor/scalable/apps/explorer.svg"
    for size in $SIZES; do rm -f "$SHARE/icons/hicolor/$size/apps/explorer.png"; done
    refresh_caches
    echo "Rootstock Explorer removed from $PREFIX"
    exit 0
fi

mkdir -p "$PREFIX/opt" "$PREFIX/bin" "$SHARE/applications" "$SHARE/metainfo" "$SHARE/man/man1"
rm -rf "$PROGRAM.new"
cp -R "$HERE/explorer" "$PROGRAM.new"
rm -rf "$PROGRAM"
mv "$PROGRAM.new" "$PROGRAM"
ln -sf "$PROGRAM/explorer" "$PREFIX/bin/explorer"
# The entry names the program by its full path: ~/.local/bin is not on every desktop's PATH.
sed "s|^Exec=explorer|Exec=$PROGRAM/explorer|" "$HERE/share/applications/explorer.desktop" \
    > "$SHARE/applications/explorer.desktop"
cp -R "$HERE/share/icons" "$SHARE/"
cp "$HERE/share/metainfo/$METAINFO" "$SHARE/metainfo/"
cp "$HERE/share/man/man1/explorer.1.gz" "$SHARE/man/man1/"
refresh_caches
echo "Rootstock Explorer installed in $PROGRAM"
echo "Start it from your applications menu, or run: $PREFIX/bin/explorer"
case ":$PATH:" in
    *":$PREFIX/bin:"*) ;;
    *) echo "($PREFIX/bin is not on your PATH; add it to run plain 'explorer')" ;;
esac
