#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dump_vs_bpftool.sh MODE BTFENC [ARG...] - `btfenc dump` must print
# exactly what `bpftool btf dump file` prints, line for line.
#
#   fixture TESTS_DIR TEST_ROUNDTRIP
#                       BTF that gcc -g + pahole -J make from
#                       btf_lib_fixture.c, and kinds 1..19 written by
#                       btfenc's own builders (runs in CI)
#   sys                 /sys/kernel/btf/vmlinux and its module files
#   vmlinux VMLINUX MODDIR
#                       the .BTF of a vmlinux debug ELF, and modules'
#                       split .BTF on it (bpftool -B)
#   pahole131 REFDIR VMLINUX
#                       pahole 1.31's vmlinux.btf, and its module .btf
#                       files split on VMLINUX's .BTF
#   multisplit RFCDIR   the RFC's MOD.BTF.extra on MOD.BTF on vmlinux.BTF:
#                       bpftool 7.1 reads neither the location kinds nor
#                       two bases, so check the ids continue from
#                       bpftool's dump of the bases and the names resolve
#
# Exits 77 (skip) when an input or a tool is missing.

set -u

SKIP=77
mode=$1
btfenc=$2
shift 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
compared=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

skip() {
	echo "SKIP: $*"
	exit $SKIP
}

need_tool() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 not installed"
}

# compare LABEL FILE [BASE]: both dumps, the whole text.
compare() {
	label=$1
	file=$2
	base=${3:-}

	if [ -n "$base" ]; then
		"$btfenc" dump --base "$base" "$file" >"$tmp/ours" 2>"$tmp/ours.err"
		rc=$?
		bpftool btf dump file "$file" -B "$base" >"$tmp/theirs" 2>"$tmp/theirs.err"
	else
		"$btfenc" dump "$file" >"$tmp/ours" 2>"$tmp/ours.err"
		rc=$?
		bpftool btf dump file "$file" >"$tmp/theirs" 2>"$tmp/theirs.err"
	fi
	if [ $rc -ne 0 ]; then
		fail "$label: btfenc dump exited $rc: $(head -n 3 "$tmp/ours.err")"
		return
	fi
	if [ ! -s "$tmp/theirs" ]; then
		fail "$label: bpftool printed nothing: $(head -n 3 "$tmp/theirs.err")"
		return
	fi
	if ! cmp -s "$tmp/ours" "$tmp/theirs"; then
		fail "$label: dumps differ (< btfenc, > bpftool):"
		diff "$tmp/ours" "$tmp/theirs" | head -n 20
		return
	fi
	compared=$((compared + 1))
	echo "ok: $label: $(wc -l <"$tmp/ours") lines, $(grep -c '^\[' "$tmp/ours") types"
}

finish() {
	echo "$compared dump(s) equal, $fails failure(s)"
	[ $fails -eq 0 ] && [ $compared -gt 0 ]
	exit $?
}

mode_fixture() {
	tests_dir=$1
	roundtrip=$2

	need_tool bpftool
	need_tool pahole
	need_tool gcc
	# The compiler command is part of the expectation: -O1 keeps the
	# functions' parameters in DWARF, -g gives the types.
	gcc -g -O1 -c "$tests_dir/btf_lib_fixture.c" -o "$tmp/fixture.o" ||
		fail "gcc failed"
	pahole -J --btf_gen_floats --btf_encode_detached "$tmp/fixture.btf" "$tmp/fixture.o" ||
		fail "pahole failed"
	[ -s "$tmp/fixture.btf" ] || fail "pahole wrote no BTF"
	[ $fails -eq 0 ] && compare "fixture (gcc + pahole $(pahole --version))" "$tmp/fixture.btf"
	# The fixture must have produced the kinds it is there for.
	for k in INT PTR ARRAY STRUCT UNION ENUM ENUM64 FWD TYPEDEF VOLATILE CONST RESTRICT \
		 FUNC FUNC_PROTO FLOAT; do
		grep -q "^\[[0-9]*\] $k " "$tmp/ours" || fail "fixture BTF has no $k"
	done
	grep -q "bitfield_size=" "$tmp/ours" || fail "fixture BTF has no bitfield"

	"$roundtrip" write-std "$tmp/std.btf" || fail "test_roundtrip write-std failed"
	compare "kinds 1..19 written by btfenc's builders" "$tmp/std.btf"
	"$roundtrip" write-std "$tmp/std-swapped.btf" swapped || fail "write-std swapped failed"
	compare "the same in the other byte order" "$tmp/std-swapped.btf"
}

