#!/usr/bin/env bash
# Installs the Debian packages the real-VS-Code tiers need when they are
# missing: chromium (hosts the workbench), libkrb5-dev (code-server's kerberos
# module compiles against it), ripgrep (primes the offline ripgrep download),
# git, and the toolchain node-gyp needs. As root it installs them; otherwise
# it says exactly what to run. Used by `npm test`, `npm start` and .ci/run.
set -euo pipefail

missing=()
need() { # need <package> <check command...>
  local pkg=$1; shift
  if ! "$@" >/dev/null 2>&1; then missing+=("$pkg"); fi
}
has_deb() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed'; }
need chromium test -x /usr/bin/chromium
need libkrb5-dev has_deb libkrb5-dev
need ripgrep command -v rg
need git command -v git
need build-essential sh -c 'command -v make && command -v g++'
need python3 command -v python3

((${#missing[@]})) || exit 0
echo "Installing Debian packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  apt=(apt-get)
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  apt=(sudo apt-get)
else
  echo "Missing Debian packages: ${missing[*]}. As root run: apt-get update && apt-get install -y ${missing[*]}" >&2
  exit 1
fi
"${apt[@]}" update -qq
DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq "${missing[@]}"
