#!/usr/bin/env bash
# The kernel build's BTF steps, as the seeds' shell runs them, with
# PAHOLE=btfenc and the real objcopy, on fixture objects:
#
#   gen_btf()           scripts/link-vmlinux.sh with seed 008 (.BTF.extra)
#                       and seed 009 (BTF_EXTRA=m: .BTF.extra leaves
#                       vmlinux for btf_extra.ko);
#   cmd_btf_ko          scripts/Makefile.modfinal with seed 009, for
#                       btf_extra.ko and for an in-tree module;
#   KBUILD_EXTMOD       Makefile.btf's --btf_features=distilled_base:
#                       .BTF on .BTF.base, relocated back onto vmlinux by
#                       btfenc's btf__relocate() (test_distill module).
#
# usage: kbuild_steps.sh BTFENC TEST_DISTILL FIXTURE_DIR BTF_EXTRA(y|m)
set -u
BTFENC=$1
TEST_DISTILL=$2
FIX=$3
MODE=$4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fail=0
check() { # name, status
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}

PAHOLE=$BTFENC
OBJCOPY=objcopy
# Makefile.btf for pahole >= 1.30 with seed 008/009, in-tree.
PAHOLE_FLAGS="-j --btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs --btf_features=attributes --btf_features=inline.extra --lang_exclude=rust"
BTF_EXTRA=$MODE
VMLINUX_BTF_EXTRA=.tmp_vmlinux_btf_extra
export PAHOLE_FLAGS BTF_EXTRA VMLINUX_BTF_EXTRA

info() { printf "  %-7s %s\n" "$1" "$2"; }
is_enabled() { false; } # CONFIG_CPU_BIG_ENDIAN: the fixtures are the host's

# scripts/link-vmlinux.sh gen_btf(), seeds 008 + 009, verbatim but for
# the blank lines.
gen_btf()
{
	local btf_data=${1}.btf.o
	local btf_extra_flags=

	info BTF "${btf_data}"
	LLVM_OBJCOPY="${OBJCOPY}" ${PAHOLE} -J ${PAHOLE_FLAGS} ${1}
	if [ -n "${BTF_EXTRA}" ]; then
		btf_extra_flags="--only-section=.BTF.extra --set-section-flags .BTF.extra=alloc,readonly"
	fi
	${OBJCOPY} --only-section=.BTF --set-section-flags .BTF=alloc,readonly \
		${btf_extra_flags} --strip-all ${1} "${btf_data}" 2>/dev/null
	if is_enabled CONFIG_CPU_BIG_ENDIAN; then
		et_rel='\0\1'
	else
		et_rel='\1\0'
	fi
	printf "${et_rel}" | dd of="${btf_data}" conv=notrunc bs=1 seek=16 status=none
	if [ "$BTF_EXTRA" = "m" ]; then
		$OBJCOPY -O binary --only-section=.BTF.extra ${btf_data} ${VMLINUX_BTF_EXTRA}
		$OBJCOPY --remove-section=.BTF.extra ${btf_data}
	fi
	btf_vmlinux_bin_o=${btf_data}
}

# Makefile.modfinal cmd_btf_ko with seed 009 ($@ is the module).
btf_ko()
{
	local m=$1
	if [ ! -f vmlinux ]; then
		printf "Skipping BTF generation for %s due to unavailability of vmlinux\n" $m 1>&2
	elif [ $m == "kernel/bpf/btf_extra.ko" ]; then
		${OBJCOPY} --add-section .BTF.extra=${VMLINUX_BTF_EXTRA} \
			--set-section-flags .BTF.extra=alloc,readonly $m
	else
		LLVM_OBJCOPY="$OBJCOPY" $PAHOLE -J $PAHOLE_FLAGS ${MODULE_PAHOLE_FLAGS:-} --btf_base vmlinux $m
	fi
}

sec_flags() { # file section -> readelf's flag letters
	readelf -SW "$1" 2>/dev/null | awk -v s="$2" '$2 == s { print $8 } $3 == s { print $9 }'
}

