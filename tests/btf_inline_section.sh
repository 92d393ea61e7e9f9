#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# btf_inline_section.sh BTFENC OBJ: with "layout", inline.extra's split
# section takes bpf-next's name: -J adds .BTF.inline (no .BTF.extra), a
# detached run writes OUT.inline (no OUT.extra).  Both validate, and
# `inlines` lists the same sites from the ELF file and from the raw pair.
# Without "layout" the seeds' .BTF.extra stays.  Dumped without its
# base, the split section gets a one-line error that says so.
set -u
BTFENC=$1
OBJ=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # name, status
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
secs() { readelf -SW "$1" | sed -n 's/.*\] \(\.BTF[.a-z]*\) .*/\1/p' | sort | tr '\n' ' '; }

cp "$OBJ" "$T/m"
"$BTFENC" -J --btf_features=default,inline.extra,layout "$T/m"
check "-J inline.extra,layout succeeds" $?
[ "$(secs "$T/m")" = ".BTF .BTF.inline " ]; check "layout: sections .BTF and .BTF.inline" $?

cp "$OBJ" "$T/s"
"$BTFENC" -J --btf_features=default,inline.extra "$T/s"
[ "$(secs "$T/s")" = ".BTF .BTF.extra " ]; check "seed layout: sections .BTF and .BTF.extra" $?

"$BTFENC" --btf_encode_detached "$T/out" --btf_features=default,inline.extra,layout "$OBJ"
[ -s "$T/out.inline" ] && [ ! -e "$T/out.extra" ]
check "detached: OUT.inline written, no OUT.extra" $?
"$BTFENC" dump --check --base "$T/out" "$T/out.inline"
check "OUT.inline validates on OUT" $?
"$BTFENC" dump --check --base "$T/m" --section .BTF.inline "$T/m"
check ".BTF.inline validates on .BTF" $?
"$BTFENC" dump --section .BTF.inline "$T/m" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "split BTF: give its base with --base" "$T/err"
check "no base for .BTF.inline: one line naming --base, exit 1" $?

# A raw file has no symbols nor section addresses: compare the JSON
# without "at" (symbol+offset) and "addr".
noat() { sed 's/"at": "[^"]*", //; s/"addr": [0-9]*, //'; }
"$BTFENC" inlines "$T/m" --json | noat >"$T/elf.txt" &&
	"$BTFENC" inlines --base "$T/out" "$T/out.inline" --json | noat >"$T/raw.txt"
check "inlines reads both" $?
[ -s "$T/elf.txt" ] && cmp -s "$T/elf.txt" "$T/raw.txt"
check "the same sites from .BTF.inline and OUT.inline ($(wc -l <"$T/elf.txt") lines)" $?
"$BTFENC" inlines "$T/s" >"$T/seed.full"
sed 's/=[^,)]*/=/g' "$T/seed.full" >"$T/seed.txt"
"$BTFENC" inlines "$T/m" | sed 's/=[^,)]*/=/g' | cmp -s - "$T/seed.txt"
check "the same sites and parameter names as the seed layout's .BTF.extra" $?

# Re-encoded in the other layout, the file keeps the earlier split section
# (btfenc never deletes sections); readers take the one .BTF's layout names.
cp "$T/s" "$T/sm"
"$BTFENC" -J --btf_features=default,inline.extra,layout "$T/sm"
# The sites read the same in both layouts here; the LOCSEC bytes do not.
locsec() { "$BTFENC" stats "$1" | grep '^LOCSEC'; }
[ "$(secs "$T/sm")" = ".BTF .BTF.extra .BTF.inline " ] &&
	[ "$(locsec "$T/sm")" = "$(locsec "$T/m")" ] && [ "$(locsec "$T/m")" != "$(locsec "$T/s")" ] &&
	"$BTFENC" inlines "$T/sm" --json | noat | cmp -s - "$T/elf.txt"
check "seed then layout run: stats/inlines read .BTF.inline, not the stale .BTF.extra" $?
"$BTFENC" -J --btf_features=default,inline.extra "$T/sm"
[ "$(locsec "$T/sm")" = "$(locsec "$T/s")" ] && "$BTFENC" inlines "$T/sm" | cmp -s - "$T/seed.full"
check "and back: .BTF.extra read again" $?
exit $fail
