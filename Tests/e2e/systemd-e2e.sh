#!/usr/bin/env bash
# End to end with a real `systemd --user` manager and a real D-Bus session bus: install the units for a temporary
# copy of the example, let socket activation start a11yd on the first `a11yctl status`, regress a pair by editing a
# token, and check systemd's STATUS line and the desktop notifications; then fix it, check the resolution, stop.
# Skips (exit 0, saying so) when this environment cannot start a user manager.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
# A11YD_E2E_BIN=PREFIX/bin runs the same test on installed binaries (`make install`), which must find their policies
# and units without the development environment variables below.
bin="${A11YD_E2E_BIN:-$here/.build/debug}"
work=$(mktemp -d /tmp/a11yd-systemd-e2e.XXXXXX)
chmod 700 "$work"
export XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" HOME="$work/home"
mkdir -p -m 700 "$XDG_RUNTIME_DIR" "$HOME"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
if [ -z "${A11YD_E2E_BIN:-}" ]; then export A11YD_POLICIES="$here/policies" A11YD_SYSTEMD_UNITS="$here/systemd"; fi
manager_pid=""; server_pid=""
cleanup() {
    systemctl --user stop a11yd.service a11yd.socket >/dev/null 2>&1
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    [ -n "$manager_pid" ] && kill "$manager_pid" 2>/dev/null && wait "$manager_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "systemd e2e: FAIL: $*"; echo "--- notifications"; cat "$work/notifications.jsonl" 2>/dev/null; echo "--- journal"; tail -20 "$work/manager.log" 2>/dev/null; exit 1; }

# A user manager runs only where /run/systemd/system exists (sd_booted()). Where PID 1 is not systemd, that directory
# is faked in a private mount namespace, never created on the host (it would make sd_booted() true machine-wide).
if [ ! -d /run/systemd/system ] || [ -n "${A11YD_E2E_FORCE_NAMESPACE:-}" ]; then
    if [ -z "${A11YD_E2E_IN_NAMESPACE:-}" ]; then
        if unshare --mount --propagation private true 2>/dev/null; then
            rm -rf "$work"; trap - EXIT
            exec env A11YD_E2E_IN_NAMESPACE=1 unshare --mount --propagation private "$0" "$@"
        fi
        echo "systemd e2e: SKIPPED (PID 1 is not systemd and no private mount namespace (unshare --mount) to run a user manager in)"
        exit 0
    fi
    # In the namespace: a tmpfs over /run/systemd (or over /run when even that is missing) holds system/.
    target=/run/systemd; [ -d "$target" ] || target=/run
    mount -t tmpfs -o mode=0755 tmpfs "$target" || { echo "systemd e2e: SKIPPED (cannot mount a tmpfs on $target in the namespace)"; exit 0; }
    # system/ is created only on that private tmpfs, never on the host's /run.
    if [ -z "${A11YD_E2E_IN_NAMESPACE:-}" ] || ! mountpoint -q "$target"; then
        echo "systemd e2e: SKIPPED (no private tmpfs on $target)"; exit 0
    fi
    private_systemd="$target"; [ "$target" = /run ] && private_systemd="$target/systemd"
    mkdir -p "$private_systemd/system"
fi
systemd_bin=$(command -v systemd || echo /lib/systemd/systemd)
"$systemd_bin" --user > "$work/manager.log" 2>&1 &
manager_pid=$!
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/systemd/private" ] && [ -S "$XDG_RUNTIME_DIR/bus" ] && break; sleep 0.1; done
if ! [ -S "$XDG_RUNTIME_DIR/systemd/private" ] || ! systemctl --user is-system-running >/dev/null 2>&1 && ! systemctl --user list-units >/dev/null 2>&1; then
    echo "systemd e2e: SKIPPED (cannot start a systemd --user manager here)"; exit 0
fi
if ! [ -S "$XDG_RUNTIME_DIR/bus" ]; then systemctl --user start dbus.socket >/dev/null 2>&1; sleep 0.5; fi
[ -S "$XDG_RUNTIME_DIR/bus" ] || { echo "systemd e2e: SKIPPED (no session bus from the user manager)"; exit 0; }

/usr/bin/python3 "$here/Tests/e2e/notification_server.py" "$work/notifications.jsonl" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do grep -q ready "$work/server.log" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/server.log" || fail "notification server did not start: $(cat "$work/server.log")"

cp -r "$here/Examples/DesignSystem" "$work/ds"
"$bin/a11yctl" service install --root "$work/ds" || fail "service install"
systemctl --user is-active a11yd.socket >/dev/null || fail "a11yd.socket is not active"

# Socket activation: the first status starts the service.
"$bin/a11yctl" status || fail "a11yctl status through the activated socket"
systemctl --user is-active a11yd.service >/dev/null || fail "a11yd.service did not start"
status=$(systemctl --user show a11yd.service -p StatusText --value)
echo "STATUS: $status"
[[ "$status" == *"pairs"*"failing"* ]] || fail "no STATUS= summary line: '$status'"

# Regress: dark-mode label text on the picker menu becomes dim gray.
tokens="$work/ds/DesignTokens.swift"
cp "$tokens" "$work/DesignTokens.orig"
sed 's/static let appTextPrimary = adaptive(light: "#111827", dark: "#F9FAFB")/static let appTextPrimary = adaptive(light: "#111827", dark: "#3A3A3C")/' "$work/DesignTokens.orig" > "$tokens.tmp" && mv "$tokens.tmp" "$tokens"
for _ in $(seq 100); do grep -q '"Notify"' "$work/notifications.jsonl" && break; sleep 0.1; done
grep '"Notify"' "$work/notifications.jsonl" | grep -q "dark: NativeContextMenuStyling: itemText on background, 1.85:1 (needs 4.50:1)" || fail "no Notify naming the regressed pair"
grep '"Notify"' "$work/notifications.jsonl" | head -1 | grep -q '"urgency": 2' || fail "regression notification is not critical"
status=$(systemctl --user show a11yd.service -p StatusText --value)
echo "STATUS after the edit: $status"

# Fix: the resolution replaces the notification, then closes it.
cp "$work/DesignTokens.orig" "$tokens.tmp" && mv "$tokens.tmp" "$tokens"
for _ in $(seq 100); do grep -q '"CloseNotification"' "$work/notifications.jsonl" && break; sleep 0.1; done
grep -q 'resolved' "$work/notifications.jsonl" || fail "no resolution notification"
grep -q '"CloseNotification"' "$work/notifications.jsonl" || fail "the notification was not closed"
first_id=$(grep '"Notify"' "$work/notifications.jsonl" | head -1 | sed 's/.*"id": \([0-9]*\).*/\1/')
grep 'resolved' "$work/notifications.jsonl" | grep -q "\"replaces_id\": $first_id" || fail "the resolution did not replace the notification in place"

# Reload: `systemctl reload` sends SIGHUP; a11yd answers RELOADING=1 (with MONOTONIC_USEC=) then READY=1, after which
# systemd shows the service active again with the audit's STATUS= line.
systemctl --user reload a11yd.service || fail "systemctl reload"
for _ in $(seq 100); do [ "$(systemctl --user show a11yd.service -p ActiveState --value)" = active ] && break; sleep 0.1; done
state=$(systemctl --user show a11yd.service -p ActiveState --value)
[ "$state" = "active" ] || fail "service state after reload: $state"

# Watchdog: a drop-in sets WatchdogSec=4 (slack for a loaded machine) and the test seam that hangs the audit loop at
# the next edit. The pings stop, systemd kills the hung daemon (Result=watchdog) and Restart=on-failure starts it again.
dropin="$XDG_CONFIG_HOME/systemd/user/a11yd.service.d"
mkdir -p "$dropin"
printf '[Service]\nWatchdogSec=4\nEnvironment=A11YD_TEST_HANG_ON_FILE_CHANGE=1\n' > "$dropin/watchdog-test.conf"
systemctl --user daemon-reload && systemctl --user restart a11yd.service || fail "restart with WatchdogSec=4"
hung_pid=$(systemctl --user show a11yd.service -p MainPID --value)
sleep 5  # longer than WatchdogSec: the pings keep an idle daemon alive
[ "$(systemctl --user show a11yd.service -p MainPID --value)" = "$hung_pid" ] || fail "an idle daemon was killed by the watchdog"
echo "// an edit" >> "$tokens"
for _ in $(seq 100); do [ "$(systemctl --user show a11yd.service -p Result --value)" = watchdog ] && break; sleep 0.1; done
[ "$(systemctl --user show a11yd.service -p Result --value)" = watchdog ] || fail "no watchdog timeout for the hung daemon (pid $hung_pid)"
for _ in $(seq 300); do [ "$(systemctl --user show a11yd.service -p NRestarts --value)" -ge 1 ] && break; sleep 0.1; done
[ "$(systemctl --user show a11yd.service -p NRestarts --value)" -ge 1 ] || fail "the hung daemon (pid $hung_pid) was not restarted"
for _ in $(seq 100); do systemctl --user is-active a11yd.service >/dev/null && break; sleep 0.1; done
new_pid=$(systemctl --user show a11yd.service -p MainPID --value)
[ "$new_pid" != "$hung_pid" ] && [ "$new_pid" != 0 ] || fail "no new daemon after the watchdog restart"
echo "watchdog: hung pid $hung_pid killed, restarted as $new_pid"
rm -r "$dropin"; systemctl --user daemon-reload

systemctl --user stop a11yd.service a11yd.socket || fail "systemctl stop"
state=$(systemctl --user show a11yd.service -p ActiveState --value)
[ "$state" = "inactive" ] || fail "service state after stop: $state"
"$bin/a11yctl" service uninstall --no-systemctl >/dev/null
echo "systemd e2e: PASSED (user manager pid $manager_pid, $(grep -c Notify "$work/notifications.jsonl") Notify calls)"