gcc -O2 -g -no-pie -o vmlinux "$FIX/kern.c" || exit 1
gcc -O2 -g -c -o mod.o "$FIX/mod.c" && ld -r -o mod.ko mod.o || exit 1
mkdir -p kernel/bpf && gcc -O2 -g -c -o kernel/bpf/btf_extra.ko "$FIX/btf_extra.c" || exit 1
cp mod.ko mod_ext.ko
cp vmlinux vmlinux.orig

# ---- vmlinux ----
gen_btf vmlinux
check "gen_btf: pahole step and objcopy succeed" $?
[ "$(od -An -tx1 -j16 -N2 vmlinux.btf.o | tr -d ' ')" = 0100 ]; check "e_type patched to ET_REL" $?
readelf -h vmlinux.btf.o 2>/dev/null | grep -q "REL (Relocatable file)"; check "readelf sees ET_REL" $?
sec_flags vmlinux.btf.o .BTF | grep -q A; check ".BTF is SHF_ALLOC" $?
[ -z "$(readelf -sW vmlinux.btf.o 2>/dev/null | awk '$8 != "" && $8 != "Name" && NR > 3')" ]; check "--strip-all: no symbols" $?
"$BTFENC" dump --check vmlinux.btf.o; check ".BTF of vmlinux.btf.o validates" $?
objcopy --dump-section .BTF=btf.a vmlinux vmlinux.x && objcopy --dump-section .BTF=btf.b vmlinux.btf.o vmlinux.y &&
	cmp -s btf.a btf.b
check ".BTF in vmlinux.btf.o is the encoder's, byte for byte" $?
objcopy --dump-section .BTF.extra=extra.a vmlinux vmlinux.x; check "vmlinux has .BTF.extra" $?
"$BTFENC" dump --check --base vmlinux --section .BTF.extra vmlinux; check ".BTF.extra validates on .BTF" $?
"$BTFENC" dump --base vmlinux --section .BTF.extra vmlinux | grep -q "^\[[0-9]*\] LOCSEC 'inline' vlen=[1-9]"
check ".BTF.extra has the inline LOCSEC" $?
if [ "$MODE" = y ]; then
	sec_flags vmlinux.btf.o .BTF.extra | grep -q A; check "y: .BTF.extra is SHF_ALLOC in vmlinux.btf.o" $?
	objcopy --dump-section .BTF.extra=extra.b vmlinux.btf.o vmlinux.y && cmp -s extra.a extra.b
	check "y: .BTF.extra in vmlinux.btf.o is the encoder's" $?
	"$BTFENC" dump --check --base vmlinux.btf.o --section .BTF.extra vmlinux.btf.o
	check "y: .BTF.extra of vmlinux.btf.o validates" $?
	[ ! -e "$VMLINUX_BTF_EXTRA" ]; check "y: no $VMLINUX_BTF_EXTRA" $?
else
	! readelf -SW vmlinux.btf.o 2>/dev/null | grep -q '\.BTF\.extra'; check "m: .BTF.extra removed from vmlinux.btf.o" $?
	cmp -s extra.a "$VMLINUX_BTF_EXTRA"; check "m: objcopy -O binary gives the .BTF.extra bytes" $?
	"$BTFENC" dump --check --base vmlinux.btf.o "$VMLINUX_BTF_EXTRA"
	check "m: $VMLINUX_BTF_EXTRA validates on vmlinux.btf.o" $?
fi
# The linker keeps .BTF (and .BTF.extra) of the patched object.
echo 'int linked_fn(void) { return 1; }' >other.c && gcc -c -o other.o other.c &&
	ld -r -o linked.o other.o vmlinux.btf.o && objcopy --dump-section .BTF=btf.c linked.o linked.x &&
	cmp -s btf.a btf.c
check "ld -r links vmlinux.btf.o, .BTF unchanged" $?

