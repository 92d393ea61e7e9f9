#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# type_units.sh BTFENC CANON OUTDIR
#
# gcc -fdebug-types-section moves struct definitions to type units
# (.debug_types in DWARF 4, DW_UT_type units in .debug_info in DWARF 5)
# and leaves in the CU a stub holding only DW_AT_signature.  Built that
# way, a shared object must encode to the same BTF (compared by
# btf_dedup_tool canon: ids ignored) as the same source built without
# type units: no stub may become an empty anonymous struct, no variable
# may lose its size, and no .debug_types DIE may take the id of the
# .debug_info DIE at its offset (tests/fixtures/types/type_units.c), and
# sizes reached through a typedef, a qualifier or an array of a stub stay
# right (type_units_uses.c: variables, a struct passed by value, an inline
# site's enum parameter, whose `btfenc inlines` listing must not change).
# pahole 1.24 fails on these objects or drops the types, so the plain
# build is the reference.  Exit 77 = skip (no gcc).
set -u
btfenc=$1 canon=$2 out=$3
fx=$(dirname "$0")/fixtures/types
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
mkdir -p "$out"
st=0
for src in types type_units type_units_uses; do
	for dw in 4 5; do
		base=$out/$src-dw$dw
		for tu in plain tu; do
			flags="-g -O2 -gdwarf-$dw -shared -fPIC -nostdlib"
			[ $tu = tu ] && flags="$flags -fdebug-types-section"
			# shellcheck disable=SC2086
			gcc $flags -o "$base-$tu.so" "$fx/$src.c" &&
				"$btfenc" --btf_features=default,global_var,inline \
					--btf_encode_detached "$base-$tu.btf" "$base-$tu.so" &&
				"$canon" canon "$base-$tu.btf" >"$base-$tu.canon" &&
				"$btfenc" inlines "$base-$tu.btf" >"$base-$tu.inlines" ||
				{ echo "FAIL: $src DWARF $dw $tu: not encoded"; st=1; continue 2; }
		done
		if [ "$tu" = tu ] && [ "$(readelf --debug-dump=info "$base-tu.so" | grep -c DW_TAG_type_unit)" = 0 ]; then
			echo "FAIL: $src DWARF $dw: gcc made no type unit"
			st=1
		elif ! diff -u "$base-plain.canon" "$base-tu.canon" ||
			! diff -u "$base-plain.inlines" "$base-tu.inlines"; then
			echo "FAIL: $src DWARF $dw: type units change the BTF"
			st=1
		else
			echo "ok: $src DWARF $dw: $(grep -c '^STRUCT' "$base-tu.canon") STRUCT, same BTF"
		fi
	done
done
exit $st
