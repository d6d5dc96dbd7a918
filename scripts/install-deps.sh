#!/usr/bin/env bash
# Installs the Debian packages a11yd needs, only those missing, from Debian's own archive (never pip install:
# Debian 12's python3 is an externally managed environment). Swift itself must already be installed.
#   scripts/install-deps.sh example   what building and running a11yctl needs (nothing beyond Swift today)
#   scripts/install-deps.sh build     what building a11yd needs too (make install): its three C libraries, and glibc's
#                                     static library for the release a11yctl, which is wholly static (Swift's own
#                                     dependencies include it; named here so that nothing assumes it)
#   scripts/install-deps.sh bench     what make bench needs: python3 for the peer script (bench/peer_audit.py), GNU time
#                                     for its peak memory, and the coloraide library the issue's peer computes its
#                                     ratios with: Debian has no package of it, so pip downloads its wheel (pure Python,
#                                     no dependencies), which is unpacked and compiled to bytecode in .build/peer/site
#                                     as pip install would leave it; a11y-bench puts that folder on PYTHONPATH.
#                                     Nothing is installed into python3
#   scripts/install-deps.sh test      everything: the daemon's libraries, systemd + D-Bus for the end-to-end
#                                     test, python3-jsonschema for the SARIF schema test (run with /usr/bin/python3)
set -euo pipefail
need="${1:-test}"
case "$need" in
    example) packages=() ;;
    build) packages=(libinotifytools0-dev libsqlite3-dev libsystemd-dev libc6-dev) ;;
    bench) packages=(python3 python3-pip time libc6-dev) ;;
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

if [ "$need" = bench ]; then
    peer="$(dirname "$0")/../.build/peer"
    if [ ! -f "$peer/site/coloraide/__init__.py" ]; then
        echo "downloading coloraide 8.13.1 into .build/peer (the issue's peer computes its ratios with it)"
        /usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$peer" coloraide==8.13.1
        rm -rf "$peer/site"
        /usr/bin/python3 -m zipfile -e "$peer/coloraide-8.13.1-py3-none-any.whl" "$peer/site"
        # Bytecode now, as an installed package has it: a zip on PYTHONPATH is compiled again at every run.
        /usr/bin/python3 -m compileall -q "$peer/site"
    fi
fi
