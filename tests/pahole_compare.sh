#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pahole_compare.sh - btfenc against pahole on the installed Debian kernel.
#
#   pahole_compare.sh ref131 BTFENC CANON DOCS WORK TARGET
#       TARGET = vmlinux or a module name: encode like kbuild with pahole
#       >= 1.30 and compare with the stored pahole 1.31 output.
#   pahole_compare.sh pahole124 BTFENC CANON DOCS WORK TARGET
#       run Debian's pahole 1.24 here and compare btfenc with the feature
#       set that reproduces its defaults.
#   pahole_compare.sh jobs BTFENC WORK          -j1 and -j2 byte-identical
#       (vmlinux, also with inline.extra; and xfs.ko with inline.extra at
#       -j1, -j2, -j3)
#   pahole_compare.sh libbpf BTFENC LOADER WORK libbpf/bpftool parse it,
#       the running kernel accepts it (skipped when not permitted)
#
# Compared: per-kind counts; the description (ids ignored) of every named
# STRUCT, UNION, ENUM, ENUM64, TYPEDEF, FWD, FUNC and VAR; DATASECs.  A
# difference fails unless docs/pahole-differences.md lists it on a line
#     allow SCOPE KIND NAME      (a named type that may differ/be missing)
#     allow SCOPE count KIND     (a per-kind count that may differ)
#     allow SCOPE KIND *         (every type of that kind may differ)
# SCOPE is ref131-vmlinux, ref131-<module>, pahole124-vmlinux, ...
# Exit 77 when the kernel package or the reference is not installed.
set -u
mode=$1
KVER=6.1.0-57-cloud-amd64
V=/usr/lib/debug/boot/vmlinux-$KVER
MODDIR=/usr/lib/debug/lib/modules/$KVER/kernel
REF=${PAHOLE_REF:-/work/shared/reference/pahole-1.31}
F131=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs,attributes
# pahole 1.24 with no --btf_features: per-CPU vars, decl/type tags, enum64;
# floats as INT; functions with optimized-out or inconsistent parameters
# kept.  btfenc's legacy command line (no --btf_features) is that mode.
declare -A MODS=([xfs]=fs/xfs/xfs.ko [btrfs]=fs/btrfs/btrfs.ko [tunnel6]=net/ipv6/tunnel6.ko
		 [crc7]=lib/crc7.ko [ipvtap]=drivers/net/ipvlan/ipvtap.ko
		 [drop_monitor]=net/core/drop_monitor.ko)

skip() { echo "SKIP: $*"; exit 77; }
[ -r "$V" ] || skip "$V not installed"

# Named-type and DATASEC lines plus counts, from a canon dump.
filter() {
	grep -E "^(count |(STRUCT|UNION|ENUM|ENUM64|TYPEDEF|FWD|FUNC|VAR) '[^']+'|DATASEC )" "$1"
}

# compare SCOPE DOCS OURS THEIRS: fails on a difference not allowed.
compare() {
	local scope=$1 docs=$2 ours=$3 theirs=$4 bad=0 line key kind name
	local allow
	allow=$(grep -E "^ *allow $scope " "$docs" | sed -E "s/^ *allow $scope //")
	while IFS= read -r line; do
		line=${line:2}
		if [[ $line == count* ]]; then
			key="count $(echo "$line" | awk '{print $2}')"
		else
			kind=${line%% *}
			name=$(echo "$line" | sed -E "s/^[A-Z0-9]+ '([^']*)'.*/\1/")
			key="$kind $name"
		fi
		if ! grep -qxF -e "$key" -e "${key%% *} *" <<<"$allow"; then
			echo "DIFF ($scope): ${line:0:300}"
			bad=1
		fi
	done < <(diff <(filter "$ours") <(filter "$theirs") | grep -E '^[<>] ')
	return $bad
}

