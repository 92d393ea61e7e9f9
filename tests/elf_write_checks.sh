#!/bin/bash
# Checks of encoder/elf_write.c through its driver (tests/test_elf_write.c).
#
#   elf_write_checks.sh [--vmlinux] DRIVER FIXTURE_DIR WORKDIR
#
# Fixtures are compiled here from FIXTURE_DIR (gcc -g: object, executable,
# shared object; i386, s390x, ppc32 objects when a compiler can make them;
# an object with extended section numbering; a debug kernel module if one
# is installed; objects with 0xfeff and 65300+ sections).  For each: add .BTF, replace it with another size, add
# .BTF and .BTF.extra in one call, and after each step check that
#   * readelf -S differs only in the header line, the .shstrtab line
#     (offset and size, when a name was added) and the new section lines;
#   * readelf -l, -s, -r and -h (bar e_shoff/e_shnum) are identical;
#   * every old section's bytes are unchanged;
#   * the section reads back (objcopy --dump-section, and kbuild's
#     --set-section-flags alloc + -O binary pipeline) as the bytes given;
#   * its header equals what GNU objcopy and llvm-objcopy --add-section
#     give (type, flags, link, info, alignment, entry size, size);
#   * eu-elflint --gnu-ld says nothing new (when installed).
# Then the failure paths (file size limit, full tmpfs, SIGKILL, damaged
# input, read-only file) must leave the input byte-identical and no
# temporary file behind (except after SIGKILL, which nobody can clean up).
#
# --vmlinux: the same on a copy of the installed debug vmlinux, with time
# and peak RSS printed; exit 77 (skip) if it is not installed.
set -u
vmlinux_mode=
if [ "${1:-}" = --vmlinux ]; then
	vmlinux_mode=1
	shift
fi
DRIVER=$(realpath "$1")
FIX=$(realpath "$2")
WORK=$3
VMLINUX=${BTFENC_VMLINUX:-/usr/lib/debug/boot/vmlinux-$(uname -r)}
[ -f "$VMLINUX" ] || VMLINUX=$(ls /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -n1)

nfail=0
OC=objcopy
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
}
note() { echo "# $*"; }

rm -rf "$WORK"
mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1

# Random bytes: the section contents are opaque to the writer.
rand() { head -c "$1" /dev/urandom > "$2"; }

