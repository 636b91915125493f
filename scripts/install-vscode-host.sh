#!/usr/bin/env bash
# Installs a real VS Code for the editor tests and `npm start`, idempotently, into .tools/:
#   - Debian packages: libkrb5-dev + pkg-config (code-server's native `kerberos` module),
#     ripgrep (VS Code's search binary; @vscode/ripgrep would download it from the internet,
#     which is not reachable here), chromium (the headless browser playwright-core drives).
#   - code-server 4.100.3 (= VS Code 1.100.3, the newest that runs on Node 20) from the npm
#     registry. Its own install scripts download things or refuse to run as root, so the
#     scripts are skipped and the needed steps are done here by hand.
# Re-running it is cheap: each step is skipped when its result is already present.
#
# It says what it does, step by step ("[install-vscode-host] step 2/7: …", with the time
# elapsed, and a line every 20 s while a long step runs); when a step fails it says what to do.
# All of that, and the output of apt-get and npm, goes to stderr: stdout carries only the
# code-server path, printed at the end.
#
# Usage: bash scripts/install-vscode-host.sh            (prints the code-server path at the end)
# Env:   AVAP_TOOLS_DIR  where to install (default: <repo>/.tools)
set -Eeuo pipefail

CODE_SERVER_VERSION="4.100.3"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${AVAP_TOOLS_DIR:-$ROOT/.tools}"
CS_HOME="$TOOLS/code-server"
CS_PKG="$CS_HOME/node_modules/code-server"
CS_BIN="$CS_HOME/node_modules/.bin/code-server"
STAMP="$CS_HOME/.installed-$CODE_SERVER_VERSION"
RETRY="bash scripts/install-vscode-host.sh"
# Free space (MiB) below which a failure is probably a full disk.
NEED_TOOLS_MB=1024
NEED_APT_MB=600

STEPS=7
STEP=0
STEP_LABEL="checks"
STEP_WHAT="checking what is installed"
STEP_HINT="see the messages above"
HEARTBEAT=""

log() { printf '[install-vscode-host] %s\n' "$*" >&2; }

elapsed() {
  local s=$SECONDS
  if ((s < 60)); then printf '%ds' "$s"; else printf '%dm%02ds' $((s / 60)) $((s % 60)); fi
}

# step N "short label" "what it does" "what to do when it fails"
step() {
  STEP=$1
  STEP_LABEL=$2
  STEP_WHAT=$3
  STEP_HINT=$4
  log "step $STEP/$STEPS: $STEP_WHAT — $(elapsed) elapsed"
}

stop_heartbeat() {
  if [ -n "$HEARTBEAT" ]; then
    kill "$HEARTBEAT" 2>/dev/null || true
    wait "$HEARTBEAT" 2>/dev/null || true
    HEARTBEAT=""
  fi
}

# long_in DIR COMMAND…: runs a long command in DIR with its output on stderr, and a line every
# 20 s saying it is still at work. (The subshells drop the ERR trap so that a failure is
# reported once; the heartbeat takes its sleep with it when it is stopped.)
long_in() {
  local dir=$1
  shift
  (
    trap - ERR
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    while :; do
      sleep 20 </dev/null >/dev/null 2>&1 &
      nap=$!
      wait "$nap"
      log "  … still at step $STEP/$STEPS ($STEP_LABEL) — $(elapsed) elapsed"
    done
  ) &
  HEARTBEAT=$!
  (trap - ERR; cd "$dir" && "$@") >&2
  stop_heartbeat
}

