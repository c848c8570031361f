#!/usr/bin/env bash
# Validate the installers with the ecosystem's own checkers (lintian, desktop-file-validate,
# appstreamcli; each skipped with the reason when it is not installed), then install each into a
# temporary root and start the app from there: the window, rpc against the devnet, a report and
# a log scan over the devnet child, with an empty devnet cache (the shipped snapshot is used).
set -euo pipefail
cd "$(dirname "$0")"
TRANSFER=0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef
APP_ID=io.github.rsk_explorer.Explorer

fail() { echo "packaging: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
checker() { # checker TOOL: true when installed, else say what is skipped and why
    command -v "$1" > /dev/null && return 0
    echo "packaging: SKIPPED $1: not installed (make package-tools installs it with apt-get)"
    return 1
}

deb=$(ls dist/*.deb) tarball=$(ls dist/*.tar.gz)
[ -f "$deb" ] && [ -f "$tarball" ] || fail "no installers in dist (run packaging/build.sh)"
WORK=$(mktemp -d /tmp/explorer-installers.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The size goals (1 MB = 10^6 bytes): the folder at most 150 MB, each installer at most 70 MB.
megabytes() { du -sb --apparent-size "$1" | awk '{ printf "%.1f", $1 / 1e6 }'; }
sizes="folder $(megabytes dist/explorer) MB, .deb $(megabytes "$deb") MB, .tar.gz $(megabytes "$tarball") MB"
over=$(for pair in dist/explorer:150 "$deb:70" "$tarball:70"; do
    awk -v size="$(megabytes "${pair%:*}")" -v goal="${pair##*:}" -v name="${pair%:*}" \
        'BEGIN { if (size > goal) printf "%s is %s MB (goal %s MB) ", name, size, goal }'
done)
if [ -z "$over" ]; then
    echo "packaging: size goals met: $sizes (goals 150 MB and 70 MB)"
elif [ -s build/icu/skipped.txt ]; then # the ICU data was left whole: say so, no failure
    echo "packaging: SKIPPED size goals: $over(ICU data not trimmed: $(cat build/icu/skipped.txt))"
else
    fail "over the size goals: $over"
fi

# --- Install: the .deb unpacked into a root as dpkg lays it out; the .tar.gz by its script ---
DEB_ROOT=$WORK/deb-root
dpkg-deb -x "$deb" "$DEB_ROOT"
dpkg-deb -f "$deb" Depends | grep -q "libc6" || fail "the .deb declares no dependencies"
[ "$(readlink "$DEB_ROOT/usr/bin/explorer")" = /opt/explorer/explorer ] ||
    fail "/usr/bin/explorer does not point at /opt/explorer/explorer"
DEB_EXE=$DEB_ROOT/opt/explorer/explorer
HOME_ROOT=$WORK/home
mkdir -p "$WORK/unpacked" "$HOME_ROOT"
tar -xzf "$tarball" -C "$WORK/unpacked"
HOME=$HOME_ROOT "$WORK"/unpacked/*/install.sh > "$WORK/install.log" || fail "install.sh: $(cat "$WORK/install.log")"
TAR_EXE=$HOME_ROOT/.local/bin/explorer
[ -x "$TAR_EXE" ] || fail "install.sh did not put explorer in ~/.local/bin"
grep -q "^Exec=$HOME_ROOT/.local/opt/explorer/explorer" "$HOME_ROOT/.local/share/applications/explorer.desktop" ||
    fail "the installed desktop entry does not start the installed program"
echo "packaging: .deb unpacked into $DEB_ROOT, .tar.gz installed by install.sh into $HOME_ROOT/.local"

# Both lay the desktop integration out the same way: entry, icon in every size, metadata, man.
for share in "$DEB_ROOT/usr/share" "$HOME_ROOT/.local/share"; do
    icon=$(sed -n 's/^Icon=//p' "$share/applications/explorer.desktop")
    for size in 16x16 32x32 48x48 64x64 128x128 256x256; do
        [ -s "$share/icons/hicolor/$size/apps/$icon.png" ] || fail "no $size $icon.png in $share"
    done
    [ -s "$share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "no scalable $icon.svg in $share"
    [ -s "$share/metainfo/$APP_ID.metainfo.xml" ] || fail "no AppStream metainfo in $share"
    zcat "$share/man/man1/explorer.1.gz" | grep -q "^.SH COMMAND: REPORT" || fail "man page in $share"
done
[ -s "$DEB_ROOT/usr/share/doc/explorer/copyright" ] || fail "no copyright file in the .deb"
[ -s "$DEB_ROOT/opt/explorer/THIRD-PARTY-LICENSES/README.txt" ] || fail "no third-party licences"
echo "packaging: desktop entry, icons (6 sizes and SVG), metainfo and man page in both"

# --- Depends: what the bundled Qt plugins load, checked on a root without it ----------------------
# Qt's xcb plugin loads libxcb-cursor.so.0 (Qt refuses to start on X11 without it): the .deb
# leaves the display's client libraries to Debian and must depend on their packages. A root where
# every other dependency is installed but libxcb-cursor0 is not: dpkg must refuse for want of it.
depends=$(dpkg-deb -f "$deb" Depends)
grep -qE "(^|, )libxcb-cursor0(,|$)" <<< "$depends" || fail "Depends lacks libxcb-cursor0: $depends"
[ -z "$(find "$DEB_ROOT/opt/explorer" -name 'libxcb-cursor.so*')" ] ||
    fail "the .deb carries its own libxcb-cursor (the system's must be used)"
BARE=$WORK/root-without-xcb-cursor
mkdir -p "$BARE/var/lib/dpkg/info" "$BARE/var/lib/dpkg/updates"
for package in $(sed 's/([^)]*)//g; s/,/ /g' <<< "$depends"); do # each stands in, but one
    [ "$package" = libxcb-cursor0 ] || printf 'Package: %s\nStatus: install ok installed\n%s\n\n' \
        "$package" "Version: 99999
Architecture: all
Maintainer: stand-in <stand-in@localhost>
Description: stands in for the package (the check needs only its name)"
done > "$BARE/var/lib/dpkg/status"
if dpkg --root="$BARE" --force-not-root --force-script-chrootless --log=/dev/null -i "$deb" \
    > "$WORK/bare-root.log" 2>&1; then
    fail "dpkg installed the .deb on a root without libxcb-cursor0"
fi
unmet=$(sed -n 's/^ explorer depends on \([^;]*\);.*/\1/p' "$WORK/bare-root.log" | tr '\n' ' ')
[ "$unmet" = "libxcb-cursor0 " ] ||
    fail "on a root without libxcb-cursor0, dpkg found these missing: '$unmet' ($(tail -3 "$WORK/bare-root.log"))"
echo "packaging: Depends holds what the Qt plugins load: $depends"
echo "packaging: on a root without libxcb-cursor0 dpkg refuses the .deb for want of it alone"
cursor=$(ldconfig -p | sed -n 's/^\s*libxcb-cursor\.so\.0 (.*) => //p' | head -1)
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && command -v xvfb-run > /dev/null &&
    [ -n "$cursor" ] && unshare -m true 2> /dev/null; then
    # Where the library is gone (a private mount namespace hides it), the window cannot start.
    if without=$(unshare -m --propagation private sh -c "mount --bind /dev/null '$cursor' &&
        XDG_CONFIG_HOME='$WORK/no-cursor' QT_QPA_PLATFORM=xcb xvfb-run -a '$DEB_EXE' --smoke-test" 2>&1); then
        fail "the window started on X11 without libxcb-cursor.so.0: is it bundled after all?"
    fi
    grep -q "xcb-cursor0 or libxcb-cursor0 is needed" <<< "$without" ||
        fail "without libxcb-cursor.so.0 the window failed otherwise: $(tail -3 <<< "$without")"
    echo "packaging: without libxcb-cursor.so.0 the window does not start on X11 (Qt says" \
        "xcb-cursor0 or libxcb-cursor0 is needed): the dependency is real"
else
    echo "packaging: SKIPPED the start without libxcb-cursor.so.0: needs root, unshare, xvfb-run" \
        "and the library on this machine"
fi

# --- Validate with the checkers of the ecosystem -------------------------------------------------
if checker desktop-file-validate; then
    desktop-file-validate "$DEB_ROOT/usr/share/applications/explorer.desktop" ||
        fail "desktop-file-validate"
    desktop-file-validate "$HOME_ROOT/.local/share/applications/explorer.desktop" ||
        fail "desktop-file-validate (the per-user entry)"
    echo "packaging: desktop-file-validate passed"
fi
if checker appstreamcli; then
    appstreamcli validate --no-net "$DEB_ROOT/usr/share/metainfo/$APP_ID.metainfo.xml" ||
        fail "appstreamcli validate"
    echo "packaging: appstreamcli passed (validate --no-net)"
fi
if checker lintian; then
    started=$(now)
    lintian --fail-on error,warning "$deb" ||
        fail "lintian"
    echo "packaging: lintian passed (no errors or warnings) in $(since "$started") s"
fi

# --- Start the app from where each installer put it ----------------------------------------------
export QT_QPA_PLATFORM=offscreen
says() { local pattern=$1 output; shift; output=$("$@") && grep -q "$pattern" <<< "$output"; }
smoke() { # smoke NAME EXE: the window, the devnet child, rpc, report and logs, empty caches
    local name=$1 exe=$2 run=$WORK/run-$1
    mkdir -p "$run"
    export XDG_CONFIG_HOME=$run/config XDG_STATE_HOME=$run/state XDG_CACHE_HOME=$run/cache
    export EXPLORER_DEVNET_CACHE=$run/devnet-cache
    says "window 'Rootstock Explorer' opened" "$exe" --smoke-test || fail "$name: --smoke-test"
    if command -v xvfb-run > /dev/null; then
        says "window 'Rootstock Explorer' opened" env QT_QPA_PLATFORM=xcb xvfb-run -a "$exe" \
            --smoke-test || fail "$name: --smoke-test on X11"
    fi
    local started ready key=installed-smoke-key-0123456789
    started=$(now)
    coproc DEVNET { exec "$exe" devnet --network test --testnet-port 0 --key "$key" \
        --stop-on-stdin-eof --json-lines --manifest-file "$run/manifest.json"; }
    local devnet_pid=$DEVNET_PID devnet_in=${DEVNET[1]} line url=""
    while read -r line <&"${DEVNET[0]}"; do
        case "$line" in READY*) url=$(sed -n 's/.*"testnet": "\([^"]*\)".*/\1/p' <<< "$line"); break ;; esac
    done
    [ -n "$url" ] || fail "$name: the devnet child did not become ready"
    ready=$(since "$started")
    local block
    block=$("$exe" rpc "$url/$key" eth_blockNumber) || fail "$name: rpc eth_blockNumber"
    [[ $block == '"0x2ee'* ]] || fail "$name: rpc said the head is $block (expected about 12,000)"
    exec {devnet_in}>&-
    wait "$devnet_pid" || true
    [ ! -e "$EXPLORER_DEVNET_CACHE" ] || [ -z "$(ls "$EXPLORER_DEVNET_CACHE")" ] ||
        fail "$name: the devnet built a snapshot instead of loading the shipped one"
    local token
    token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["testnet"]["token"])' \
        "$run/manifest.json")
    says "Kind *Contract" "$exe" report --network devnet "$token" || fail "$name: report $token"
    local transfers
    transfers=$("$exe" logs --network devnet --topic0 "$TRANSFER" --from 0 --to 3000 --format csv |
        grep -c ',Transfer$') || fail "$name: logs"
    echo "packaging: $name: window, devnet child ready in $ready s (shipped snapshot)," \
        "rpc head $block, report of $token, $transfers Transfer logs"
}
smoke deb "$DEB_EXE"
smoke tar.gz "$TAR_EXE"
HOME=$HOME_ROOT "$WORK"/unpacked/*/install.sh --uninstall > /dev/null
[ ! -e "$TAR_EXE" ] && [ ! -e "$HOME_ROOT/.local/opt/explorer" ] || fail "install.sh --uninstall"
echo "packaging: install.sh --uninstall removed it again"
echo "packaging: installers validated and started from where they install"
