#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nested_types.sh BTFENC OUTDIR
#
# C++ nests a class's DIE in the enclosing class's DIE, between its
# members (tests/fixtures/types/nested.cc).  Each struct must get exactly
# its own members, at the offsets the compiler gave them (the fixture
# asserts those), whether g++ or clang++ built it.  pahole 1.24 does not
# take C++ objects, so the source is the reference.  Exit 77 = skip (no
# C++ compiler).
set -u
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/types/nested.cc
mkdir -p "$out"
want="STRUCT nx_deep size=4: c@0 s@16
STRUCT nx_inner size=16: x@0 d@64 y@96
STRUCT nx_inner2 size=4: z@0
UNION (anon) size=4: u1@0 u2@0
STRUCT nx_outer size=40: a@0 in@64 b@192 in2@224 (anon)@256 c@288"
st=0 ran=0
for cxx in g++ clang++; do
	command -v $cxx >/dev/null 2>&1 || continue
	for opt in -O0 -O2; do
		obj=$out/nested-$cxx$opt.o
		ran=1
		if ! $cxx -g $opt -c -o "$obj" "$src" ||
			! "$btfenc" --btf_encode_detached "$obj.btf" "$obj"; then
			echo "FAIL: $cxx $opt: not built or not encoded"
			st=1
			continue
		fi
		# One line per struct/union: kind name size: member@bit_offset...
		got=$("$btfenc" dump "$obj.btf" | awk '
			/^\[/ { if (line) print line; line = "";
				if ($2 == "STRUCT" || $2 == "UNION") {
					gsub(/\047/, "", $3); sub(/size=/, "", $4);
					line = $2 " " $3 " size=" $4 ":" } next }
			line && /bits_offset=/ { n = $1; gsub(/\047/, "", n);
				o = $0; sub(/.*bits_offset=/, "", o); sub(/ .*/, "", o);
				line = line " " n "@" o }
			END { if (line) print line }' | sort)
		if [ "$got" != "$(echo "$want" | sort)" ]; then
			echo "FAIL: $cxx $opt: structs differ from the source"
			echo "want:"; echo "$want" | sort
			echo "got:"; echo "$got"
			st=1
		else
			echo "ok: $cxx $opt"
		fi
	done
done
[ $ran = 1 ] || { echo "SKIP: no C++ compiler"; exit 77; }
exit $st
