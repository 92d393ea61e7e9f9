#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# odd_abbrevs.sh BTFENC DIE_READER OUTDIR
#
# The reader indexes each unit's abbreviation table itself and must read
# it as libdw does wherever libdw reads it its own way (codes and names
# kept in 32 bits, LEB128s read to 10 bytes): tests/tools/odd_abbrevs.py
# writes such tables into the types fixture.  With a shadowing entry,
# test_die_reader must find the reader and libdw agreeing on every DIE;
# with an 11-byte SLEB128, the encode must succeed as libdw reads it
# (the reader had decoded the members against another list and written
# BTF that failed validation).  Exit 77 = skip (no gcc, python3 or
# objcopy).
set -u
btfenc=$1 reader=$2 out=$3
dir=$(dirname "$0")
for t in gcc python3 objcopy; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t"; exit 77; }
done
mkdir -p "$out"
gcc -g -O2 -gdwarf-4 -c -o "$out/types.o" "$dir/fixtures/types/types.c" &&
	python3 "$dir/tools/odd_abbrevs.py" "$out/types.o" "$out" || exit 1
st=0
if ! "$reader" "$out/shadow.o"; then
	echo "FAIL: shadow.o: the reader and libdw disagree"
	st=1
fi
for v in shadow long_sleb; do
	if ! "$btfenc" --btf_encode_detached "$out/$v.btf" "$out/$v.o"; then
		echo "FAIL: $v.o: not encoded"
		st=1
	fi
done
[ $st = 0 ] && echo "ok: both tables read as libdw reads them"
exit $st