case $mode in
ref131 | pahole124)
	BTFENC=$2 CANON=$3 DOCS=$4 WORK=$5 TARGET=$6
	mkdir -p "$WORK"
	if [ "$TARGET" = vmlinux ]; then
		in=$V base=()
	else
		in=$MODDIR/${MODS[$TARGET]}
		base=(--btf_base "$V")
		[ -r "$in" ] || skip "$in not installed"
	fi
	if [ $mode = ref131 ]; then
		[ -r "$REF/$TARGET.btf" ] || skip "$REF/$TARGET.btf not available"
		theirs=$REF/$TARGET.btf
		"$BTFENC" -J -j2 --btf_features=$F131 "${base[@]}" \
			--btf_encode_detached "$WORK/btfenc.btf" "$in" || exit 1
	else
		command -v pahole >/dev/null || skip "pahole not installed"
		theirs=$WORK/pahole.btf
		rm -f "$theirs"
		pahole -J -j2 "${base[@]}" --btf_encode_detached "$theirs" "$in" || exit 1
		"$BTFENC" -J -j2 "${base[@]}" --btf_encode_detached "$WORK/btfenc.btf" "$in" ||
			exit 1
	fi
	if [ "$TARGET" = vmlinux ]; then
		"$CANON" canon "$WORK/btfenc.btf" >"$WORK/btfenc.canon" &&
			"$CANON" canon "$theirs" >"$WORK/theirs.canon" || exit 1
	else
		"$CANON" canon "$WORK/btfenc.btf" "$V" >"$WORK/btfenc.canon" &&
			"$CANON" canon "$theirs" "$V" >"$WORK/theirs.canon" || exit 1
	fi
	diff <(grep ^count "$WORK/btfenc.canon") <(grep ^count "$WORK/theirs.canon")
	compare "$mode-$TARGET" "$DOCS" "$WORK/btfenc.canon" "$WORK/theirs.canon" || exit 1
	echo "OK: $mode $TARGET: $(grep -c '^FUNC ' "$WORK/btfenc.canon") FUNC," \
		"differences only where docs/pahole-differences.md allows them"
	;;
jobs)
	BTFENC=$2 WORK=$3
	mkdir -p "$WORK"
	"$BTFENC" -J -j1 --btf_features=$F131 --btf_encode_detached "$WORK/j1.btf" "$V" &&
		"$BTFENC" -J -j2 --btf_features=$F131 --btf_encode_detached "$WORK/j2.btf" "$V" ||
		exit 1
	cmp "$WORK/j1.btf" "$WORK/j2.btf" || { echo "FAIL: -j1 and -j2 differ"; exit 1; }
	echo "OK: -j1 and -j2 byte-identical ($(stat -c %s "$WORK/j1.btf") bytes)"
	# The inline sites too: their locations are read through the libdw
	# handle each worker renews now and then, at different CUs for -j1
	# and -j2.
	for j in 1 2; do
		"$BTFENC" -J -j$j --btf_features=$F131,inline.extra \
			--btf_encode_detached "$WORK/x$j.btf" "$V" || exit 1
	done
	cmp "$WORK/x1.btf" "$WORK/x2.btf" && cmp "$WORK/x1.btf.extra" "$WORK/x2.btf.extra" ||
		{ echo "FAIL: vmlinux with inline.extra: -j1 and -j2 differ"; exit 1; }
	echo "OK: vmlinux with inline.extra: -j1 and -j2 byte-identical"
	# A module's workers beyond the first read the image the first one's
	# libdwfl relocated; inline sites depend on its addresses, too.
	m=$MODDIR/${MODS[xfs]}
	for j in 1 2 3; do
		"$BTFENC" -J -j$j --btf_features=$F131,inline.extra --btf_base "$V" \
			--btf_encode_detached "$WORK/m$j.btf" "$m" || exit 1
	done
	for j in 2 3; do
		cmp "$WORK/m1.btf" "$WORK/m$j.btf" && cmp "$WORK/m1.btf.extra" "$WORK/m$j.btf.extra" ||
			{ echo "FAIL: xfs.ko: -j1 and -j$j differ"; exit 1; }
	done
	echo "OK: xfs.ko with inline.extra: -j1, -j2 and -j3 byte-identical"
	;;
libbpf)
	BTFENC=$2 LOADER=$3 WORK=$4
	mkdir -p "$WORK"
	"$BTFENC" -J -j2 --btf_features=$F131 --btf_encode_detached "$WORK/v.btf" "$V" || exit 1
	if command -v bpftool >/dev/null; then
		n=$(bpftool btf dump file "$WORK/v.btf" | grep -c '^\[') || {
			echo "FAIL: bpftool cannot dump the BTF"; exit 1; }
		echo "bpftool: $n types"
	fi
	"$LOADER" "$WORK/v.btf"
	;;
*)
	echo "unknown mode $mode" >&2
	exit 2
	;;
esac
