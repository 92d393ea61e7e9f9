#!/usr/bin/env bash
# Every spelling of pahole's command line that kbuild uses (Makefile.btf,
# link-vmlinux.sh, Makefile.modfinal, gen-btf.sh for pahole >= 1.26) and
# its effect, read back from -V ("btfenc: jobs=N features=LIST").
#
# cli_flags.sh progress BTFENC VMLINUX: the progress line ("N/M CUs") shows
# on a terminal (a pty from script(1)) in a run over 2 s, and never when
# stderr is a pipe or a file, or under make (MAKEFLAGS).  Skips (77)
# without the vmlinux.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # name, status
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}

if [ "$1" = progress ]; then
	BTFENC=$2
	V=$3
	[ -r "$V" ] && command -v script >/dev/null || { echo "SKIP: no $V or script(1)"; exit 77; }
	# The line shows after 2 s of decoding; -j2 decodes vmlinux in ~1.3 s
	# now.  One worker with inline sites, all on one CPU: ~3.5 s.
	pin=
	command -v taskset >/dev/null && pin="taskset -c 0"
	run="$pin $BTFENC -j1 --btf_features=default,inline.extra --btf_encode_detached $T/v.btf $V"
	script -qec "$run" /dev/null >"$T/tty"
	check "pty: encode succeeds" $?
	tr '\r' '\n' <"$T/tty" | grep -Eq '^btfenc: ([0-9]+)/\1 CUs' && grep -Eq 'btfenc: [0-9]+/[0-9]+ CUs' "$T/tty"
	check "pty: progress line, ending at total/total" $?
	script -qec "$run 2>&1 | cat" /dev/null >"$T/pipe"
	! grep -q "CUs" "$T/pipe"; check "stderr a pipe: no progress line" $?
	script -qec "MAKEFLAGS=-j2 $run" /dev/null >"$T/make"
	! grep -q "CUs" "$T/make"; check "under make (MAKEFLAGS): no progress line" $?
	exit $fail
fi
BTFENC=$1
DEMO=$2
DEFAULT=encode_force,var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func,decl_tag_kfuncs
cp "$DEMO" "$T/obj"
# The features and jobs one command line selects (it encodes $T/obj).
feat() { "$BTFENC" -V "$@" "$T/obj" 2>&1 | sed -n 's/^btfenc: jobs=[0-9]* features=//p'; }
jobs() { "$BTFENC" -V "$@" "$T/obj" 2>&1 | sed -n 's/^btfenc: jobs=\([0-9]*\) .*/\1/p'; }