# The nearest existing folder of a path, and its free space in MiB.
free_mb() {
  local dir=$1
  while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
  df -Pm "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

disk_hint() {
  local tools_mb apt_mb
  tools_mb=$(free_mb "$TOOLS")
  apt_mb=$(free_mb /var/cache/apt)
  if [ -n "$tools_mb" ] && ((tools_mb < NEED_TOOLS_MB)); then
    log "disk: only ${tools_mb} MiB free for $TOOLS (code-server needs about ${NEED_TOOLS_MB} MiB while it installs):"
    log "      free some space (npm cache clean --force; df -h), or set AVAP_TOOLS_DIR to a disk with room"
  fi
  if [ -n "$apt_mb" ] && ((apt_mb < NEED_APT_MB)); then
    log "disk: only ${apt_mb} MiB free under /var (Chromium needs about ${NEED_APT_MB} MiB): free some space (apt-get clean)"
  fi
}

fail() {
  local status=$1
  trap - ERR
  stop_heartbeat
  log "FAILED at step $STEP/$STEPS ($STEP_LABEL) after $(elapsed) (exit $status)"
  log "what to do: $STEP_HINT"
  disk_hint
  log "then run it again: $RETRY   (what is already installed is kept; rm -rf $CS_HOME for a clean start)"
  exit "$status"
}
trap 'fail $?' ERR
trap stop_heartbeat EXIT

# --- 1. Debian packages ---------------------------------------------------------------
need_apt=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if ((${#need_apt[@]})); then
  manual="apt-get install -y --no-install-recommends ${need_apt[*]}"
  step 1 "Debian packages" "installing Debian packages with apt-get: ${need_apt[*]}" \
    "apt-get could not install ${need_apt[*]}. Check that this machine reaches its Debian mirrors (apt-get update), that no other apt or dpkg process holds the lock, and that you are root; or install them yourself: sudo $manual"
  if ! command -v apt-get >/dev/null 2>&1; then
    STEP_HINT="this machine has no apt-get (not Debian or Ubuntu): install the equivalents of ${need_apt[*]} (Kerberos headers, pkg-config, ripgrep, Chromium) with its package manager"
    fail 1
  fi
  SUDO=""
  if [ "$(id -u)" != "0" ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      STEP_HINT="installing Debian packages needs root and there is no sudo: run this as root (su -c '$RETRY'), or have an administrator run: $manual"
      fail 1
    fi
    SUDO="sudo"
    log "  not root: using sudo (it may ask for your password)"
  fi
  apt_mb=$(free_mb /var/cache/apt)
  if [ -n "$apt_mb" ] && ((apt_mb < NEED_APT_MB)); then log "  warning: only ${apt_mb} MiB free under /var; Chromium needs about ${NEED_APT_MB} MiB"; fi
  export DEBIAN_FRONTEND=noninteractive
  log "  apt-get update (the package lists)"
  long_in . $SUDO apt-get update -q
  size_note=""
  case " ${need_apt[*]} " in *" chromium "*) size_note=" (Chromium is the largest: about 100 MB to download)" ;; esac
  log "  apt-get install ${need_apt[*]}$size_note"
  long_in . $SUDO apt-get install -y -q --no-install-recommends "${need_apt[@]}"
else
  step 1 "Debian packages" "Debian packages present (libkrb5-dev, pkg-config, ripgrep, chromium)" "see the messages above"
fi

# --- 2. code-server ------------------------------------------------------------------
if [ -f "$STAMP" ] && [ -x "$CS_BIN" ]; then
  log "code-server $CODE_SERVER_VERSION already installed in $CS_HOME — steps 2–$STEPS not needed ($(elapsed))"
  echo "$CS_BIN"
  exit 0
fi

NPM_HINT="npm could not install from the registry. Check that it is reachable (npm ping; registry: $(npm config get registry 2>/dev/null || echo unknown)) and that there is disk space"
TOOLCHAIN_HINT="building native modules needs a C/C++ toolchain, Python and the Kerberos headers: sudo apt-get install -y build-essential python3 libkrb5-dev pkg-config"

# Root cannot run npm install scripts without this (code-server's postinstall checks it).
export npm_config_unsafe_perm=true
# node-pty's install script calls npx, which would otherwise ask before installing.
export npm_config_yes=true
export npm_config_fund=false
export npm_config_audit=false
export npm_config_update_notifier=false

step 2 "code-server" "installing code-server $CODE_SERVER_VERSION from the npm registry into $CS_HOME (scripts skipped; about 100 MB)" "$NPM_HINT"
tools_mb=$(free_mb "$TOOLS")
if [ -n "$tools_mb" ] && ((tools_mb < NEED_TOOLS_MB)); then log "  warning: only ${tools_mb} MiB free for $TOOLS; code-server needs about ${NEED_TOOLS_MB} MiB while it installs"; fi
mkdir -p "$CS_HOME"
if [ ! -f "$CS_HOME/package.json" ]; then
  # A package.json of its own so that npm does not walk up into the extension's project.
  printf '{ "name": "avap-vscode-host", "private": true }\n' >"$CS_HOME/package.json"
fi
long_in "$CS_HOME" npm install --no-save --ignore-scripts "code-server@$CODE_SERVER_VERSION"

VSCODE_DIR="$CS_PKG/lib/vscode"
step 3 "VS Code server dependencies" "installing the VS Code server's runtime dependencies (npm, in $VSCODE_DIR)" "$NPM_HINT"
long_in "$VSCODE_DIR" npm install --omit=dev --ignore-scripts
# @vscode/ripgrep's postinstall downloads rg; use Debian's instead.
mkdir -p "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg"

step 4 "native modules" "building the native modules of the VS Code server (node-pty, kerberos, …)" "$TOOLCHAIN_HINT"
long_in "$VSCODE_DIR" npm rebuild
# Links code-server's own postinstall would have made.
ln -sfn node_modules "$VSCODE_DIR/node_modules.asar"
ln -sfn code-linux.sh "$VSCODE_DIR/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$VSCODE_DIR/bin/helpers/browser.sh"

step 5 "built-in extensions" "installing the built-in extensions' dependencies (npm)" "$NPM_HINT"
long_in "$VSCODE_DIR/extensions" npm install --omit=dev

step 6 "argon2" "building argon2 (code-server's password hashing)" "$TOOLCHAIN_HINT"
long_in "$CS_HOME" npm rebuild argon2

step 7 "version check" "checking that code-server starts and reports version $CODE_SERVER_VERSION" \
  "code-server was installed but does not report its version: try $CS_BIN --version to see why, then rm -rf $CS_HOME and run again"
# --version may print a log line first (it writes a default config); keep the version line.
version="$("$CS_BIN" --version 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -n 1 || true)"
case "$version" in
  "$CODE_SERVER_VERSION"*) log "ok: code-server $version — installed in $(elapsed)" ;;
  *) STEP_HINT="$STEP_HINT (it said: '$version')"; fail 1 ;;
esac
touch "$STAMP"
echo "$CS_BIN"
