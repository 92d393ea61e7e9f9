#!/usr/bin/env bash
# End-to-end checks of the encoder command line on the built-in example:
# pahole-compatible flags, in-place and detached output, determinism for
# any -j, libbpf/bpftool acceptance, inline sites listed, bad input.
set -u
BTFENC=$1
DEMO=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { # name, condition status
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}

[ "$("$BTFENC" --version)" = "v1.31" ]; check "--version prints v1.31" $?
[ "$("$BTFENC" --numeric_version)" = "131" ]; check "--numeric_version prints 131" $?
"$BTFENC" --supported_btf_features | tr ',' '\n' | grep -qx inline
check "--supported_btf_features lists inline" $?

# Every spelling kbuild uses is accepted (pahole >= 1.26 Makefile.btf).
cp "$DEMO" "$T/k"
LLVM_OBJCOPY=objcopy "$BTFENC" -J -j2 \
	--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs \
	--btf_features=attributes --btf_features_strict=reproducible_build --lang_exclude=rust "$T/k"
check "kbuild flag spellings accepted" $?
"$BTFENC" -J -j --skip_encoding_btf_vars --btf_gen_floats --skip_encoding_btf_enum64 \
	--btf_gen_optimized --skip_encoding_btf_inconsistent_proto "$T/k"
check "legacy flags and bare -j accepted" $?
"$BTFENC" -J --btf_features_strict=no_such_feature "$T/k" 2>/dev/null
[ $? -ne 0 ]; check "strict rejects an unknown feature" $?
"$BTFENC" -J --btf_features=no_such_feature "$T/k"
check "non-strict ignores an unknown feature" $?
"$BTFENC" -V -J --btf_features=+inline "$T/k" 2>"$T/v"
grep -q "features=encode_force.*consistent_func.*inline" "$T/v"
check "+name adds to the default set" $?

# In place, with .BTF.extra; bpftool (libbpf) parses .BTF.
cp "$DEMO" "$T/demo"
"$BTFENC" -J --btf_features=default,inline.extra "$T/demo"
check "-J with inline.extra" $?
readelf -S "$T/demo" | grep -q ' \.BTF\.extra '; check ".BTF.extra section present" $?
bpftool btf dump file "$T/demo" >/dev/null; check "libbpf parses .BTF" $?
"$BTFENC" dump "$T/demo" | grep -q "FUNC 'main'"; check ".BTF has FUNC main" $?
"$BTFENC" inlines "$T/demo" >"$T/sites"
check "inlines runs" $?
for f in clamp scale fill; do
	grep -q " $f(" "$T/sites"; check "inline site of $f listed" $?
done
grep -q "^main+0x" "$T/sites"; check "sites are named by the containing function" $?
"$BTFENC" inlines --json "$T/demo" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d and all("params" in s for s in d)'
check "inlines --json is valid JSON" $?
"$BTFENC" stats "$T/demo" | grep -q "^sites: [1-9]"; check "stats counts sites" $?

# Same bytes for any -j; detached equals the in-place sections.
"$BTFENC" --btf_encode_detached "$T/j1.btf" -j1 --btf_features=default,inline.extra "$DEMO" &&
	"$BTFENC" --btf_encode_detached "$T/j2.btf" -j2 --btf_features=default,inline.extra "$DEMO"
check "detached encode" $?
cmp -s "$T/j1.btf" "$T/j2.btf" && cmp -s "$T/j1.btf.extra" "$T/j2.btf.extra"
check "-j1 and -j2 give identical bytes" $?
objcopy --dump-section .BTF="$T/sec.btf" "$T/demo" "$T/demo.copy"
cmp -s "$T/sec.btf" "$T/j1.btf"; check "detached .BTF equals the -J section" $?
"$BTFENC" dump --base "$T/j1.btf" "$T/j1.btf.extra" | grep -q "^\[[0-9]*\] LOCSEC 'inline'"
check "dump --base shows the LOCSEC of .BTF.extra" $?

# malloc on huge pages (cmd/malloc_thp.c): on for an input of 64 MB or
# more where the kernel gives huge pages to advised memory only and glibc
# has the tunable (2.35), off for a small one or when asked, the same
# bytes either way.  The user's environment is left out.
thp=no
v=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null &&
	[ "$(printf '%s\n2.35\n' "$v" | sort -V | head -1)" = 2.35 ] && thp=yes
