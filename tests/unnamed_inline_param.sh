#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unnamed_inline_param.sh BTFENC OUTDIR
#
# tests/fixtures/inline/unnamed_param.c inlines twice a function whose
# first parameter has no name.  The seed layout keeps both sites (a
# LOCSEC entry names a FUNC_PROTO, whose parameters may be unnamed); the
# merged layout names a FUNC, which cannot have an unnamed argument, so
# it leaves both out and says so with -V.  The encode succeeds either
# way (it failed validation).  Exit 77 = skip (no compiler takes C23's
# unnamed parameters).
set -u
export LC_ALL=C
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/inline/unnamed_param.c
mkdir -p "$out"
st=0 ran=0
for cc in gcc clang; do
	so=$out/unnamed-$cc.so
	command -v $cc >/dev/null 2>&1 &&
		$cc -std=c2x -g -O2 -shared -fPIC -o "$so" "$src" 2>/dev/null || continue
	ran=1
	if ! "$btfenc" --btf_features=default,inline --btf_encode_detached "$so.seed" "$so"; then
		echo "FAIL: $cc: seed layout not encoded"
		st=1
	elif [ "$("$btfenc" dump "$so.seed" | grep -c "^	'en_inl' func_proto_type_id=")" != 2 ]; then
		echo "FAIL: $cc: seed layout: not the 2 sites of en_inl"
		st=1
	fi
	for f in inline inline.extra; do
		rm -f "$so.$f" "$so.$f".inline "$so.$f".extra
		if ! "$btfenc" -V --btf_features=default,$f,layout \
			--btf_encode_detached "$so.$f" "$so" 2>"$so.$f.log"; then
			echo "FAIL: $cc: merged layout ($f) not encoded"
			cat "$so.$f.log"
			st=1
		elif ! grep -q "2 inline sites left out: a parameter without a name" "$so.$f.log"; then
			echo "FAIL: $cc: merged layout ($f): the sites not reported left out"
			st=1
		else
			# The output, then each split written beside it.
			all=$("$btfenc" dump "$so.$f")
			for b in "$so.$f".inline "$so.$f".extra; do
				[ -f "$b" ] && all="$all
$("$btfenc" dump --base "$so.$f" "$b")"
			done
			if echo "$all" | grep -q "FUNC 'en_inl'"; then
				echo "FAIL: $cc: merged layout ($f): a FUNC en_inl"
				st=1
			fi
		fi
	done
	[ $st = 0 ] && echo "ok: $cc"
done
[ $ran = 1 ] || { echo "SKIP: no compiler takes C23 unnamed parameters"; exit 77; }
exit $st
