#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module_bench.sh [BTFENC] [RUNS] [REPS] - btfenc vs pahole -J on kernel
# modules, split against the installed vmlinux (what kbuild runs once per
# module), alternating runs, -j2 for both.  Prints, per module and in all, the
# median wall time, CPU time (user+sys) and peak RSS of each and the
# ratios.  The modules: the six of ../shared/reference, from 40 MB of
# DWARF (xfs.ko, btrfs.ko) down to a few KB (crc7.ko).  Each run times
# REPS (default 10) encodes back to back, for a resolution below 1 ms.
set -eu
BTFENC=${1:-$(dirname "$0")/../build/btfenc}
RUNS=${2:-3}
REPS=${3:-10}
V=${VMLINUX:-/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64}
M=${MODDIR:-/usr/lib/debug/lib/modules/6.1.0-57-cloud-amd64/kernel}
MODS="fs/xfs/xfs.ko fs/btrfs/btrfs.ko net/ipv6/tunnel6.ko lib/crc7.ko
drivers/net/ipvlan/ipvtap.ko net/core/drop_monitor.ko"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -r "$V" ] || { echo "no $V" >&2; exit 1; }

. "$(dirname "$0")/timing.sh"

printf '%-22s %21s %21s %17s\n' "($RUNS runs, median)" "wall_s btfenc pahole" \
	"cpu_s btfenc pahole" "peak_MB btf pah"
tw_b=0 tw_p=0 tc_b=0 tc_p=0 mr_b=0 mr_p=0
for m in $MODS; do
	f=$M/$m
	[ -r "$f" ] || { echo "no $f" >&2; exit 1; }
	n=$(basename "$m" .ko)
	for i in $(seq "$RUNS"); do
		run_rep "$T/$n.b" "$REPS" "$BTFENC" -J -j2 --btf_base "$V" --btf_encode_detached "$T/b.btf" "$f"
		run_rep "$T/$n.p" "$REPS" pahole -J -j2 --btf_base "$V" --btf_encode_detached "$T/p.btf" "$f"
	done
	wb=$(median "$T/$n.b" 1) wp=$(median "$T/$n.p" 1)
	cb=$(median "$T/$n.b" 2) cp=$(median "$T/$n.p" 2)
	rb=$(median "$T/$n.b" 3) rp=$(median "$T/$n.p" 3)
	printf '%-22s %14s %6s %14s %6s %10d %6d\n' "$n" "$wb" "$wp" "$cb" "$cp" \
		$((rb / 1024)) $((rp / 1024))
	tw_b=$(echo "$tw_b + $wb" | bc -l) tw_p=$(echo "$tw_p + $wp" | bc -l)
	tc_b=$(echo "$tc_b + $cb" | bc -l) tc_p=$(echo "$tc_p + $cp" | bc -l)
	[ "$rb" -gt "$mr_b" ] && mr_b=$rb
	[ "$rp" -gt "$mr_p" ] && mr_p=$rp
done
echo "btfenc/pahole, all modules: wall $(ratio "$tw_b" "$tw_p") cpu $(ratio "$tc_b" "$tc_p")" \
	"largest peak $(ratio "$mr_b" "$mr_p")"
