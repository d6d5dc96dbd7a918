#!/usr/bin/env bash
# Checks the unit templates as systemd sees them: placeholders filled with real paths, then
# `systemd-analyze --user verify` and the offline security exposure score of the service.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# `--user` verification wants a runtime directory even offline.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then export XDG_RUNTIME_DIR="$work/run"; mkdir -m 700 "$XDG_RUNTIME_DIR"; fi
daemon="${1:-$here/../.build/debug/a11yd}"
[ -x "$daemon" ] || daemon=/bin/true
for unit in a11yd.service a11yd.socket; do
    sed -e "s|@A11YD@|$daemon|" -e "s|@ROOT@|$here/../Examples/DesignSystem|" "$here/$unit" > "$work/$unit"
done
# Documentation= names the man pages `make install` installs; in a source checkout they are not installed yet.
man_check=()
if ! man -w a11yd >/dev/null 2>&1; then
    man_check=(--man=no)
    echo "systemd-analyze --user verify: man pages a11yd(8)/a11yctl(1) are not installed here: not checking Documentation= (--man=no)"
fi
systemd-analyze --user verify "${man_check[@]}" "$work/a11yd.socket" "$work/a11yd.service"
echo "systemd-analyze --user verify: OK"
systemd-analyze security --offline=yes --no-pager "$work/a11yd.service" | tail -1
