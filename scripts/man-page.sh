#!/usr/bin/env bash
# Writes a man page generated from a program's own --help (so the page never drifts from the program):
#   scripts/man-page.sh BINARY SECTION "one-line description" [SUBCOMMAND...] > NAME.SECTION
# Subcommands' help (`BINARY SUBCOMMAND --help`) follows the main help, one section each.
set -euo pipefail
binary=$1; section=$2; summary=$3; shift 3
name=$(basename "$binary")
# roff: backslashes doubled; a line starting with . or ' would be a request, so it gets a \& first.
escape() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
upper=$(echo "$name" | tr '[:lower:]' '[:upper:]')
version=$(COLUMNS=80 "$binary" --version 2>/dev/null | head -1 || true)
echo ".TH $upper $section \"\" \"$version\" \"a11yd\""
echo ".SH NAME"
echo "$name \\- $summary"
echo ".SH DESCRIPTION"
echo ".nf"
COLUMNS=80 "$binary" --help | escape
echo ".fi"
for sub in "$@"; do
    echo ".SH \"$(echo "$name $sub" | tr '[:lower:]' '[:upper:]')\""
    echo ".nf"
    COLUMNS=80 "$binary" $sub --help | escape
    echo ".fi"
done
