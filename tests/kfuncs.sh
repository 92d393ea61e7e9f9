#!/bin/sh
# kfuncs.sh BTFENC TEST_KFUNCS FIXTURE.c obj|shared
#
# Builds the kfunc fixture (tests/fixtures/kfuncs/kfuncs.c: a .BTF_ids
# section as the kernel's btf_ids.h macros lay it out) and checks what
# btfenc writes for it under several feature sets:
#   - decl_tag_kfuncs + decl_tag: DECL_TAG bpf_kfunc on exactly the FUNCs
#     in kfunc sets, bpf_fastcall on the KF_FASTCALL one;
#   - + attributes: the KF_ARENA_RET / KF_ARENA_ARG2 kfunc returns and
#     takes pointers to address_space(1) attributes, the others unchanged;
#   - no decl_tag: no tags, arena attributes still (pahole's rule);
#   - no decl_tag_kfuncs, or pahole's legacy mode: nothing of the above;
#   - the set of FUNCs never depends on it.
# Exit 77 (skip) without gcc.
set -u
btfenc=$1 tool=$2 src=$3 kind=$4
command -v gcc >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

case $kind in
obj) gcc -g -O2 -c -o "$work/fix" "$src" || fail "gcc" ;;
shared) gcc -g -O2 -shared -fPIC -o "$work/fix" "$src" || fail "gcc" ;;
*) fail "unknown kind $kind" ;;
esac

KBUILD=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func
# encode FEATURES NAME: raw BTF of the fixture, described by test_kfuncs.
encode() {
	if [ -n "$1" ]; then
		"$btfenc" --btf_encode_detached "$work/$2.btf" --btf_features="$1" "$work/fix" ||
			fail "btfenc --btf_features=$1"
	else
		"$btfenc" --btf_encode_detached "$work/$2.btf" "$work/fix" || fail "btfenc (legacy)"
	fi
	"$tool" "$work/$2.btf" >"$work/$2.txt" || fail "test_kfuncs $2"
}

encode "$KBUILD,decl_tag_kfuncs" kfuncs
encode "$KBUILD,decl_tag_kfuncs,attributes" attrs
encode "encode_force,var,float,enum64,type_tag,optimized_func,consistent_func,decl_tag_kfuncs,attributes" notags
encode "$KBUILD,attributes" nokfuncs
encode "" legacy

cat >"$work/want_tags" <<'X'
tag bpf_fix_acquire bpf_kfunc
tag bpf_fix_arena bpf_kfunc
tag bpf_fix_fast bpf_fastcall
tag bpf_fix_fast bpf_kfunc
tag bpf_fix_static bpf_kfunc
X
tags() { grep '^tag ' "$work/$1.txt" | sort; }
tags kfuncs | diff -u "$work/want_tags" - || fail "kfunc tags (decl_tag_kfuncs)"
tags attrs | diff -u "$work/want_tags" - || fail "kfunc tags (with attributes)"
for m in notags nokfuncs legacy; do
	[ -z "$(tags $m)" ] || fail "$m: unexpected tags: $(tags $m)"
done

# The FUNCs themselves, names only, are the same in every mode.
funcs() { awk '$1 == "func" { print $2 }' "$work/$1.txt"; }
funcs kfuncs >"$work/want_funcs"
for f in bpf_fix_acquire bpf_fix_arena bpf_fix_fast bpf_fix_static \
	fix_in_plain_set8 fix_in_id_list fix_unlisted; do
	grep -qx "$f" "$work/want_funcs" || fail "FUNC $f missing"
done
for m in attrs notags nokfuncs legacy; do
	funcs $m | diff -u "$work/want_funcs" - || fail "$m: FUNCs differ"
done

arena_plain='func bpf_fix_arena *void (*struct fix_obj, *long int, unsigned int)'
arena_attr='func bpf_fix_arena *attr(address_space(1)) void (*struct fix_obj, *attr(address_space(1)) long int, unsigned int)'
proto() { grep "^func $2 " "$work/$1.txt"; }
for m in kfuncs nokfuncs legacy; do
	[ "$(proto $m bpf_fix_arena)" = "$arena_plain" ] ||
		fail "$m: bpf_fix_arena is '$(proto $m bpf_fix_arena)'"
done
for m in attrs notags; do
	[ "$(proto $m bpf_fix_arena)" = "$arena_attr" ] ||
		fail "$m: bpf_fix_arena is '$(proto $m bpf_fix_arena)'"
done
# Only the arena kfunc's prototype changes.
grep '^func' "$work/kfuncs.txt" | grep -v ' bpf_fix_arena ' >"$work/want_protos"
grep '^func' "$work/attrs.txt" | grep -v ' bpf_fix_arena ' | diff -u "$work/want_protos" - ||
	fail "attributes changed other prototypes"
[ "$(grep -c 'attr(' "$work/attrs.txt")" = 1 ] || fail "attributes outside bpf_fix_arena"

# libbpf (bpftool) reads the tagged BTF too.
if command -v bpftool >/dev/null; then
	bpftool btf dump file "$work/kfuncs.btf" | grep -q "DECL_TAG 'bpf_fastcall'" ||
		fail "bpftool does not see the bpf_fastcall tag"
fi
echo "kfuncs $kind: ok"