# scripts/pahole-version.sh: `pahole --version | sed -E 's/v([0-9]+)\.([0-9]+)/\1\2/'`
[ "$("$BTFENC" --version | sed -E 's/v([0-9]+)\.([0-9]+)/\1\2/')" = 131 ]
check "pahole-version.sh logic yields 131" $?
[ "$("$BTFENC" --version)" = v1.31 ]; check "--version is exactly v1.31" $?
ver=$(sed -n 's/.*project(btfenc VERSION \([0-9.]*\).*/\1/p' "$(dirname "$0")/../CMakeLists.txt")
"$BTFENC" --help | head -1 | grep -q "btfenc $ver"; check "--help names btfenc $ver" $?
"$BTFENC" -V -J "$T/obj" 2>&1 | grep -q "^btfenc $ver "; check "-V names btfenc $ver" $?
sup=$("$BTFENC" --supported_btf_features)
for f in ${DEFAULT//,/ } reproducible_build distilled_base global_var attributes inline; do
	echo ",$sup," | grep -q ",$f,"; check "--supported_btf_features lists $f" $?
done

# Features.
[ "$(feat -J)" = var,decl_tag,type_tag,enum64 ]; check "no --btf_features: pahole's legacy set" $?
[ "$(feat -J --btf_features=default)" = "$DEFAULT" ]; check "'default' is pahole's default set" $?
[ "$(feat -J --btf_gen_floats --skip_encoding_btf_vars --btf_features=type_tag)" = type_tag ]
check "the first --btf_features clears what legacy flags set" $?
[ "$(feat -J --btf_features=var --btf_features=float,enum64)" = var,float,enum64 ]
check "--btf_features given several times adds up" $?
[ "$(feat -J --btf_features=+inline)" = "$DEFAULT,inline" ]; check "'+name' is default plus name" $?
"$BTFENC" -V -J --btf_features=+inline,var "$T/obj" 2>&1 | grep -q "unknown"
[ $? -ne 0 ]; check "'+name' consumes exactly its name (no stray unknown feature)" $?
[ "$(feat -J --btf_features=+distilled_base)" = "$DEFAULT,distilled_base" ]
check "distilled_base is a feature (no --btf_base: ignored, as pahole)" $?
[ "$(feat -J --btf_features=var,no_such_thing)" = var ]; check "unknown names are ignored" $?
# Makefile.btf, pahole >= 1.30 with the seeds' inline.extra, and 1.31's layout.
[ "$(feat -J -j --btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs --btf_features=attributes --lang_exclude=rust)" = "$DEFAULT,attributes" ]
check "Makefile.btf (1.26-1.30) flags" $?
[ "$(feat -J --btf_features=default --btf_features=inline.extra)" = "$DEFAULT,inline.extra" ]
check "inline.extra (seed 008)" $?
[ "$(feat -J --btf_features=default --btf_features=layout)" = "$DEFAULT,layout" ]; check "--btf_features=layout (Makefile.btf, 1.31)" $?
"$BTFENC" -J --btf_features_strict=var,no_such_thing "$T/obj" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "no_such_thing" "$T/err" && grep -q "encode_force,var,float" "$T/err"
check "--btf_features_strict: unknown name is exit 1, lists supported features" $?
[ "$(feat -J --btf_features_strict=var,float)" = var,float ]; check "--btf_features_strict with known names" $?
# Legacy (pahole < 1.26) spellings map to features.
[ "$(feat -J --skip_encoding_btf_vars)" = decl_tag,type_tag,enum64 ]; check "--skip_encoding_btf_vars" $?
[ "$(feat -J --skip_encoding_btf_decl_tag --skip_encoding_btf_type_tag --skip_encoding_btf_enum64)" = var ]
check "--skip_encoding_btf_{decl_tag,type_tag,enum64}" $?
[ "$(feat -J --btf_gen_floats --btf_gen_optimized --skip_encoding_btf_inconsistent_proto)" = var,float,decl_tag,type_tag,enum64,optimized_func,consistent_func ]
check "--btf_gen_floats --btf_gen_optimized --skip_encoding_btf_inconsistent_proto" $?

# Jobs: bare -j is CPUs x 1.1 (as pahole); -jN and --jobs=N are N.
ncpu=$(nproc); want=$((ncpu * 11 / 10)); [ $want -gt $ncpu ] || want=$ncpu
[ "$(jobs -J)" = 1 ]; check "no -j: one thread" $?
[ "$(jobs -J -j)" = $want ]; check "bare -j: $want threads on $ncpu CPUs" $?
[ "$(jobs -J -j3)" = 3 ]; check "-j3" $?
[ "$(jobs -J --jobs=3)" = 3 ]; check "--jobs=3" $?
[ "$(jobs -J --jobs)" = $want ]; check "bare --jobs" $?
"$BTFENC" -J -jx "$T/obj" 2>/dev/null; [ $? -eq 2 ]; check "-jx: exit 2" $?

# Other flags.
LLVM_OBJCOPY=/nonexistent/objcopy "$BTFENC" -J "$T/obj"; check "LLVM_OBJCOPY in the environment" $?
"$BTFENC" -J --lang_exclude=rust "$T/obj"; check "--lang_exclude=rust" $?
"$BTFENC" -J --lang_exclude=c "$T/obj" 2>/dev/null; [ $? -eq 2 ]; check "--lang_exclude=c: exit 2" $?
cp "$T/obj" "$T/obj.orig"
"$BTFENC" --btf_encode_detached "$T/a.btf" "$T/obj" && [ -s "$T/a.btf" ]
check "--btf_encode_detached FILE" $?
"$BTFENC" --btf_encode_detached="$T/b.btf" "$T/obj" && cmp -s "$T/a.btf" "$T/b.btf"
check "--btf_encode_detached=FILE" $?
# gen-btf.sh: -J with --btf_encode_detached= writes the file, not the input.
rm -f "$T/b.btf"; "$BTFENC" -J -j --btf_features=default --btf_encode_detached="$T/b.btf" "$T/obj" &&
	[ -s "$T/b.btf" ] && cmp -s "$T/obj" "$T/obj.orig"
check "-J --btf_encode_detached= (gen-btf.sh) leaves the input alone" $?
"$BTFENC" -J --btf_base "$T/obj" --btf_features=default --btf_encode_detached "$T/c.btf" "$T/obj" &&
	"$BTFENC" dump --base "$T/obj" "$T/c.btf" >/dev/null
check "--btf_base FILE: split BTF that dumps on its base" $?
"$BTFENC" -J --btf_base="$T/obj" --btf_encode_detached="$T/d.btf" "$T/obj" && cmp -s "$T/c.btf" "$T/d.btf"
check "--btf_base=FILE" $?

# Usage errors are exit 2.
"$BTFENC" -J --no_such_option "$T/obj" 2>/dev/null; [ $? -eq 2 ]; check "unknown option: exit 2" $?
"$BTFENC" -J 2>/dev/null; [ $? -eq 2 ]; check "no input: exit 2" $?
"$BTFENC" -J "$T/obj" "$T/obj" 2>/dev/null; [ $? -eq 2 ]; check "two inputs: exit 2" $?
"$BTFENC" "$T/obj" 2>/dev/null; [ $? -eq 2 ]; check "neither -J nor --btf_encode_detached: exit 2" $?
"$BTFENC" -J -j 3 "$T/obj" 2>/dev/null; [ $? -eq 2 ]
check "-j 3 (separate) is bare -j plus a second input, as getopt and pahole: exit 2" $?
exit $fail
