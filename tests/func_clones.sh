#!/bin/sh
# func_clones.sh BTFENC FIXTURE.c
#
# pahole 1.31's function rules on gcc clones (tests/fixtures/kfuncs/
# clones.c, built as a shared object so addresses are final): a
# .constprop clone that dropped its 8th parameter is left out with a
# changed calling convention; a .constprop clone split into hot and
# .cold parts (DW_AT_ranges, no low_pc) is kept.  Exit 77 (skip) without
# gcc or when this gcc did not make those clones.
set -u
btfenc=$1 src=$2
command -v gcc >/dev/null && command -v readelf >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

gcc -g -O2 -shared -fPIC -o "$work/clones.so" "$src" || fail "gcc"
syms=$(readelf -sW "$work/clones.so" | awk '$4 == "FUNC" { print $8 }')
echo "$syms" | grep -qx 'many\.constprop\.[0-9]*' &&
	echo "$syms" | grep -qx 'split\.constprop\.[0-9]*\.cold' || {
	echo "SKIP: this gcc made other clones: $(echo $syms)"
	exit 77
}

"$btfenc" -V --btf_encode_detached "$work/c.btf" --btf_features=default "$work/clones.so" \
	>"$work/log" 2>&1 || fail "btfenc: $(cat "$work/log")"
"$btfenc" dump "$work/c.btf" | sed -n "s/^\[[0-9]*\] FUNC '\([^']*\)'.*/\1/p" | sort >"$work/funcs"
printf 'split\nuse_many\nuse_split\n' | diff -u - "$work/funcs" || fail "FUNCs"
grep -q "many : skipping BTF encoding of function due to optimized-out parameters with a changed calling convention" \
	"$work/log" || fail "many: no changed-calling-convention skip: $(grep skipping "$work/log")"
echo "func_clones: ok"
