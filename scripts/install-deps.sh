#!/usr/bin/env bash
# Installs the Debian packages a11yd needs, only those missing. Swift itself must already be installed.
set -euo pipefail
packages=(libinotifytools0-dev libsqlite3-dev libsystemd-dev systemd dbus python3-dbus python3-gi)
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
# The SARIF test validates output against the SARIF 2.1.0 JSON schema with Python's jsonschema.
python3 -c 'import jsonschema' 2>/dev/null || python3 -m pip install -q jsonschema
command -v swift >/dev/null || { echo "swift is not on PATH: install Swift 6.x first (https://swift.org/install)" >&2; exit 1; }
