#!/bin/bash
# Whether two a11yctl builds write byte-identical audit JSON (and exit the same) on each design system: the check every
# performance change is held to. usage: A11YD_POLICIES=policies scripts/same-json.sh OLD_BINARY NEW_BINARY PATH...
set -u
[ $# -ge 3 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY PATH..." >&2; exit 2; }
old=$1 new=$2; shift 2
a=$(mktemp) b=$(mktemp)
trap 'rm -f "$a" "$b"' EXIT
status=0
for path in "$@"; do
    "$old" audit "$path" --format json > "$a" 2>/dev/null; old_exit=$?
    "$new" audit "$path" --format json > "$b" 2>/dev/null; new_exit=$?
    if [ "$old_exit" != "$new_exit" ] || ! cmp -s "$a" "$b"; then
        echo "$path: DIFFERENT (exit $old_exit / $new_exit)"; status=1
    else
        echo "$path: same ($(wc -c < "$b") bytes, exit $new_exit)"
    fi
done
exit $status
