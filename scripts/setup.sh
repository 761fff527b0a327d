#!/usr/bin/env bash
# Makes a Debian 12 machine ready to build and test cuzk: installs the Debian packages the build,
# the tests and the (coming) daemon need, then the npm test oracles from package-lock.json.
#
# Idempotent and quick when everything is present: one dpkg-query call decides whether apt-get
# runs at all, and npm runs only when node_modules is missing or older than package-lock.json.
# Runs as root (as CI does) or through sudo; never asks a question (DEBIAN_FRONTEND=noninteractive,
# no stdin needed). Every failure names what failed.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# Build and test: compiler, CMake+Ninja, formatting, GMP (the test oracle for field arithmetic),
# node+npm (the oracles @noble/curves and snarkjs). Product libraries: jansson (JSON), OpenSSL's
# libcrypto (SHA-256), and for the daemon gRPC core + protobuf-c and libmicrohttpd.
PACKAGES=(
    build-essential cmake ninja-build pkg-config git clang-format python3
    libgmp-dev libjansson-dev libssl-dev
    libgrpc-dev protobuf-c-compiler libprotobuf-c-dev libmicrohttpd-dev
    nodejs npm
)
# The oldest Node.js that @noble/curves 2.x supports (its "engines" field).
NODE_MIN=20.19.0

say() { echo "setup: $*"; }
die() {
    echo "setup: ERROR: $*" >&2
    exit 1
}

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo -n env DEBIAN_FRONTEND=noninteractive "$@"
    else
        die "need root to run: $* (run this script as root)"
    fi
}

command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian 12 only"

# Which packages are not installed? A node or npm found on PATH counts as present: a machine may
# carry Node.js from another source (e.g. NodeSource's nodejs, which bundles npm and conflicts
# with Debian's npm package), and replacing it would break it.
missing_packages() {
    local want=() p
    for p in "${PACKAGES[@]}"; do
        case "$p" in
        nodejs) command -v node >/dev/null 2>&1 && continue ;;
        npm) command -v npm >/dev/null 2>&1 && continue ;;
        esac
        want+=("$p")
    done
    [ ${#want[@]} -gt 0 ] || return 0
    local installed
    installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${want[@]}" 2>/dev/null |
        awk '$2 == "installed" { print $1 }' || true)
    for p in "${want[@]}"; do
        grep -qxF "$p" <<<"$installed" || echo "$p"
    done
}

mapfile -t missing < <(missing_packages)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    apt_opts=(-q -o DPkg::Lock::Timeout=600 -o Acquire::Retries=3)
    as_root apt-get "${apt_opts[@]}" update || die "apt-get update failed"
    for p in "${missing[@]}"; do
        cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')
        if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
            die "Debian package '$p' is not available from the configured apt sources"
        fi
    done
    if ! as_root apt-get "${apt_opts[@]}" install -y --no-install-recommends "${missing[@]}"; then
        die "apt-get install failed for: ${missing[*]}"
    fi
    mapfile -t still < <(missing_packages)
    [ ${#still[@]} -eq 0 ] || die "packages still not installed after apt-get: ${still[*]}"
    say "Debian packages installed"
fi

# Node.js must be new enough for the oracles; an old one fails later in confusing ways.
node_version=$(node -p 'process.versions.node' 2>/dev/null) || die "node does not run"
if [ "$(printf '%s\n%s\n' "$NODE_MIN" "$node_version" | sort -V | head -n1)" != "$NODE_MIN" ]; then
    die "Node.js $node_version is too old: the test oracles (@noble/curves) need >= $NODE_MIN"
fi

# npm packages (test oracles only). A node_modules that is a symlink belongs to another checkout
# (a git worktree sharing the main checkout's); it is used as it is, never reinstalled from here,
# because `npm ci` would first delete the other checkout's tree.
if [ -L node_modules ]; then
    [ -d node_modules ] || die "node_modules is a broken symlink ($(readlink node_modules))"
elif [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing npm packages (npm ci)"
    npm ci --no-audit --no-fund </dev/null || die "npm ci failed (package-lock.json)"
fi

say "ok"
