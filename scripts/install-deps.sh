#!/usr/bin/env bash
# Installs the Debian packages a11yd needs, only those missing, from Debian's own archive (never pip:
# Debian 12's python3 is an externally managed environment). Swift itself must already be installed.
#   scripts/install-deps.sh example   what building and running a11yctl needs (nothing beyond Swift today)
#   scripts/install-deps.sh build     what building a11yd needs too (make install): its three C libraries, and glibc's
#                                     static library for the release a11yctl, which is wholly static (Swift's own
#                                     dependencies include it; named here so that nothing assumes it)
#   scripts/install-deps.sh bench     what make bench needs: python3 for the peer script (bench/peer_audit.py), GNU time
#                                     for its peak memory
#   scripts/install-deps.sh test      everything: the daemon's libraries, systemd + D-Bus for the end-to-end
#                                     test, python3-jsonschema for the SARIF schema test (run with /usr/bin/python3)
set -euo pipefail
need="${1:-test}"
case "$need" in
    example) packages=() ;;
    build) packages=(libinotifytools0-dev libsqlite3-dev libsystemd-dev libc6-dev) ;;
    bench) packages=(python3 time libc6-dev) ;;
    test) packages=(libinotifytools0-dev libsqlite3-dev libsystemd-dev systemd dbus python3 python3-dbus python3-gi python3-jsonschema) ;;
    *) echo "usage: $0 example|build|bench|test" >&2; exit 2 ;;
esac
command -v swift >/dev/null || { echo "install-deps: error: swift is not on PATH: install Swift 6.x first (https://swift.org/install)" >&2; exit 1; }
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    echo "installing: ${missing[*]}"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
