#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dedup_bench.sh - btfenc's btf__dedup() against libbpf's, same input,
# same run: the vmlinux .BTF appended to itself COPIES times (a pre-dedup
# BTF whose duplicates span "objects", like per-CU BTF concatenated).
#
# Usage: bench/dedup_bench.sh [BUILD_DIR] [VMLINUX] [COPIES] [RUNS]
# COPIES "encoder" takes instead the BTF btfenc's encoder merges from the
# vmlinux DWARF before dedup (tests/tools/predup_btf: 3.3M types), the
# input the real encoder deduplicates.
# Prints, per tool, the best wall time and peak RSS of the whole process
# (/usr/bin/time: read + dedup + write) and the best in-process time of
# the dedup call alone, then btfenc/libbpf ratios, in two ways:
#   from a parsed file: each library's default; both first copy the
#     130 MB of records (libbpf also indexes the strings);
#   as the encoders run it: btfenc in place (what btfenc -J does), libbpf
#     on a BTF already modifiable (pahole built it with btf__add_*()).
set -eu

build=${1:-build-dedup}
vmlinux=${2:-/usr/lib/debug/boot/vmlinux-$(uname -r)}
copies=${3:-3}
runs=${4:-5}
tool=$build/tests/btf_dedup_tool
ref=$build/tests/libbpf_dedup
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -r "$vmlinux" ] || vmlinux=/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64
if [ "$copies" = encoder ]; then
	"$build/tests/predup_btf" "$vmlinux" "$work/in.btf" 2
	copies=0
fi
set --
i=0
while [ "$i" -lt "$copies" ]; do
	set -- "$@" "$vmlinux"
	i=$((i + 1))
done
[ "$copies" = 0 ] || "$tool" concat "$work/in.btf" "$@"
echo "input: $(basename "$vmlinux") ($([ "$copies" = 0 ] && echo 'encoder pre-dedup BTF' ||
	echo ".BTF x$copies")), $(stat -c %s "$work/in.btf") bytes"

# best_of NAME CMD...: min wall s, max RSS KB, min dedup ms over $runs runs
best_of() {
	name=$1
	shift
	: >"$work/$name.log"
	i=0
	while [ "$i" -lt "$runs" ]; do
		BTF_DEDUP_TIME=1 /usr/bin/time -f "time %e %M" "$@" "$work/in.btf" "$work/$name.out" \
			2>>"$work/$name.log"
		i=$((i + 1))
	done
	awk -v n="$name" '
		$1 == "time" { if (w == "" || $2 < w) w = $2; if ($3 > r) r = $3 }
		$1 == "dedup:" { if (d == "" || $2 < d) d = $2 }
		END { printf "%-17s wall %.3f s  peak RSS %d KB  dedup call %.1f ms\n", n, w, r, d
		      print w, r, d > "/dev/stderr" }' "$work/$name.log" 2>"$work/$name.best"
}

# ratios B L LABEL: btfenc/libbpf from the .best files of B and L
ratios() {
	read -r bw br bd <"$work/$1.best"
	read -r lw lr ld <"$work/$2.best"
	awk -v bw="$bw" -v lw="$lw" -v bd="$bd" -v ld="$ld" -v br="$br" -v lr="$lr" -v l="$3" 'BEGIN {
		printf "ratio btfenc/libbpf, %s: dedup call %.2f, whole process %.2f, peak RSS %.2f\n",
		       l, bd / ld, bw / lw, br / lr }'
	if cmp -s "$work/$1.out" "$work/$2.out"; then
		echo "outputs byte-identical"
	else
		echo "outputs differ (run tests/dedup_diff.sh for the comparison)"
	fi
}

best_of btfenc "$tool" dedup
best_of libbpf "$ref"
best_of btfenc_in_place "$tool" dedup --in-place
best_of libbpf_modifiable "$ref" --modifiable
ratios btfenc libbpf "from a parsed file"
ratios btfenc_in_place libbpf_modifiable "as the encoders run it"
