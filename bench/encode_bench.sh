#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# encode_bench.sh [BTFENC] [RUNS] - btfenc vs pahole -J on the installed
# vmlinux, alternating runs (detached output, -j2 for both).  Prints the
# median wall time, CPU time (user+sys) and peak RSS of each and the
# ratios; then btfenc with --btf_features=default,inline.extra (inline
# sites into .BTF.extra as well) against btfenc's own .BTF-only time.
set -eu
BTFENC=${1:-$(dirname "$0")/../build/btfenc}
RUNS=${2:-3}
V=${VMLINUX:-/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -r "$V" ] || { echo "no $V" >&2; exit 1; }

. "$(dirname "$0")/timing.sh"

for i in $(seq "$RUNS"); do
	run "$T/btfenc" "$BTFENC" -J -j2 --btf_encode_detached "$T/b.btf" "$V"
	run "$T/pahole" pahole -J -j2 --btf_encode_detached "$T/p.btf" "$V"
	run "$T/extra" "$BTFENC" -J -j2 --btf_features=default,inline.extra \
		--btf_encode_detached "$T/x.btf" "$V"
done

printf '%-28s %8s %8s %10s\n' "($RUNS runs, median)" wall_s cpu_s peak_MB
for n in btfenc pahole extra; do
	printf '%-28s %8s %8s %10.0f\n' "$n" "$(median "$T/$n" 1)" "$(median "$T/$n" 2)" \
		"$(echo "$(median "$T/$n" 3) / 1024" | bc -l)"
done
echo "btfenc/pahole: wall $(ratio "$(median "$T/btfenc" 1)" "$(median "$T/pahole" 1)")" \
	"cpu $(ratio "$(median "$T/btfenc" 2)" "$(median "$T/pahole" 2)")" \
	"rss $(ratio "$(median "$T/btfenc" 3)" "$(median "$T/pahole" 3)")"
echo "inline.extra/btfenc: wall $(ratio "$(median "$T/extra" 1)" "$(median "$T/btfenc" 1)")" \
	"cpu $(ratio "$(median "$T/extra" 2)" "$(median "$T/btfenc" 2)")" \
	"rss $(ratio "$(median "$T/extra" 3)" "$(median "$T/btfenc" 3)")"