mode_sys() {
	need_tool bpftool
	[ -r /sys/kernel/btf/vmlinux ] || skip "/sys/kernel/btf/vmlinux not readable"
	compare "/sys/kernel/btf/vmlinux" /sys/kernel/btf/vmlinux
	n=0
	for m in /sys/kernel/btf/*; do
		[ "$m" = /sys/kernel/btf/vmlinux ] && continue
		[ -r "$m" ] || continue
		compare "$m" "$m" /sys/kernel/btf/vmlinux
		n=$((n + 1))
		[ $n -ge 5 ] && break
	done
}

mode_vmlinux() {
	vmlinux=$1
	moddir=$2

	need_tool bpftool
	[ -r "$vmlinux" ] || skip "$vmlinux not readable (linux-image-*-dbg not installed)"
	compare "$vmlinux (.BTF)" "$vmlinux"
	for m in lib/crc7.ko net/ipv6/tunnel6.ko net/core/drop_monitor.ko fs/xfs/xfs.ko \
		 fs/btrfs/btrfs.ko; do
		if [ -r "$moddir/$m" ]; then
			compare "$m (split on vmlinux .BTF)" "$moddir/$m" "$vmlinux"
		else
			fail "$moddir/$m missing"
		fi
	done
}

mode_pahole131() {
	ref=$1
	vmlinux=$2

	need_tool bpftool
	[ -r "$ref/vmlinux.btf" ] || skip "$ref/vmlinux.btf not found"
	compare "pahole 1.31 vmlinux.btf" "$ref/vmlinux.btf"
	# The module files are split on the debug ELF's .BTF, not on vmlinux.btf.
	if [ ! -r "$vmlinux" ]; then
		echo "note: $vmlinux not readable: module .btf files not compared"
		return
	fi
	for m in crc7 tunnel6 ipvtap drop_monitor xfs btrfs; do
		compare "pahole 1.31 $m.btf" "$ref/$m.btf" "$vmlinux"
	done
}

# last_id FILE: id of the last type block in a dump.
last_id() {
	grep '^\[' "$1" | tail -n 1 | sed 's/^\[\([0-9]*\)\].*/\1/'
}

# kind_of ID DUMP...: kind of type ID in whichever dump holds it.
kind_of() {
	id=$1
	shift
	cat "$@" | sed -n "s/^\[$id\] \([A-Z_0-9]*\) .*/\1/p" | head -n 1
}

check_multisplit() {
	rfc=$1
	mod=$2

	compare "RFC $mod.BTF (split on vmlinux.BTF)" "$rfc/$mod.BTF" "$rfc/vmlinux.BTF"
	bpftool btf dump file "$rfc/vmlinux.BTF" >"$tmp/vmlinux.dump" || fail "bpftool vmlinux.BTF"
	cp "$tmp/theirs" "$tmp/mod.dump"
	if ! "$btfenc" dump --base "$rfc/vmlinux.BTF" --base "$rfc/$mod.BTF" \
	     "$rfc/$mod.BTF.extra" >"$tmp/extra.dump" 2>"$tmp/extra.err"; then
		fail "$mod.BTF.extra: btfenc dump failed: $(head -n 3 "$tmp/extra.err")"
		return
	fi
	first=$(head -n 1 "$tmp/extra.dump" | sed 's/^\[\([0-9]*\)\].*/\1/')
	exp=$(($(last_id "$tmp/mod.dump") + 1))
	[ "$first" = "$exp" ] || fail "$mod.BTF.extra: first id [$first], expected [$exp]"
	if grep -q "(invalid)" "$tmp/extra.dump"; then
		fail "$mod.BTF.extra: unresolved names:"
		grep -m 3 "(invalid)" "$tmp/extra.dump"
	fi
	nsec=$(grep -c "^\[[0-9]*\] LOCSEC " "$tmp/extra.dump")
	nsites=$(grep -c "func_proto_type_id=" "$tmp/extra.dump")
	[ "$nsec" -gt 0 ] && [ "$nsites" -gt 0 ] || fail "$mod.BTF.extra: no LOCSEC sites"
	# A few sites: named, their FUNC_PROTO found down the chain (vmlinux,
	# module or the .extra itself) and their LOC_PROTO in the .extra.
	grep "func_proto_type_id=" "$tmp/extra.dump" | awk 'NR % 97 == 1' | head -n 8 |
	while read -r name fp lp off; do
		fp=${fp#func_proto_type_id=}
		lp=${lp#loc_proto_type_id=}
		k=$(kind_of "$fp" "$tmp/vmlinux.dump" "$tmp/mod.dump" "$tmp/extra.dump")
		[ "$k" = FUNC_PROTO ] || echo "site $name: [$fp] is '$k', not FUNC_PROTO"
		k=$(kind_of "$lp" "$tmp/extra.dump")
		[ "$k" = LOC_PROTO ] || echo "site $name: [$lp] is '$k', not LOC_PROTO"
		[ "$name" != "'(anon)'" ] || echo "site at $off has no name"
	done >"$tmp/sites.err"
	if [ -s "$tmp/sites.err" ]; then
		fail "$mod.BTF.extra: sites do not resolve:"
		cat "$tmp/sites.err"
	else
		compared=$((compared + 1))
		echo "ok: $mod.BTF.extra on $mod.BTF on vmlinux.BTF: starts at [$first]," \
		     "$nsec LOCSEC(s), $nsites sites, names resolve"
	fi
}

mode_multisplit() {
	rfc=$1

	need_tool bpftool
	[ -r "$rfc/vmlinux.BTF" ] || skip "$rfc/vmlinux.BTF not found"
	check_multisplit "$rfc" xfs
	check_multisplit "$rfc" drop_monitor
}

case "$mode" in
fixture | sys | vmlinux | pahole131 | multisplit)
	"mode_$mode" "$@"
	;;
*)
	echo "usage: $0 fixture|sys|vmlinux|pahole131|multisplit BTFENC [ARG...]" >&2
	exit 2
	;;
esac
finish
