#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# empty_names.sh BTFENC OUTDIR
#
# A name in .debug_str goes into a CU's BTF as its offset there, unread
# (btf_add_name()), so an empty one reaches the merge, which must make
# it 0 as for any unnamed member or parameter.  The fixture is compiled
# (gcc, clang; DWARF 4 and 5), then the names "en_emptied_member" and
# "en_emptied_param" are cut to "" in .debug_str.  Expected: the member
# comes out unnamed ('(anon)', name offset 0); en_func, whose parameter
# lost its name, is left out as for a parameter without DW_AT_name (a
# FUNC with an unnamed argument does not load); every other name is as
# it was, and the rest of the cut strings is nowhere.  Exit 77 = skip
# (no compiler or python3).
set -u
export LC_ALL=C
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/types/empty_names.c
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
mkdir -p "$out"
# The member names of en_holder, and the FUNCs with their parameters.
want="FUNC en_func2: en_kept_param2
en_holder: en_kept_member (anon)"
st=0 ran=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for dw in 4 5; do
		obj=$out/en-$cc-$dw.o
		ran=1
		if ! $cc -g -gdwarf-$dw -O2 -c -o "$obj" "$src" ||
			! python3 - "$obj" <<'PY'
import struct, sys
path = sys.argv[1]
img = bytearray(open(path, 'rb').read())
# ELF64 little-endian: the section headers and their name table.
shoff, = struct.unpack_from('<Q', img, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', img, 0x3a)
def sec(i):
	return struct.unpack_from('<IIQQQQ', img, shoff + i * shentsize)
names_off = sec(shstrndx)[4]
cut = 0
for i in range(shnum):
	name, _, _, _, off, size = sec(i)
	end = img.index(b'\0', names_off + name)
	if img[names_off + name:end] != b'.debug_str':
		continue
	for s in (b'en_emptied_member\0', b'en_emptied_param\0'):
		at = img.find(s, off, off + size)
		if at >= 0 and (at == off or img[at - 1] == 0):
			img[at] = 0
			cut += 1
if cut != 2:
	sys.exit('%s: %d of 2 names found in .debug_str' % (path, cut))
open(path, 'wb').write(img)
PY
		then
			echo "FAIL: $cc DWARF $dw: not built or not patched"
			st=1
			continue
		fi
		if ! "$btfenc" --btf_encode_detached "$obj.btf" "$obj"; then
			echo "FAIL: $cc DWARF $dw: not encoded"
			st=1
			continue
		fi
		got=$("$btfenc" dump "$obj.btf" | awk '
			function flush() { if (line) print line; line = "" }
			/^\[/ { flush() }
			/^\[/ && $2 == "STRUCT" { n = $3; gsub(/\047/, "", n); line = n ":"; next }
			/^\[/ && $2 == "FUNC_PROTO" { proto[$1] = ""; cur = $1; next }
			/^\[/ && $2 == "FUNC" { n = $3; gsub(/\047/, "", n); t = $4;
				sub(/type_id=/, "", t); func_[n] = t; next }
			/^\[/ { cur = ""; next }
			/^\t/ { n = $1; gsub(/\047/, "", n);
				if (line) line = line " " n; else if (cur) proto[cur] = proto[cur] " " n }
			END { flush();
				for (f in func_) print "FUNC " f ":" proto["[" func_[f] "]"] }' | sort)
		if [ "$got" != "$want" ] || grep -q "mptied" "$obj.btf"; then
			echo "FAIL: $cc DWARF $dw: empty names not left out"
			echo "want:"; echo "$want"
			echo "got:"; echo "$got"
			st=1
		else
			echo "ok: $cc DWARF $dw"
		fi
	done
done
[ $ran = 1 ] || { echo "SKIP: no C compiler"; exit 77; }
exit $st
