#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mixed_strings.sh BTFENC OUTDIR
#
# A gcc CU and a clang CU of one binary define the same struct, and
# their DWARF reaches the names differently: gcc writes short ones
# ("int") into the DIE, clang's go through .debug_str.  A linked file's
# merge keeps the .debug_str offsets (btf_merge_btf_same_strs(), always
# taken with --verify) and, finding "int" at two offsets, leaves the
# names to the dedup's string phase; -j1 with a CPU to spare merges
# through the offset map instead (btf_merge_btf_cached()).  Expected
# either way: one struct ms_long_named_pair with its members named and
# one INT 'int', and the same bytes.  (test_merge_names checks the
# verdict itself: the ".BTF" dedup would hide a wrong one here.)  Exit
# 77 = skip (no gcc or clang).
set -u
export LC_ALL=C
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/types/mixed_strings.c
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || { echo "SKIP: no $cc"; exit 77; }
done
mkdir -p "$out"
st=0
for dw in 4 5; do
	bin=$out/ms-$dw
	if ! gcc -g -gdwarf-$dw -O1 -c -o "$bin-a.o" "$src" ||
		! clang -g -gdwarf-$dw -O1 -DMS_SIDE_B -c -o "$bin-b.o" "$src" ||
		! gcc -o "$bin" "$bin-a.o" "$bin-b.o"; then
		echo "FAIL: DWARF $dw: not built"
		st=1
		continue
	fi
	for j in 1 2; do
		verify=
		[ $j = 2 ] && verify=--verify
		if ! "$btfenc" -j$j $verify --btf_encode_detached "$bin.$j.btf" "$bin"; then
			echo "FAIL: DWARF $dw -j$j $verify: not encoded"
			st=1
			continue
		fi
		"$btfenc" dump "$bin.$j.btf" > "$bin.$j.txt"
		structs=$(grep -c "STRUCT 'ms_long_named_pair'" "$bin.$j.txt")
		ints=$(grep -c "INT 'int'" "$bin.$j.txt")
		members=$(grep -A3 "STRUCT 'ms_long_named_pair'" "$bin.$j.txt" | grep -c "'ms_length_of_pair'\|'ms_key_of_pair'\|'ms_next_pair'")
		if [ "$structs" != 1 ] || [ "$ints" != 1 ] || [ "$members" != 3 ]; then
			echo "FAIL: DWARF $dw -j$j: $structs ms_long_named_pair, $ints int, $members members named"
			cat "$bin.$j.txt"
			st=1
		fi
	done
	cmp -s "$bin.1.btf" "$bin.2.btf" || { echo "FAIL: DWARF $dw: -j1 and -j2 --verify differ"; st=1; }
done
[ $st = 0 ] && echo "PASS: names at two offsets compared by their bytes"
exit $st
