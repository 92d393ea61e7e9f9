#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_dump_cli.sh BTFENC TEST_ROUNDTRIP - `btfenc dump` on bad input:
# exit status 1, nothing on stdout, one line on stderr that names the
# file.  And on good input in the other byte order: the same text.

set -u

btfenc=$1
roundtrip=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
checks=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# bad LABEL NAME_IN_MESSAGE ARGS...: the error contract.
bad() {
	label=$1
	name=$2
	shift 2

	"$btfenc" dump "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	[ $rc -eq 1 ] || fail "$label: exit status $rc, expected 1"
	[ -s "$tmp/out" ] && fail "$label: wrote to stdout: $(head -c 200 "$tmp/out")"
	lines=$(wc -l <"$tmp/err")
	[ "$lines" -eq 1 ] || fail "$label: $lines lines on stderr, expected 1: $(cat "$tmp/err")"
	grep -qF -- "$name" "$tmp/err" || fail "$label: message does not name $name: $(cat "$tmp/err")"
	echo "ok: $label: $(cat "$tmp/err")"
}

"$roundtrip" write-std "$tmp/good.btf" || { echo "FAIL: write-std"; exit 1; }
"$roundtrip" write-std "$tmp/swapped.btf" swapped || { echo "FAIL: write-std swapped"; exit 1; }

: >"$tmp/empty"
mkdir "$tmp/adir"
printf 'this is a text file, not BTF at all\n' >"$tmp/text"
head -c 12 "$tmp/good.btf" >"$tmp/truncated"
# Header and types of good.btf, strings cut off.
head -c 200 "$tmp/good.btf" >"$tmp/short"
# An ELF object without .BTF: btfenc itself.
cp "$btfenc" "$tmp/elf-no-btf"

bad "missing file" "$tmp/missing" "$tmp/missing"
bad "empty file" "$tmp/empty" "$tmp/empty"
bad "directory" "$tmp/adir" "$tmp/adir"
bad "text file" "$tmp/text" "$tmp/text"
bad "truncated header" "$tmp/truncated" "$tmp/truncated"
bad "truncated sections" "$tmp/short" "$tmp/short"
bad "ELF without .BTF" "$tmp/elf-no-btf" "$tmp/elf-no-btf"
bad "ELF, missing --section" "$tmp/elf-no-btf" --section .nothere "$tmp/elf-no-btf"
bad "missing --base" "$tmp/missing-base" --base "$tmp/missing-base" "$tmp/good.btf"
bad "bad --base" "$tmp/text" --base "$tmp/text" "$tmp/good.btf"

# A full disk shows only when stdout is flushed: still an error.
if [ -w /dev/full ]; then
	"$btfenc" dump "$tmp/good.btf" >/dev/full 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	[ $rc -eq 1 ] || fail "stdout on /dev/full: exit status $rc, expected 1"
	grep -q "good.btf" "$tmp/err" || fail "stdout on /dev/full: message: $(cat "$tmp/err")"
	echo "ok: stdout on /dev/full: $(cat "$tmp/err")"
fi

# No file: usage on stderr, exit 1.
"$btfenc" dump >"$tmp/out" 2>"$tmp/err"
rc=$?
checks=$((checks + 1))
[ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "usage" "$tmp/err" ||
	fail "no FILE: exit status $rc, stderr: $(cat "$tmp/err")"

# Good input, both byte orders: exit 0, no stderr, identical text.
for f in good swapped; do
	"$btfenc" dump "$tmp/$f.btf" >"$tmp/$f.dump" 2>"$tmp/err"
	rc=$?
	checks=$((checks + 1))
	[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] || fail "$f.btf: exit status $rc: $(cat "$tmp/err")"
done
checks=$((checks + 1))
if ! cmp -s "$tmp/good.dump" "$tmp/swapped.dump"; then
	fail "the swapped file dumps differently:"
	diff "$tmp/good.dump" "$tmp/swapped.dump" | head -n 10
fi
n=$(grep -c '^\[' "$tmp/good.dump")
[ "$n" -eq 25 ] || fail "good.btf dumps $n types, expected 25"
grep -qx "\[17\] VAR 'v' type_id=1, linkage=global" "$tmp/good.dump" ||
	fail "good.btf: [17] not dumped as expected"

echo "$checks checks, $fails failure(s)"
[ $fails -eq 0 ]
