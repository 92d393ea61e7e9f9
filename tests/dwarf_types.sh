#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dwarf_types.sh TEST_BIN OUTDIR NAME CC [CFLAGS...]
#
# Compiles tests/fixtures/types/types.c with CC CFLAGS (the command is
# printed, so a failure can be reproduced), then runs test_dwarf_types
# on the object: the fixture's known types, and pahole's BTF of the same
# object when pahole is installed.  CFLAGS containing -shared link a
# shared object instead of a relocatable one, read in place (not
# relocated), where the libdw handle is also renewed after each CU, as the
# encoder's workers do now and then (--renew).  Each CU is also decoded
# split on the object's .debug_str, as the workers do, and compared
# (--str-base).  Exit 77 = skip.
set -e
bin=$1 out=$2 name=$3 cc=$4
shift 4
src=$(dirname "$0")/fixtures/types/types.c
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no $cc"; exit 77; }
mkdir -p "$out"
obj="$out/$name.o"
renew=
case " $* " in
*" -shared "*) set -- "$@" -fPIC -nostdlib -o "$obj" "$src"; renew="--renew 1" ;;
*) set -- "$@" -c -o "$obj" "$src" ;;
esac
echo "+ $cc $*"
"$cc" "$@"
ref=
# Type units (-fdebug-types-section): pahole 1.24 loses the types gcc
# moved there (an empty struct, or a failed dedup), so only the source
# is the reference.
case " $* " in
*" -fdebug-types-section "*) exec "$bin" --fixture --float $renew --str-base "$obj" ;;
esac
if command -v pahole >/dev/null 2>&1; then
	# pahole 1.24 without --btf_gen_floats encodes floats as INT.
	echo "+ pahole -J --btf_encode_detached $out/$name.btf $obj"
	rm -f "$out/$name.btf"
	pahole -J --btf_encode_detached "$out/$name.btf" "$obj"
	ref="--ref $out/$name.btf"
	"$bin" --fixture --float $renew --str-base "$obj"
	exec "$bin" $ref "$obj"
fi
exec "$bin" --fixture --float $renew --str-base "$obj"