# ---- modules (Makefile.modfinal) ----
if [ "$MODE" = m ]; then
	btf_ko kernel/bpf/btf_extra.ko
	check "m: btf_extra.ko gets .BTF.extra" $?
	objcopy --dump-section .BTF.extra=extra.c kernel/bpf/btf_extra.ko x.ko && cmp -s extra.a extra.c
	check "m: .BTF.extra re-added to btf_extra.ko reads back the same bytes" $?
	sec_flags kernel/bpf/btf_extra.ko .BTF.extra | grep -q A; check "m: ... and is SHF_ALLOC" $?
	"$BTFENC" dump --base vmlinux --section .BTF.extra kernel/bpf/btf_extra.ko >d1 &&
		"$BTFENC" dump --base vmlinux --section .BTF.extra vmlinux >d2 && cmp -s d1 d2
	check "m: btf_extra.ko's .BTF.extra dumps as vmlinux's" $?
	"$BTFENC" dump --check --base vmlinux --section .BTF.extra kernel/bpf/btf_extra.ko
	check "m: btf_extra.ko's .BTF.extra validates" $?
fi
# In-tree module, with inline.extra as seed 009 passes it: .BTF split on
# vmlinux, .BTF.extra split on the module's .BTF (multi-split).
btf_ko mod.ko
check "module: pahole -J --btf_base vmlinux" $?
"$BTFENC" dump --check --base vmlinux mod.ko; check "module: .BTF validates on vmlinux" $?
"$BTFENC" dump --check --base vmlinux --base mod.ko --section .BTF.extra mod.ko
check "module: .BTF.extra validates on vmlinux + module .BTF" $?
"$BTFENC" dump --base vmlinux --base mod.ko --section .BTF.extra mod.ko |
	grep -q "^\[[0-9]*\] LOCSEC 'inline' vlen=[1-9]"
check "module: .BTF.extra has inline sites" $?
"$BTFENC" dump --base vmlinux mod.ko | grep -q "STRUCT 'mod_priv'"; check "module: has its own struct" $?
! "$BTFENC" dump --base vmlinux mod.ko | grep -q "STRUCT 'device'"; check "module: vmlinux's types stay in vmlinux" $?

# ---- external module: distilled base ----
# (distilled_base with inline.extra is refused: kbuild never asks for both.)
PAHOLE_FLAGS=${PAHOLE_FLAGS/ --btf_features=inline.extra/}
MODULE_PAHOLE_FLAGS=--btf_features=distilled_base
cp mod_ext.ko mod_full.ko
"$PAHOLE" $PAHOLE_FLAGS --btf_base vmlinux --btf_encode_detached full.btf mod_full.ko
check "external module: undistilled split BTF (detached)" $?
btf_ko mod_ext.ko
check "external module: pahole -J ... --btf_features=distilled_base" $?
objcopy --dump-section .BTF.base=base.btf mod_ext.ko x.ko; check "external module: .BTF.base written" $?
"$BTFENC" dump --check base.btf && "$BTFENC" dump --check --base base.btf mod_ext.ko
check "external module: .BTF.base and .BTF on it validate" $?
"$TEST_DISTILL" module vmlinux full.btf mod_ext.ko
check "external module: relocated onto vmlinux = undistilled" $?

# A vmlinux with inline sites in .BTF: relocation skips its location kinds.
cp vmlinux.orig vmlinux
"$PAHOLE" -J --btf_features=default,inline vmlinux
gcc -O2 -g -c -o mod.o "$FIX/mod.c" && ld -r -o mod_loc.ko mod.o && cp mod_loc.ko mod_loc_full.ko
"$PAHOLE" --btf_features=default --btf_base vmlinux --btf_encode_detached full_loc.btf mod_loc_full.ko &&
	"$PAHOLE" -J --btf_features=default,distilled_base --btf_base vmlinux mod_loc.ko &&
	"$TEST_DISTILL" module vmlinux full_loc.btf mod_loc.ko
check "external module on a vmlinux with inline sites in .BTF" $?
exit $fail
