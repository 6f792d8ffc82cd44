#!/usr/bin/env bash
# Installs what `npm test` needs on a fresh Debian 12 machine: the apt toolchain, then the npm dev dependencies.
# Idempotent and quick when everything is present: nothing is downloaded unless something is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# emscripten: the wasm builds; clang + libclang-rt-14-dev: libFuzzer and the sanitizer runtimes; clang-format: the
# lint of the C++; googletest + libgtest-dev: the native test suite; ninja-build: the CMake presets' generator; chromium,
# firefox-esr, webkit2gtk-driver (WebKitWebDriver and WebKitGTK's MiniBrowser), xvfb + xauth (MiniBrowser has no
# headless mode): the browser suites in three engines (tests/browser/engines; never a downloaded browser);
# make + python3: better-sqlite3 compiles its addon for the node-sqlite example's smoke test.
apt_packages=(emscripten cmake g++ clang clang-format libclang-rt-14-dev googletest libgtest-dev ninja-build chromium
  firefox-esr webkit2gtk-driver xvfb xauth make python3)

missing=()
for package in "${apt_packages[@]}"; do
  # dpkg -s also succeeds for removed packages that left their config files behind.
  if [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing apt packages: ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: not root and no sudo: install these by hand: ${missing[*]}" >&2
      exit 1
    fi
  fi
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: apt packages present: ${apt_packages[*]}"
fi

# npm ci wipes node_modules, so run it only when the lock file changed since the last install.
if [[ ! -d node_modules || package-lock.json -nt node_modules ]]; then
  echo "setup: npm ci"
  npm ci
  touch node_modules
else
  echo "setup: node_modules is up to date with package-lock.json"
fi
