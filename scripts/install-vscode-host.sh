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
# Usage: bash scripts/install-vscode-host.sh            (prints the code-server path at the end)
# Env:   AVAP_TOOLS_DIR  where to install (default: <repo>/.tools)
set -euo pipefail

CODE_SERVER_VERSION="4.100.3"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${AVAP_TOOLS_DIR:-$ROOT/.tools}"
CS_HOME="$TOOLS/code-server"
CS_PKG="$CS_HOME/node_modules/code-server"
CS_BIN="$CS_HOME/node_modules/.bin/code-server"
STAMP="$CS_HOME/.installed-$CODE_SERVER_VERSION"

log() { printf '[install-vscode-host] %s\n' "$*" >&2; }

# --- 1. Debian packages ---------------------------------------------------------------
need_apt=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if ((${#need_apt[@]})); then
  log "installing Debian packages: ${need_apt[*]}"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${need_apt[@]}"
else
  log "Debian packages present"
fi

# --- 2. code-server ------------------------------------------------------------------
if [ -f "$STAMP" ] && [ -x "$CS_BIN" ]; then
  log "code-server $CODE_SERVER_VERSION already installed"
  echo "$CS_BIN"
  exit 0
fi

# Root cannot run npm install scripts without this (code-server's postinstall checks it).
export npm_config_unsafe_perm=true
# node-pty's install script calls npx, which would otherwise ask before installing.
export npm_config_yes=true
export npm_config_fund=false
export npm_config_audit=false
export npm_config_update_notifier=false

mkdir -p "$CS_HOME"
if [ ! -f "$CS_HOME/package.json" ]; then
  # A package.json of its own so that npm does not walk up into the extension's project.
  printf '{ "name": "avap-vscode-host", "private": true }\n' >"$CS_HOME/package.json"
fi

log "installing code-server@$CODE_SERVER_VERSION (scripts skipped)"
(cd "$CS_HOME" && npm install --no-save --ignore-scripts "code-server@$CODE_SERVER_VERSION")

VSCODE_DIR="$CS_PKG/lib/vscode"
log "installing the VS Code server's runtime dependencies"
(cd "$VSCODE_DIR" && npm install --omit=dev --ignore-scripts)

# @vscode/ripgrep's postinstall downloads rg; use Debian's instead.
mkdir -p "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg"

log "building native modules of the VS Code server"
(cd "$VSCODE_DIR" && npm rebuild)

# Links code-server's own postinstall would have made.
ln -sfn node_modules "$VSCODE_DIR/node_modules.asar"
ln -sfn code-linux.sh "$VSCODE_DIR/bin/remote-cli/code-server"
ln -sfn browser-linux.sh "$VSCODE_DIR/bin/helpers/browser.sh"

log "installing the built-in extensions' dependencies"
(cd "$VSCODE_DIR/extensions" && npm install --omit=dev)

log "building argon2 (code-server's password hashing)"
(cd "$CS_HOME" && npm rebuild argon2)

# --version may print a log line first (it writes a default config); keep the version line.
version="$("$CS_BIN" --version 2>/dev/null | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -n 1 || true)"
case "$version" in
  "$CODE_SERVER_VERSION"*) log "ok: code-server $version" ;;
  *) log "code-server did not report version $CODE_SERVER_VERSION (got: '$version')"; exit 1 ;;
esac
touch "$STAMP"
echo "$CS_BIN"
