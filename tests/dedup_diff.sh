#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dedup_diff.sh - differential test of btfenc's btf__dedup() against the
# system libbpf's (1.1), on pre-dedup BTF with cross-object duplicates.
#
#   dedup_diff.sh fixtures TOOL LIBBPF_TOOL FIXTURE_DIR WORKDIR
#       gcc -g -c each FIXTURE_DIR/*.c, pahole -J --btf_encode_detached
#       each object, concatenate the per-object BTFs (btf__add_btf).
#   dedup_diff.sh vmlinux TOOL LIBBPF_TOOL VMLINUX WORKDIR
#       VMLINUX's .BTF appended to itself three times.
#   dedup_diff.sh encoder TOOL LIBBPF_TOOL FILE WORKDIR PREDUP_TOOL
#       the BTF btfenc's encoder merges from FILE's DWARF before dedup
#       (every CU's types: millions for vmlinux).
#
# Both dedup results must have the same number of types of each kind and
# the same multiset of id-free type descriptions (TOOL canon).  In encoder
# mode, btfenc's dedup fed ahead (TOOL ahead) must also give the bytes of
# the one run over all types.  Exit 77
# (skip) when an input or gcc/pahole is missing.
set -eu

mode=$1 tool=$2 ref=$3 src=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
cd "$work"

count_types() {
	"$tool" canon "$1" | awk '$1 == "count" { n += $3 } END { print n + 0 }'
}

case $mode in
fixtures)
	command -v gcc >/dev/null && command -v pahole >/dev/null || exit 77
	objs=
	for c in "$src"/*.c; do
		o=$(basename "$c" .c)
		gcc -g -O0 -c -o "$o.o" "$c"
		pahole -J --btf_encode_detached "$o.btf" "$o.o"
		objs="$objs $o.btf"
	done
	# shellcheck disable=SC2086
	"$tool" concat in.btf $objs
	;;
vmlinux)
	[ -r "$src" ] || exit 77
	"$tool" concat one.btf "$src"
	"$tool" concat in.btf "$src" "$src" "$src"
	# The kernel's BTF is deduped already: deduping it again changes nothing.
	"$tool" dedup one.btf one.ours.btf
	n1=$(count_types one.btf)
	n2=$(count_types one.ours.btf)
	if [ "$n1" != "$n2" ]; then
		echo "FAIL: re-dedup of $src changed $n1 types into $n2"
		exit 1
	fi
	;;
encoder)
	[ -r "$src" ] || exit 77
	if [ -d "$src" ]; then
		# Several CUs in one relocatable object, as in a module.
		command -v gcc >/dev/null && command -v ld >/dev/null || exit 77
		for c in "$src"/*.c; do
			gcc -g -O2 -c -o "$(basename "$c" .c).o" "$c"
		done
		ld -r -o combined.o ./*.o
		src=$work/combined.o
	fi
	"$6" "$src" in.btf 2
	# Fed ahead at every point a merged CU could end, the same dedup.
	"$tool" ahead 1 in.btf
	;;
*)
	echo "unknown mode $mode"
	exit 2
	;;
esac

"$tool" dedup in.btf ours.btf
"$ref" in.btf ref.btf
"$tool" canon ours.btf >ours.txt
"$tool" canon ref.btf >ref.txt

nin=$(count_types in.btf)
nout=$(count_types ours.btf)
echo "types: $nin before dedup, $nout after (libbpf: $(count_types ref.btf))"
if [ "$nout" -ge "$nin" ]; then
	echo "FAIL: dedup merged nothing"
	exit 1
fi
if ! diff -u ref.txt ours.txt >canon.diff; then
	echo "FAIL: btfenc and libbpf dedup results differ (- libbpf, + btfenc):"
	head -50 canon.diff
	exit 1
fi
if cmp -s ours.btf ref.btf; then
	echo "raw output byte-identical to libbpf's"
fi
echo "PASS"
