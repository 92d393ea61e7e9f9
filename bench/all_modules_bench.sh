#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# all_modules_bench.sh [BTFENC] [EVERY] - what kbuild's module step costs:
# btfenc and pahole 1.24 -J, split against the installed vmlinux, on
# every EVERY-th module (default 1: all 1121) of the Debian kernel's
# debug package, alternating module by module, -j2 for both.  Prints the
# number of modules, the total wall time and CPU time (user+sys) of each
# tool, and the ratios.
set -eu
BTFENC=${1:-$(dirname "$0")/../build/btfenc}
EVERY=${2:-1}
V=${VMLINUX:-/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64}
M=${MODDIR:-/usr/lib/debug/lib/modules/6.1.0-57-cloud-amd64/kernel}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -r "$V" ] || { echo "no $V" >&2; exit 1; }
[ -d "$M" ] || { echo "no $M" >&2; exit 1; }

. "$(dirname "$0")/timing.sh"

find "$M" -name '*.ko' | sort | awk -v n="$EVERY" 'NR % n == 0' >"$T/list"
while read -r f; do
	run "$T/b" "$BTFENC" -J -j2 --btf_base "$V" --btf_encode_detached "$T/b.btf" "$f"
	run "$T/p" pahole -J -j2 --btf_base "$V" --btf_encode_detached "$T/p.btf" "$f"
done <"$T/list"

sum() { awk -v c="$2" '{ s += $c } END { printf "%.2f", s }' "$1"; }
printf '%d modules      %8s %8s\n' "$(wc -l <"$T/list")" wall_s cpu_s
printf '%-16s %8s %8s\n' btfenc "$(sum "$T/b" 1)" "$(sum "$T/b" 2)"
printf '%-16s %8s %8s\n' pahole "$(sum "$T/p" 1)" "$(sum "$T/p" 2)"
echo "btfenc/pahole: wall $(ratio "$(sum "$T/b" 1)" "$(sum "$T/p" 1)")" \
	"cpu $(ratio "$(sum "$T/b" 2)" "$(sum "$T/p" 2)")"
