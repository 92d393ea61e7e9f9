#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dedup_rounds.sh - the dedup's struct phase on two threads (rounds,
# btf/dedup_rounds.c) must give the bytes the phase gives on one thread,
# for any round size and however the threads race.
#
#   dedup_rounds.sh TOOL PREDUP_TOOL SRC_DIR WORKDIR [VMLINUX]
#
# Input: btfenc's own sources compiled with -g and linked into one
# object (~40 CUs sharing headers: the same structs in many CUs, FWDs
# resolved by a later CU, new structs in both threads' parts of a round),
# through the encoder's merge (PREDUP_TOOL), with and without the exact
# copies of earlier CUs' types left out (where a CU refers back to
# earlier CUs' types, so only forward cuts end rounds, and the second
# thread reads the head's map entries); VMLINUX's too when it is
# installed; and tests/tools/rounds_btf.py's BTF, where the second thread
# reaches a struct the head is yet to do (once merged with another of its
# name).  Each round size runs three times, as the second thread's share
# of each round varies from run to run.  Exit 77 (skip) without gcc,
# python3 or two CPUs.
set -eu

tool=$1 predup=$2 src=$3 work=$4 vmlinux=${5:-}
command -v gcc >/dev/null && command -v ld >/dev/null && command -v python3 >/dev/null || exit 77
[ "$(nproc)" -ge 2 ] || { echo "one CPU: the dedup would not use two threads"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
cd "$work"

cflags="-g -O2 -D_GNU_SOURCE -DBTFENC_VERSION=\"0\" -I$src -I$src/btf"
cflags="$cflags $(pkg-config --cflags libdw libelf 2>/dev/null || true)"
for c in "$src"/btf/*.c "$src"/dwarf/*.c "$src"/encoder/*.c "$src"/cmd/*.c; do
	d=$(basename "$(dirname "$c")")
	# shellcheck disable=SC2086
	gcc $cflags -c -o "${d}_$(basename "$c" .c).o" "$c"
done
ld -r -o self.o ./*_*.o
"$predup" self.o self.btf 2
"$predup" self.o exact.btf 2 exact

fail=0
check() {
	in=$1 bad=0
	shift
	"$tool" dedup "$in" one.btf
	for n in "$@"; do
		for run in 1 2 3; do
			"$tool" dedup --rounds "$n" "$in" two.btf
			if ! cmp -s one.btf two.btf; then
				echo "FAIL: $in, rounds of $n types (run $run): not the bytes of one thread"
				bad=1
			fi
		done
	done
	[ "$bad" = 0 ] || { fail=1; return; }
	echo "$in: $("$tool" canon one.btf | awk '$1 == "count" { n += $3 } END { print n }') types" \
		"after dedup, rounds of $* types: same bytes"
}

check self.btf 1 2 4 8 16 32 64 128 256 1024
check exact.btf 1 2 4 8 16 32 64 128 256 1024
python3 "$src/tests/tools/rounds_btf.py" crafted.btf
check crafted.btf 16 64 4096
if ! "$tool" canon one.btf | grep -q "^STRUCT 'T' .* size=4 { 'a'@0:INT 'int' }"; then
	echo "FAIL: crafted.btf: struct T { int a; } merged away"
	fail=1
fi
if [ -n "$vmlinux" ] && [ -r "$vmlinux" ]; then
	"$predup" "$vmlinux" vmlinux.btf 2
	check vmlinux.btf 256 4096
	"$predup" "$vmlinux" vmlinux_exact.btf 2 exact
	check vmlinux_exact.btf 256 1024 4096 16384
fi
[ "$fail" = 0 ] && echo PASS
exit "$fail"
