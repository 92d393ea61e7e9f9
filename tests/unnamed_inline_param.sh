#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# unnamed_inline_param.sh BTFENC OUTDIR
#
# tests/fixtures/inline/unnamed_param.c inlines twice a function whose
# first parameter has no name (en_inl), and twice one with "..."
# (en_vinl).  The seed layout keeps all four sites (a LOCSEC entry names
# a FUNC_PROTO, whose parameters may be unnamed); the merged layout
# names a FUNC, which cannot have an unnamed argument, so it leaves
# en_inl's two out and says so with -V, and keeps en_vinl's ("..." is
# not an unnamed parameter).  The encode succeeds either way (it failed
# validation).  Exit 77 = skip (no compiler takes C23's unnamed
# parameters).
set -u
export LC_ALL=C
btfenc=$1 out=$2
src=$(dirname "$0")/fixtures/inline/unnamed_param.c
mkdir -p "$out"
st=0 ran=0
# How many LOCSEC entries name function $1 in dump text $2.
sites_of() {
	printf '%s\n' "$2" | grep -c "^	\(name=\)\{0,1\}'$1' func"
}
for cc in gcc clang; do
	so=$out/unnamed-$cc.so
	command -v $cc >/dev/null 2>&1 || continue
	# Does this compiler take an unnamed parameter in a definition at all?
	printf 'int f(int) { return 0; }\n' >"$out/probe.c"
	$cc -std=c2x -c -o "$out/probe.o" "$out/probe.c" 2>/dev/null || continue
	ran=1
	if ! $cc -std=c2x -g -O2 -shared -fPIC -o "$so" "$src"; then
		echo "FAIL: $cc: fixture not built"
		st=1
		continue
	fi
	if ! "$btfenc" --btf_features=default,inline --btf_encode_detached "$so.seed" "$so"; then
		echo "FAIL: $cc: seed layout not encoded"
		st=1
		continue
	fi
	seed=$("$btfenc" dump "$so.seed")
	if [ "$(sites_of en_inl "$seed")" != 2 ]; then
		echo "FAIL: $cc: seed layout: not the 2 sites of en_inl"
		st=1
	fi
	# clang writes no DIE for "...": en_vinl is then like any function.
	vinl=$(sites_of en_vinl "$seed")
	for f in inline inline.extra; do
		rm -f "$so.$f" "$so.$f.inline" "$so.$f.extra"
		if ! "$btfenc" -V --btf_features=default,$f,layout \
			--btf_encode_detached "$so.$f" "$so" 2>"$so.$f.log"; then
			echo "FAIL: $cc: merged layout ($f) not encoded"
			cat "$so.$f.log"
			st=1
			continue
		fi
		if ! grep -q "2 inline sites left out: a parameter without a name" "$so.$f.log"; then
			echo "FAIL: $cc: merged layout ($f): the sites not reported left out"
			st=1
		fi
		# The output, then each split written beside it.
		all=$("$btfenc" dump "$so.$f")
		for b in "$so.$f.inline" "$so.$f.extra"; do
			[ -f "$b" ] && all="$all
$("$btfenc" dump --base "$so.$f" "$b")"
		done
		if printf '%s\n' "$all" | grep -q "FUNC 'en_inl'"; then
			echo "FAIL: $cc: merged layout ($f): a FUNC en_inl"
			st=1
		fi
		if [ "$(sites_of en_vinl "$all")" != "$vinl" ] || [ "$vinl" != 2 ]; then
			echo "FAIL: $cc: merged layout ($f): en_vinl's 2 sites not kept"
			st=1
		fi
	done
	[ $st = 0 ] && echo "ok: $cc"
done
[ $ran = 1 ] || { echo "SKIP: no compiler takes C23 unnamed parameters"; exit 77; }
exit $st