head -c $((64 << 20)) /dev/zero >"$T/pad"
objcopy --add-section .pad="$T/pad" "$DEMO" "$T/big"
enc() { env -u BTFENC_NO_THP -u GLIBC_TUNABLES "$@" 2>"$T/v"; }
enc "$BTFENC" -V --btf_encode_detached "$T/thp.btf" "$T/big"
grep -q "malloc on huge pages: $thp" "$T/v"; check "-V, 64 MB input: malloc on huge pages: $thp" $?
# ASan's allocator takes no thresholds: mallopt() fails there, and -V says so.
tuned="large input"
{ ldd "$BTFENC" | grep -q libasan || nm "$BTFENC" | grep -q __asan_init; } 2>/dev/null && tuned=default
grep -q "thresholds: $tuned\$" "$T/v"; check "-V, 64 MB input: malloc thresholds: $tuned" $?
enc "$BTFENC" -V --btf_encode_detached "$T/small.btf" "$DEMO"
grep -q "malloc on huge pages: no" "$T/v"; check "a small input: no huge pages" $?
grep -q "thresholds: default" "$T/v"; check "a small input: malloc's default thresholds" $?
enc GLIBC_TUNABLES=glibc.malloc.top_pad=131072 "$BTFENC" -V --btf_encode_detached "$T/tp.btf" "$T/big"
grep -q "thresholds: large input, the user's kept" "$T/v"
check "a malloc threshold set by the user is kept" $?
enc MALLOC_TRIM_THRESHOLD_=131072 "$BTFENC" -V --btf_encode_detached "$T/tt.btf" "$T/big"
grep -q "thresholds: large input, the user's kept" "$T/v"
check "glibc's MALLOC_TRIM_THRESHOLD_ is kept" $?
enc BTFENC_NO_THP=1 "$BTFENC" -V --btf_encode_detached "$T/nothp.btf" "$T/big"
grep -q "malloc on huge pages: no" "$T/v"; check "BTFENC_NO_THP=1 turns it off" $?
enc GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$BTFENC" -V --btf_encode_detached "$T/t0.btf" "$T/big"
grep -q "malloc on huge pages: no" "$T/v"; check "a hugetlb tunable set by the user is kept" $?
enc "$BTFENC" -V --btf_features=default,no_such --btf_encode_detached "$T/t1.btf" "$T/big"
[ "$(grep -c "ignoring unknown BTF feature" "$T/v")" -eq 1 ]
check "a notice of the parse is printed once" $?
cmp -s "$T/thp.btf" "$T/nothp.btf" && cmp -s "$T/thp.btf" "$T/t0.btf" &&
	cmp -s "$T/thp.btf" "$T/small.btf" && cmp -s "$T/thp.btf" "$T/tp.btf" &&
	cmp -s "$T/thp.btf" "$T/tt.btf"
check "the same bytes with and without huge pages or thresholds" $?
rm -f "$T/pad" "$T/big"

# Bad input: one line, exit 1, file untouched.
printf 'not an elf' >"$T/junk"; cp "$T/junk" "$T/junk.orig"
"$BTFENC" -J "$T/junk" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$T/junk" "$T/err" && cmp -s "$T/junk" "$T/junk.orig"
check "non-ELF input: one line naming the file, exit 1, unchanged" $?
printf 'int x;\n' >"$T/nodw.c" && gcc -c -o "$T/nodw.o" "$T/nodw.c" && cp "$T/nodw.o" "$T/nodw.orig"
"$BTFENC" -J "$T/nodw.o" 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && grep -q "nodw.o" "$T/err" && cmp -s "$T/nodw.o" "$T/nodw.orig"
check "object without DWARF: error naming the file, unchanged" $?
"$BTFENC" -J "$T/missing" 2>/dev/null; [ $? -eq 1 ]; check "missing file: exit 1" $?
"$BTFENC" -J --btf_base "$T/missing" "$T/demo" 2>/dev/null; [ $? -eq 1 ]
check "missing --btf_base: exit 1" $?

exit $fail
