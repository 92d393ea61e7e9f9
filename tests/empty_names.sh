#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# empty_names.sh BTFENC OUTDIR
#
# A name in .debug_str goes into a CU's BTF as its offset there, unread
# (btf_add_name()), so an empty one reaches the merge, which must make
# it 0 as for any unnamed member or parameter.  The fixture is compiled
# (gcc, clang; DWARF 4 and 5), then tests/tools/cut_names.py cuts the
# names "en_emptied_member", "en_emptied_param" and "en_emptied_inline"
# to "" in .debug_str.  Expected: the member comes out unnamed ('(anon)',
# name offset 0); en_func, whose parameter lost its name, is left out as
# for a parameter without DW_AT_name (a FUNC with an unnamed argument
# does not load); the sites of the inlined function that lost its name
# are left out with --btf_features=inline (a LOCSEC entry needs one),
# and the encode succeeds; every other name is as it was, and the rest
# of the cut strings is nowhere.  Then the kinds that need a name, and
# tags with an empty value (see below).  Exit 77 = skip (no compiler, python3, or a fixture this
# machine cannot patch).
set -u
export LC_ALL=C
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/types/empty_names.c
tools=$(dirname "$0")/tools
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
mkdir -p "$out"
# The member names of en_holder, and the FUNCs with their parameters.
want="FUNC en_call: x
FUNC en_func2: en_kept_param2
en_holder: en_kept_member (anon)"
st=0 ran=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	have_cc=$cc
	for dw in 4 5; do
	for link in o so; do
		obj=$out/en-$cc-$dw.$link
		ran=1
		# A linked file's names keep their .debug_str offsets in the
		# merge (btf_merge_btf_same_strs()); --verify checks its BTF
		# before the dedup too.
		case $link in
		o) cflags=-c verify= ;;
		so) cflags="-fPIC -shared -nostdlib" verify=--verify ;;
		esac
		if ! $cc -g -gdwarf-$dw -O2 $cflags -o "$obj" "$src"; then
			echo "FAIL: $cc DWARF $dw $link: not built"
			st=1
			continue
		fi
		python3 "$tools/cut_names.py" "$obj" en_emptied_member en_emptied_param \
			en_emptied_inline
		case $? in
		0) ;;
		77) [ $st = 0 ] && exit 77; exit $st ;;
		*) st=1; continue ;;
		esac
		if ! "$btfenc" $verify --btf_encode_detached "$obj.btf" "$obj" ||
			! "$btfenc" $verify --btf_features=default,inline \
				--btf_encode_detached "$obj.inline.btf" "$obj"; then
			echo "FAIL: $cc DWARF $dw $link: not encoded"
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
		if [ "$got" != "$want" ] || grep -q "mptied" "$obj.btf" "$obj.inline.btf" ||
			"$btfenc" dump "$obj.inline.btf" | grep -q "LOCSEC"; then
			echo "FAIL: $cc DWARF $dw $link: empty names not left out"
			echo "want:"; echo "$want"
			echo "got:"; echo "$got"
			st=1
		else
			echo "ok: $cc DWARF $dw $link"
		fi
	done
	done
done
[ $ran = 1 ] || { echo "SKIP: no C compiler"; exit 77; }

# Kinds BTF does not allow unnamed (tests/fixtures/types/required_names.c):
# a typedef or a declared struct named "" stops the encode with one line
# naming the file and the DIE; a float named "" becomes the placeholder
# int, as an unnamed base type does.
obj=$out/required.o
for cut in en_cut_typedef:"typedef without a name" en_cut_decl:"anonymous declaration" \
	float:; do
	name=${cut%%:*} msg=${cut#*:}
	rm -f "$obj.btf"
	if ! $have_cc -g -O2 -c -o "$obj" "$(dirname "$src")/required_names.c" ||
		! python3 "$tools/cut_names.py" "$obj" "$name"; then
		echo "FAIL: required_names.c: not built or not patched"
		st=1
		continue
	fi
	"$btfenc" --btf_features=default,float --btf_encode_detached "$obj.btf" "$obj" \
		2>"$obj.err"
	rc=$?
	if [ -n "$msg" ]; then
		if [ $rc = 0 ] || [ -e "$obj.btf" ] || [ "$(wc -l <"$obj.err")" != 1 ] ||
			! grep -qF "btfenc: $obj: " "$obj.err" ||
			! grep -q "DIE 0x[0-9a-f]*: $msg\$" "$obj.err"; then
			echo "FAIL: $name cut: not one error line saying \"$msg\""
			cat "$obj.err"
			st=1
		else
			echo "ok: $name cut: $msg"
		fi
	elif [ $rc != 0 ] ||
		! "$btfenc" dump "$obj.btf" | grep -q "INT '__SANITIZED_FAKE_INT__' size=4"; then
		echo "FAIL: $name cut: not encoded as the placeholder int"
		st=1
	else
		echo "ok: $name cut: placeholder int"
	fi
done

# Tags with an empty value (tests/fixtures/types/empty_tags.c, clang
# only): BTF has no such tag, so they are left out; the others stay.
obj=$out/tags.o
if command -v clang >/dev/null 2>&1; then
	if ! clang -g -O2 -c -o "$obj" "$(dirname "$src")/empty_tags.c" ||
		! python3 "$tools/cut_names.py" "$obj" en_cut_type_tag en_cut_decl_tag \
			en_cut_func_tag en_cut_param_tag ||
		! "$btfenc" --btf_encode_detached "$obj.btf" "$obj"; then
		echo "FAIL: empty tags: not built, patched or encoded"
		st=1
	else
		got=$("$btfenc" dump "$obj.btf")
		if printf '%s\n' "$got" | grep -q "_TAG '\((anon)\)\{0,1\}'\|en_cut" ||
			! printf '%s\n' "$got" | grep -q "TYPE_TAG 'en_kept_type_tag'" ||
			! printf '%s\n' "$got" | grep -q "DECL_TAG 'en_kept_decl_tag'"; then
			echo "FAIL: empty tags: not left out, or the others lost"
			printf '%s\n' "$got"
			st=1
		else
			echo "ok: empty tags left out"
		fi
	fi
fi
exit $st