# readelf -S lines "[ N] name type addr off size es flg lk inf al", the
# index bracket normalised so that fields split on blanks, and "-" as the
# name of the unnamed section 0.
sections() { readelf -S -W "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] /\1 /p' | sed 's/^0  *NULL/0 - NULL/'; }

# The checks after a rewrite of $orig into $new that added/replaced the
# sections named in "$@" (NAME=DATAFILE).
check_rewrite() {
	local orig=$1 new=$2 what=$3
	shift 3
	local s name data
	readelf -S -W "$orig" >/dev/null 2>&1 || { fail "$what: readelf cannot read the input"; return; }
	readelf -S -W "$new" > new.S 2> new.S.err || fail "$what: readelf -S fails"
	[ -s new.S.err ] && fail "$what: readelf -S warns: $(head -n3 new.S.err)"

	# Other sections: same index, name, type, address, offset, size, flags.
	local names=" " strndx count
	for s in "$@"; do names="$names${s%%=*} "; done
	# The section name table (clang shares it with .strtab) may move and
	# grow; section 0 holds the section count when there are >= 0xff00.
	strndx=$(shstrndx "$orig")
	sections "$orig" | awk -v n="$names" -v x=$strndx 'index(n, " " $2 " ") == 0 && $1 != x && $1 != 0' > a.sec
	sections "$new" | awk -v n="$names" -v x=$strndx 'index(n, " " $2 " ") == 0 && $1 != x && $1 != 0' > b.sec
	diff a.sec b.sec > sec.diff || fail "$what: other sections changed: $(head -n6 sec.diff)"
	sections "$orig" | awk -v x=$strndx '$1 == x' | hdr_fields | cut -d' ' -f2- > a.str
	sections "$new" | awk -v x=$strndx '$1 == x' | hdr_fields | cut -d' ' -f2- > b.str
	cmp -s a.str b.str || fail "$what: section name table header changed: $(cat a.str) -> $(cat b.str)"
	count=$(sections "$new" | wc -l)
	sections "$orig" | awk '$1 == 0' | hdr_fields | cut -d' ' -f2- > a.str
	sections "$new" | awk '$1 == 0' | hdr_fields > b.str
	cmp -s a.str <(cut -d' ' -f2- b.str) || fail "$what: section 0 changed: $(cat a.str) -> $(cat b.str)"
	if [ $count -ge $((0xff00)) ]; then
		[ $((0x$(cut -d' ' -f1 b.str))) = $count ] || fail "$what: section 0 sh_size is not the count $count"
		readelf -h "$new" | grep -q "Number of section headers: *0 ($count)" || fail "$what: e_shnum is not 0 ($count)"
	else
		[ $((0x$(cut -d' ' -f1 b.str))) = 0 ] || fail "$what: section 0 sh_size not 0"
	fi

	for opt in -l -s -r; do
		readelf $opt -W "$orig" > a.out 2>&1
		readelf $opt -W "$new" > b.out 2>&1
		diff a.out b.out > opt.diff || fail "$what: readelf $opt changed: $(head -n6 opt.diff)"
	done
	readelf -h "$orig" | grep -v -e 'Start of section headers' -e 'Number of section headers' > a.out
	readelf -h "$new" | grep -v -e 'Start of section headers' -e 'Number of section headers' > b.out
	diff a.out b.out > opt.diff || fail "$what: readelf -h changed: $(head -n6 opt.diff)"

	check_old_bytes "$orig" "$new" "$what" "$names"
	for s in "$@"; do
		name=${s%%=*}
		data=${s#*=}
		check_section "$orig" "$new" "$what" "$name" "$data"
	done
	check_elflint "$orig" "$new" "$what"
}

# Every non-NOBITS section not being replaced has the same bytes.
check_old_bytes() {
	local orig=$1 new=$2 what=$3 names=$4 idx name type off size bad=0
	while read -r idx name type _ off size _; do
		[ "$type" = NOBITS ] && continue
		case "$names" in *" $name "*) continue ;; esac
		[ "$name" = .shstrtab ] && continue
		if ! cmp -s <(tail -c +$((0x$off + 1)) "$orig" | head -c $((0x$size))) \
			    <(tail -c +$((0x$off + 1)) "$new" | head -c $((0x$size))); then
			bad=$((bad + 1))
			[ $bad -le 3 ] && fail "$what: bytes of section [$idx] $name changed"
		fi
	done < <(sections "$orig" | awk '$1 > 0 && $5 != "" ' | tr -s ' ' | head -n 400)
	# The ELF header up to e_shoff (offset 0x28 in ELF64, 0x20 in ELF32).
	cmp -s <(head -c 32 "$orig") <(head -c 32 "$new") || fail "$what: e_ident..e_entry changed"
}

shstrndx() { readelf -h "$1" | awk -F: '/string table index/ {print $2}' | sed 's/.*(\(.*\))/\1/; s/ //g'; }

# "size type es flags link info align" of a sections() line.
hdr_fields() { awk '{print $6, $3, $7, (NF == 11 ? $8 : "-"), $(NF-2), $(NF-1), $NF}'; }

# The section reads back as $data and has objcopy's header.
check_section() {
	local orig=$1 new=$2 what=$3 name=$4 data=$5 line want got
	line=$(sections "$new" | awk -v n="$name" '$2 == n')
	[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] || { fail "$what: not exactly one $name: $line"; return; }
	rm -f dump.bin
	$OC --dump-section "$name=dump.bin" "$new" dump.o 2>/dev/null
	cmp -s dump.bin "$data" || fail "$what: $name does not read back (objcopy --dump-section)"
	# kbuild: make it alloc, keep only it, then -O binary.
	rm -f kb.o kb.bin
	$OC --only-section="$name" --set-section-flags "$name=alloc,readonly" --strip-all \
		"$new" kb.o 2>/dev/null || fail "$what: $OC --only-section=$name --set-section-flags fails"
	$OC -O binary --only-section="$name" kb.o kb.bin 2>/dev/null
	cmp -s kb.bin "$data" || fail "$what: $name does not read back (kbuild -O binary)"
	# A replaced section keeps its header but for offset and size.
	if sections "$orig" | awk -v n="$name" '$2 == n {f=1} END {exit !f}'; then
		want=$(sections "$orig" | awk -v n="$name" '$2 == n' | hdr_fields)
		got=$(printf '%s\n' "$line" | hdr_fields)
		[ "${want#* }" = "${got#* }" ] || fail "$what: replaced $name header changed: $want -> $got"
		return
	fi
	local tool ref
	for tool in objcopy llvm-objcopy; do
		command -v $tool >/dev/null || continue
		rm -f ref.o
		$tool --add-section "$name=$data" "$orig" ref.o 2>/dev/null || { note "$tool cannot add to $what"; continue; }
		# type, flags, link, info, align, entsize, size (not address/offset)
		ref=$(sections ref.o | awk -v n="$name" '$2 == n')
		want=$(printf '%s\n' "$ref" | hdr_fields)
		got=$(printf '%s\n' "$line" | hdr_fields)
		[ "$want" = "$got" ] || fail "$what: $name header differs from $tool's: '$line' vs '$ref'"
	done
}

check_elflint() {
	local orig=$1 new=$2 what=$3 a b
	command -v eu-elflint >/dev/null || return
	a=$(eu-elflint --gnu-ld "$orig" 2>&1 | grep -vc '^No errors')
	b=$(eu-elflint --gnu-ld "$new" 2>&1 | grep -vc '^No errors')
	[ "$b" -le "$a" ] || fail "$what: eu-elflint: $a complaints before, $b after: $(eu-elflint --gnu-ld "$new" 2>&1 | head -n3)"
}

no_temp_left() {
	local dir=$1 what=$2 left
	left=$(find "$dir" -maxdepth 1 -name '.*.btfenc-*' | head -n3)
	[ -z "$left" ] || fail "$what: temporary file left: $left"
}

# Runs the driver and expects failure with $pattern in its message, the
# file byte-identical to $ref afterwards and no temporary file left.
expect_fail() {
	local what=$1 pattern=$2 file=$3 ref=$4
	shift 4
	local out
	out=$("$@" 2>&1)
	local rc=$?
	[ $rc = 1 ] || fail "$what: exit $rc, want 1 (one log line and an error): $out"
	printf '%s\n' "$out" | grep -q -- "$pattern" || fail "$what: message lacks '$pattern': $out"
	printf '%s\n' "$out" | head -n1 | grep -qF -- "$file" || fail "$what: message does not name $file: $out"
	cmp -s "$file" "$ref" || fail "$what: input changed"
	no_temp_left "$(dirname "$file")" "$what"
	note "$what: $(printf '%s\n' "$out" | head -n1)"
}

# ---- one fixture through add / replace / add two ----
exercise() {
	local f=$1 what=$2 failed=$nfail
	cp "$f" "$what.orig" && cp "$f" "$what.1" || return
	# This Debian's GNU objcopy knows x86 only; llvm-objcopy knows all.
	OC=objcopy
	objcopy "$f" oc.probe 2>/dev/null || OC=llvm-objcopy
	rand 5000 btf.a
	rand 7321 btf.b
	rand 20000 extra.a
	"$DRIVER" add "$what.1" .BTF=btf.a || { fail "$what: add .BTF failed"; return; }
	check_rewrite "$what.orig" "$what.1" "$what add" .BTF=btf.a

	cp "$what.1" "$what.2"
	"$DRIVER" add "$what.2" .BTF=btf.b || fail "$what: replace .BTF failed"
	check_rewrite "$what.orig" "$what.2" "$what replace" .BTF=btf.b
	# Replacing reuses the tail: the file grows by the size difference only.
	local s1 s2
	s1=$(stat -c %s "$what.1")
	s2=$(stat -c %s "$what.2")
	[ $((s2 - s1)) -le $((7321 - 5000 + 8)) ] || fail "$what: replace grew the file by $((s2 - s1)) bytes"
	# ... so doing it again gives the same file.
	cp "$what.2" "$what.3"
	"$DRIVER" add "$what.3" .BTF=btf.b || fail "$what: second replace failed"
	cmp -s "$what.2" "$what.3" || fail "$what: replacing .BTF with the same bytes changed the file"

	cp "$what.orig" "$what.4"
	"$DRIVER" add "$what.4" .BTF=btf.a .BTF.extra=extra.a || fail "$what: add two failed"
	check_rewrite "$what.orig" "$what.4" "$what add two" .BTF=btf.a .BTF.extra=extra.a
	# kbuild's module/vmlinux steps on the result.
	$OC --only-section=.BTF --set-section-flags .BTF=alloc,readonly \
		--only-section=.BTF.extra --set-section-flags .BTF.extra=alloc,readonly \
		--strip-all "$what.4" kb2.o 2>/dev/null || fail "$what: kbuild $OC fails"
	$OC -O binary --only-section=.BTF.extra kb2.o kb2.bin 2>/dev/null
	cmp -s kb2.bin extra.a || fail "$what: kbuild -O binary .BTF.extra differs"
	$OC --remove-section=.BTF.extra "$what.4" rm.o 2>/dev/null || fail "$what: $OC --remove-section fails"
	sections rm.o | grep -q ' \.BTF\.extra ' && fail "$what: .BTF.extra not removed"
	[ $nfail = $failed ] && note "$what: ok ($(stat -c %s "$what.orig") -> $(stat -c %s "$what.4") bytes)"
}

build_fixtures() {
	gcc -g -O2 -c "$FIX/fix.c" -o obj.o || fail "gcc -c"
	gcc -g -O2 -DWITH_MAIN "$FIX/fix.c" -o exe || fail "gcc exe"
	gcc -g -O2 -fPIC -shared "$FIX/fix.c" -o lib.so || fail "gcc -shared"
	gcc -m32 -g -O2 -c "$FIX/fix.c" -o obj32.o 2>/dev/null || note "no gcc -m32: skip i386"
	clang --target=s390x-linux-gnu -g -O2 -c "$FIX/fix.c" -o objbe64.o 2>/dev/null ||
		note "no clang s390x: skip ELF64 big-endian"
	clang --target=powerpc-linux-gnu -g -O2 -c "$FIX/fix.c" -o objbe32.o 2>/dev/null ||
		note "no clang ppc32: skip ELF32 big-endian"
	clang --target=s390x-linux-gnu -g -O2 -DWITH_MAIN -nostdlib -fuse-ld=lld -Wl,-e,main \
		"$FIX/fix.c" -o exebe64 2>/dev/null || note "no lld for s390x: skip big-endian executable"
	sh "$FIX/many_sections.sh" 65300 > many.s && as many.s -o many.o || note "cannot build many.o"
	# 0xfeff sections: adding one or two crosses into extended numbering.
	sh "$FIX/many_sections.sh" 65274 > cross.s && as cross.s -o cross.o || note "cannot build cross.o"
	rm -f many.s cross.s
}

# ---- failure paths: the input stays byte-identical, no temp file left ----
failure_checks() {
	local d=fail.d
	mkdir -p $d
	rand 400000 big.bin
	cp obj.o $d/x.o && cp obj.o x.ref

	# RLIMIT_FSIZE: refused up front (no SIGXFSZ, no partial file).
	expect_fail "ulimit -f" "file size limit" $d/x.o x.ref \
		bash -c "ulimit -f 100; exec '$DRIVER' add $d/x.o .BTF=big.bin"

	printf 'this is not an ELF file\n' > $d/text && cp $d/text text.ref
	expect_fail "non-ELF" "not an ELF file" $d/text text.ref "$DRIVER" add $d/text .BTF=btf.a
	head -c 1000 obj.o > $d/trunc.o && cp $d/trunc.o trunc.ref
	expect_fail "truncated" "past the end of the file" $d/trunc.o trunc.ref \
		"$DRIVER" add $d/trunc.o .BTF=btf.a
	# e_shoff (ELF64 offset 0x28) far past the end.
	cp obj.o $d/shoff.o && printf '\x00\x00\x00\x10' | dd of=$d/shoff.o bs=1 seek=$((0x28 + 4)) conv=notrunc status=none
	cp $d/shoff.o shoff.ref
	expect_fail "e_shoff past EOF" "past the end of the file" $d/shoff.o shoff.ref "$DRIVER" add $d/shoff.o .BTF=btf.a
	# sh_offset of section 1 (header at e_shoff + 64, sh_offset at +0x18) past the end.
	local shoff
	shoff=$(readelf -h obj.o | awk '/Start of section headers/ {print $5}')
	cp obj.o $d/secoff.o && printf '\x00\x00\x01\x00' | dd of=$d/secoff.o bs=1 seek=$((shoff + 64 + 0x18)) conv=notrunc status=none
	cp $d/secoff.o secoff.ref
	expect_fail "section past EOF" "past the end of the file" $d/secoff.o secoff.ref \
		"$DRIVER" add $d/secoff.o .BTF=btf.a
	expect_fail "same name twice" "given twice" $d/x.o x.ref \
		"$DRIVER" add $d/x.o .BTF=btf.a .BTF=btf.b

	# Read-only: refused even for root; mode and symlinks otherwise kept.
	chmod 0444 $d/x.o
	expect_fail "mode 0444" "read-only" $d/x.o x.ref "$DRIVER" add $d/x.o .BTF=btf.a
	chmod 0751 $d/x.o
	ln -sf x.o $d/link.o
	"$DRIVER" add $d/link.o .BTF=btf.a || fail "add through a symlink failed"
	[ -L $d/link.o ] || fail "symlink replaced by a file"
	[ "$(stat -c %a $d/x.o)" = 751 ] || fail "mode not kept: $(stat -c %a $d/x.o)"
	objcopy --dump-section .BTF=sym.bin $d/x.o sym.o && cmp -s sym.bin btf.a || fail "symlink target not updated"
	no_temp_left $d "symlink"
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		cp obj.o $d/root.o && chmod 0644 $d/root.o && chmod 0777 $d
		expect_fail "not writable (uid nobody)" "not writable" $d/root.o obj.o \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$DRIVER" add $d/root.o .BTF=btf.a
		chmod 0755 $d
	fi

	# An allocated section can be overwritten, not resized.
	if [ -f exe ]; then
		local isz
		cp exe $d/exe && cp exe exe.ref
		isz=$((0x$(sections exe | awk '$2 == ".interp" {print $6}')))
		rand $((isz + 1)) interp.bad
		expect_fail "resize allocated" "cannot resize allocated section" $d/exe exe.ref \
			"$DRIVER" add $d/exe .interp=interp.bad
		printf '/lib64/ld-linux-x86-64.so.9\0' | head -c $isz > interp.new
		"$DRIVER" add $d/exe .interp=interp.new || fail "same-size .interp failed"
		[ "$(cmp -l $d/exe exe.ref | wc -l)" -le "$isz" ] || fail "same-size replace changed more than .interp"
		readelf -l -W $d/exe | grep -q 'ld-linux-x86-64.so.9' || fail ".interp not overwritten in place"
	fi

	# In a relocatable object an allocated section is not pinned: it moves.
	objcopy --add-section .BTF=btf.a --set-section-flags .BTF=alloc,readonly obj.o alloc.o
	cp alloc.o $d/alloc.o
	"$DRIVER" add $d/alloc.o .BTF=btf.b || fail "resizing an allocated section of an ET_REL failed"
	check_rewrite alloc.o $d/alloc.o "ET_REL alloc .BTF resized" .BTF=btf.b

	# Full tmpfs (root only): fails with ENOSPC, input intact.
	mkdir -p tmpfs.d
	if mount -t tmpfs -o size=1M tmpfs tmpfs.d 2>/dev/null; then
		cp obj.o tmpfs.d/x.o
		head -c 700000 /dev/zero > tmpfs.d/filler 2>/dev/null
		expect_fail "full tmpfs" "No space left" tmpfs.d/x.o obj.o \
			"$DRIVER" add tmpfs.d/x.o .BTF=big.bin
		umount tmpfs.d
	else
		note "cannot mount tmpfs: skip ENOSPC check"
	fi

	kill_checks
	raw_checks
}

# SIGKILL at various moments: the file is the old or the new one, never
# anything else.  A stale temp file may remain; it is reported and removed.
kill_checks() {
	local d=kill.d delay st stale=0 old=0 new=0
	mkdir -p $d
	rand $((96 << 20)) huge.bin
	rand $((64 << 20)) huge2.bin
	cp obj.o kbase.o && "$DRIVER" add kbase.o .BTF=huge.bin || { fail "kill: setup"; return; }
	cp kbase.o kwant.o && "$DRIVER" add kwant.o .BTF.extra=huge2.bin || { fail "kill: setup"; return; }
	for delay in 0.02 0.1 0.3 0.6 1 2 4; do
		cp kbase.o $d/k.o
		"$DRIVER" add $d/k.o .BTF.extra=huge2.bin &
		sleep $delay
		kill -9 $! 2>/dev/null
		wait $! 2>/dev/null
		if cmp -s $d/k.o kbase.o; then
			old=$((old + 1))
		elif cmp -s $d/k.o kwant.o; then
			new=$((new + 1))
		else
			fail "kill after ${delay}s: the file is neither the old nor the new one"
		fi
		st=$(find $d -maxdepth 1 -name '.k.o.btfenc-*' | wc -l)
		stale=$((stale + st))
		rm -f $d/.k.o.btfenc-*
	done
	note "SIGKILL: $old runs left the old file, $new the new one, $stale stale temp files (removed)"
	rm -f huge.bin huge2.bin kbase.o kwant.o $d/k.o
}

raw_checks() {
	local d=raw.d
	mkdir -p $d
	(umask 022; "$DRIVER" raw $d/out.btf btf.a) || fail "raw: write failed"
	cmp -s $d/out.btf btf.a || fail "raw: content differs"
	[ "$(stat -c %a $d/out.btf)" = 640 ] || fail "raw: new file mode $(stat -c %a $d/out.btf), want 640"
	chmod 0604 $d/out.btf
	"$DRIVER" raw $d/out.btf btf.b || fail "raw: overwrite failed"
	cmp -s $d/out.btf btf.b || fail "raw: overwrite content differs (stale tail?)"
	[ "$(stat -c %a $d/out.btf)" = 604 ] || fail "raw: existing mode not kept"
	ln -sf out.btf $d/link.btf
	"$DRIVER" raw $d/link.btf btf.a && [ -L $d/link.btf ] && cmp -s $d/out.btf btf.a ||
		fail "raw: symlink not followed"
	chmod 0444 $d/out.btf && cp $d/out.btf raw.ref
	expect_fail "raw read-only" "read-only" $d/out.btf raw.ref "$DRIVER" raw $d/out.btf btf.b
	"$DRIVER" raw $d/nodir/x.btf btf.a 2> raw.err && fail "raw: missing directory accepted"
	grep -q "nodir/x.btf: .*No such file" raw.err || fail "raw: bad message: $(cat raw.err)"
	no_temp_left $d raw
}

# ---- the real kernel: a copy of the debug vmlinux ----
timed() {
	/usr/bin/time -f '%e s elapsed, %M KB peak RSS' -o time.out "$@"
	local rc=$?
	note "$(cat time.out | tail -n1): $*"
	return $rc
}

vmlinux_checks() {
	local v=vmlinux btf_size
	note "vmlinux: $VMLINUX ($(stat -c %s "$VMLINUX") bytes)"
	rand $((6 << 20)) btf6.bin
	cp "$VMLINUX" $v || { fail "cannot copy vmlinux"; return; }
	timed "$DRIVER" add $v .BTF.extra=btf6.bin || fail "vmlinux: add .BTF.extra failed"
	check_rewrite "$VMLINUX" $v "vmlinux add 6 MB .BTF.extra" .BTF.extra=btf6.bin

	# kbuild's own input has no .BTF yet.  objcopy cannot remove the
	# loaded .BTF (__start_BTF needs it), so rename it and add a new one.
	if objcopy --rename-section .BTF=.BTF_orig "$VMLINUX" nobtf 2>/dev/null; then
		cp nobtf $v
		timed "$DRIVER" add $v .BTF=btf6.bin || fail "vmlinux: add .BTF failed"
		check_rewrite nobtf $v "vmlinux without .BTF, add 6 MB .BTF" .BTF=btf6.bin
		rm -f nobtf
	else
		fail "objcopy --rename-section on vmlinux failed"
	fi

	# .BTF of the installed vmlinux is loaded: same size in place, else refused.
	btf_size=$((0x$(sections "$VMLINUX" | awk '$2 == ".BTF" {print $6}')))
	cp "$VMLINUX" $v
	rand $btf_size btfsame.bin
	timed "$DRIVER" add $v .BTF=btfsame.bin || fail "vmlinux: same-size .BTF failed"
	check_rewrite "$VMLINUX" $v "vmlinux replace loaded .BTF in place" .BTF=btfsame.bin
	[ "$(cmp -l "$VMLINUX" $v | wc -l)" -le $btf_size ] || fail "vmlinux: in-place replace changed other bytes"
	cp "$VMLINUX" vmlinux.ref
	expect_fail "vmlinux resize loaded .BTF" "cannot resize allocated" $v $v "$DRIVER" add $v .BTF=btf6.bin
	rm -f $v vmlinux.ref dump.o kb.o rm.o ref.o
}

if [ -n "$vmlinux_mode" ]; then
	[ -n "$VMLINUX" ] && [ -f "$VMLINUX" ] || { echo "no debug vmlinux: skip"; exit 77; }
	vmlinux_checks
	exit $((nfail > 0))
fi

build_fixtures
for f in obj.o exe lib.so obj32.o objbe64.o objbe32.o exebe64 many.o cross.o; do
	[ -f "$f" ] || continue
	note "$f: $(file -b "$f" | cut -d, -f1-2)"
	exercise "$f" "${f%.*}"
done
mod=$(find /usr/lib/debug/lib/modules -name '*.ko' -size -2M 2>/dev/null | head -n1)
if [ -n "$mod" ]; then
	cp "$mod" mod.ko
	exercise mod.ko mod
else
	note "no debug kernel module: skip .ko"
fi

failure_checks

[ $nfail = 0 ] && echo "all elf_write checks passed"
exit $((nfail > 0))
