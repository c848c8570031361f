#!/usr/bin/env bash
# Build the PyInstaller folder and smoke-test it headless: the window, the subcommands, a log
# scan and a report over the devnet, and every screenshot of the window on the devnet (whose
# child process is the frozen executable too), each checked against the same run from source.
# Then build the installers from it (packaging/installers.py); check_installers.sh validates
# them and starts the app from where they install it.
set -euo pipefail
cd "$(dirname "$0")"
VENV=../.venv
TRANSFER=0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef

fail() { echo "packaging: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
says() { local pattern=$1 output; shift; output=$("$@") && grep -q "$pattern" <<< "$output"; }

[ -x "$VENV/bin/pyinstaller" ] || fail "no $VENV/bin/pyinstaller: run make package (it sets up .venv)"
ASSETS=build/assets # what the spec collects besides the code: icons, the devnet's snapshot
mkdir -p "$ASSETS"
"$VENV/bin/python" make_icons.py "$ASSETS"
started=$(now)
"$VENV/bin/python" bundle_snapshots.py "$ASSETS"
echo "packaging: snapshot ready in $(since "$started") s"
started=$(now)
"$VENV/bin/pyinstaller" --noconfirm --clean --distpath dist --workpath build explorer.spec
echo "packaging: built in $(since "$started") s; dist/explorer is $(du -sh dist/explorer | cut -f1)"

# Extension modules built against a Python elsewhere keep a RUNPATH to its lib directory: the
# bundle loads everything from _internal, so those paths only leak the build machine's layout.
if command -v patchelf > /dev/null; then
    while IFS= read -r -d '' binary; do
        runpath=$(patchelf --print-rpath "$binary" 2> /dev/null) || continue
        if [ -n "$runpath" ] && [[ $runpath != '$ORIGIN'* ]]; then
            patchelf --remove-rpath "$binary"
        fi
    done < <(find dist/explorer -type f -name '*.so*' -print0)
    echo "packaging: RUNPATHs outside the bundle removed"
else
    echo "packaging: no patchelf: RUNPATHs left as built (make package-tools installs it)"
fi
"$VENV/bin/python" notices.py dist/explorer build/explorer/PYZ-00.toc

# The ICU data the spec trimmed (icu_trim.py) must give Qt the answers the whole data gives.
if [ -s build/icu/skipped.txt ]; then
    echo "packaging: SKIPPED the ICU check: the data was not trimmed: $(cat build/icu/skipped.txt)"
else
    "$VENV/bin/python" check_icu.py dist/explorer/_internal/PySide6/Qt/lib ||
        fail "the trimmed ICU data answers Qt differently (packaging/icu_trim.py)"
fi

# A compiled module imported only from C (unseen by the analysis) leaves a package half-collected,
# and some packages then fall back silently to slow pure Python: every one must be there.
SITE=$("$VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
INTERNAL=dist/explorer/_internal
compiled=$(cd "$SITE" && find . -name '*.so' ! -name '_test*' ! -path './PySide6/*' | cut -c3-)
for module in $compiled; do
    if [ -e "$INTERNAL/${module%%/*}" ] && [ ! -e "$INTERNAL/$module" ]; then
        fail "$module was not collected (add it to hiddenimports in explorer.spec)"
    fi
done

EXE=dist/explorer/explorer
SOURCE="$VENV/bin/explorer"
SMOKE=build/smoke # kept after the run: frozen and source screenshots, outputs
rm -rf "$SMOKE" && mkdir -p "$SMOKE/config"
export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME="$PWD/$SMOKE/config" # fresh settings: no restored tabs, user's untouched
# A warm snapshot cache (from earlier runs or tests) saves the ~65 s cold devnet build.
CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}
export EXPLORER_DEVNET_CACHE="${EXPLORER_DEVNET_CACHE:-$CACHE_HOME/explorer/devnet}"

started=$(now)
says "window 'Rootstock Explorer' opened, icon 16, 32, 48, 64, 128, 256 px" "$EXE" --smoke-test ||
    fail "--smoke-test (the window and its icon in six sizes)"
echo "packaging: --smoke-test passed in $(since "$started") s"
# Paint first, frozen too: no chain library, HTTP stack, py-evm or build tool (a runtime hook
# of pkg_resources costs 0.2 s) is loaded when the first frame is painted.
"$EXE" --smoke-test --first-frame-modules "$SMOKE/first-frame-modules" > /dev/null 2>&1 ||
    fail "--smoke-test --first-frame-modules"
early=$(grep -v '^eth_utils.pydantic$' "$SMOKE/first-frame-modules" | # the hook's stand-in
    grep -E '^(eth|eth_abi|eth_utils|aiohttp|httpx|qasync|pydantic|pkg_resources|setuptools)(\.|$)' |
    tr '\n' ' ') || true
[ -z "$early" ] || fail "loaded before the first frame: $early"
echo "packaging: the frozen first frame comes before the chain libraries and the HTTP stack"
if command -v xvfb-run > /dev/null; then # the X11 plugin and the libraries it loads
    says "window 'Rootstock Explorer' opened" env QT_QPA_PLATFORM=xcb xvfb-run -a "$EXE" \
        --smoke-test || fail "--smoke-test on X11 (xcb)"
    echo "packaging: --smoke-test passed on X11 (xcb, under Xvfb)"
else
    echo "packaging: no xvfb-run here: the X11 (xcb) start was not tried"
fi
says "^usage: explorer rpc" "$EXE" rpc --help || fail "rpc --help"
says "^usage: explorer devnet" "$EXE" devnet --help || fail "devnet --help"

# TLS: the frozen client verifies with certifi's bundle (so it refuses a self-signed node; a
# missing bundle would crash it), talks TLS to a node it is told to trust, and hides the key.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$SMOKE/tls-key.pem" -out "$SMOKE/tls-cert.pem" 2> /dev/null
coproc NODE { "$VENV/bin/python" tls_node.py "$SMOKE/tls-cert.pem" "$SMOKE/tls-key.pem"; }
node_pid=$NODE_PID node_in=${NODE[1]}
read -r port <&"${NODE[0]}"
url="https://127.0.0.1:$port/smoke-secret-key"
refused=$(env -u SSL_CERT_FILE -u SSL_CERT_DIR "$EXE" rpc "$url" eth_blockNumber 2>&1) &&
    fail "a self-signed node was trusted"
grep -q "TLS handshake" <<< "$refused" || fail "self-signed node: $refused"
answer=$(SSL_CERT_FILE="$SMOKE/tls-cert.pem" "$EXE" rpc "$url" eth_blockNumber 2>&1) ||
    fail "trusted node: $answer"
[ "$answer" = '"0x10"' ] || fail "trusted node answered $answer"
grep -q smoke-secret-key <<< "$refused$answer" && fail "the API key was printed"
exec {node_in}>&-
wait "$node_pid"
echo "packaging: TLS verified with certifi's bundle; a trusted node answered"

# The same command frozen and from source must print the same thing.
both() {
    local name=$1
    shift
    timeout 600 "$EXE" "$@" > "$SMOKE/$name.frozen" || fail "frozen: $*"
    timeout 600 "$SOURCE" "$@" > "$SMOKE/$name.source" || fail "source: $*"
    cmp -s "$SMOKE/$name.frozen" "$SMOKE/$name.source" || fail "$name differs from source: $*"
}
both logs.csv logs --network devnet --topic0 "$TRANSFER" --from 0 --to 3000 --format csv
transfers=$(grep -c ',Transfer$' "$SMOKE/logs.csv.frozen") || fail "no Transfer logs"
token=$(sed -n 2p "$SMOKE/logs.csv.frozen" | cut -d, -f4)
both report.txt report --network devnet "$token"
grep -q "Kind *Contract" "$SMOKE/report.txt.frozen" || fail "report of $token: not a contract"
echo "packaging: logs (${transfers} Transfer logs) and report $token match the source run"

# send: a transaction signed here (by eth-account, which the bundle leaves out) is decoded by the
# frozen build (its sender recovered, the pre-flight read) and, with no terminal to confirm on,
# not sent; one signed for chain 30 is refused on the devnet (31).
sign() {
    "$VENV/bin/python" -c 'import sys; from eth_account import Account
tx = dict(nonce=0, gasPrice=60000000, gas=21000, to="0x" + "22" * 20, value=1, chainId=int(sys.argv[1]))
print(Account.from_key("0x" + "11" * 32).sign_transaction(tx).raw_transaction.hex())' "$1"
}
sender=0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a # (shown with chain 31's checksum)
sent() { # sent NAME CHAIN: the frozen send's output, which must exit 2 (nothing sent)
    local code=0
    "$EXE" send "$(sign "$2")" --network devnet < /dev/null > "$SMOKE/$1" 2>&1 || code=$?
    [ $code = 2 ] || fail "send for chain $2 exited $code, not 2: $(cat "$SMOKE/$1")"
}
sent send-31.txt 31
grep -qi "$sender" "$SMOKE/send-31.txt" || fail "send: no sender recovered: $(cat "$SMOKE/send-31.txt")"
sent send-30.txt 30
grep -q "Signed for chain id 30" "$SMOKE/send-30.txt" || fail "send: chain 30 was not refused"
echo "packaging: send decodes a signed transaction, sends nothing unconfirmed, refuses chain 30"

screenshots() {
    timeout 600 "$2" --devnet --screenshot "$SMOKE/$1" > "$SMOKE/$1.log" 2>&1 ||
        fail "$1 --devnet --screenshot (see $SMOKE/$1.log)"
}
screenshots frozen "$EXE"
screenshots source "$SOURCE"
# The source tour also shoots a contract matched to the Hardhat project under tests/fixtures;
# the bundle ships no tests, so its tour skips that screen (explorer/tour/contracts.py).
(cd "$SMOKE/frozen" && ls) > "$SMOKE/frozen.names"
(cd "$SMOKE/source" && ls | grep -v '^contract-matched-') > "$SMOKE/source.names"
[ -s "$SMOKE/frozen.names" ] || fail "the frozen build wrote no screenshots"
diff "$SMOKE/source.names" "$SMOKE/frozen.names" || fail "screenshot names differ from source"
[ -z "$(find "$SMOKE/frozen" -name '*.png' -size -2k)" ] || fail "an empty-looking screenshot"
echo "packaging: $(wc -l < "$SMOKE/frozen.names") screenshots in $SMOKE/frozen, as from source"
echo "packaging: dist/explorer built and smoke-tested"

# The installers users download: a .deb and a .tar.gz with a per-user install script.
started=$(now)
"$VENV/bin/python" manpage.py build/man
"$VENV/bin/python" installers.py dist/explorer build/man dist build/installers
echo "packaging: installers built in $(since "$started") s"
echo "packaging: installers built"
