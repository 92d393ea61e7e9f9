#!/usr/bin/env bash
# atomic.sh BTFENC DEMO WORKDIR
#
# The whole `btfenc -J` (and --btf_encode_detached) under failing writes:
# a file size limit, a full tmpfs (root only, else skipped with a note),
# and SIGKILL at spread-out moments of a run on a large input.  After a
# failure the input is byte-identical and no temporary file is left; after
# SIGKILL the file is either the old one or the new one, complete and
# valid, never something in between.
set -u
BTFENC=$(realpath "$1")
DEMO=$(realpath "$2")
W=$3
FEAT=--btf_features=default,inline.extra
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
note() { echo "note $*"; }

rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 1

# Reference: what a successful run produces.
cp "$DEMO" ref.old && cp "$DEMO" ref.new && "$BTFENC" -J $FEAT ref.new ||
	{ echo "FAIL setup: encoding the demo"; exit 1; }

# Runs "$@" (a btfenc command on FILE) expecting exit 1 with one line;
# FILE must equal REF afterwards and DIR hold only what it held before.
expect_intact() { # name file ref dir cmd...
	local name=$1 file=$2 ref=$3 dir=$4 before after st lines
	shift 4
	before=$(ls -A "$dir")
	"$@" 2>err.txt
	st=$?
	lines=$(wc -l <err.txt)
	after=$(ls -A "$dir")
	if [ $st -ne 1 ] || [ "$lines" -ne 1 ]; then
		bad "$name: exit $st with $lines lines on stderr (want 1 and 1)"; cat err.txt
	elif ! cmp -s "$file" "$ref"; then
		bad "$name: the input changed"
	elif [ "$before" != "$after" ]; then
		bad "$name: directory changed: [$before] -> [$after]"
	else
		ok "$name: exit 1, input intact, nothing left: $(cat err.txt)"
	fi
}

# 1. File size limit: the new file would be larger than RLIMIT_FSIZE.
# (stderr goes through a pipe where the limit would also cut a file.)
mkdir -p fsize && cp ref.old fsize/x
size_kb=$(( $(stat -c %s ref.old) / 1024 ))
expect_intact "ulimit -f (-J)" fsize/x ref.old fsize \
	bash -c "ulimit -f $size_kb; exec '$BTFENC' -J $FEAT fsize/x"
expect_intact "ulimit -f (detached)" fsize/x ref.old fsize \
	bash -c "set -o pipefail; (ulimit -f 0; exec '$BTFENC' --btf_encode_detached fsize/out.btf $FEAT fsize/x) 2>&1 | cat >&2"

# 2. Full disk: a tmpfs with less room than the new file needs.
mkdir -p full
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	cp ref.old full/x
	# Leave less free space than the new file takes (the old one stays).
	head -c $(( 64 * 1024 - $(stat -c %s ref.old) - 8192 )) /dev/zero >full/filler 2>/dev/null
	expect_intact "full tmpfs (-J)" full/x ref.old full "$BTFENC" -J $FEAT full/x
	head -c 1M /dev/zero >>full/filler 2>/dev/null
	expect_intact "full tmpfs (detached)" full/x ref.old full \
		"$BTFENC" --btf_encode_detached full/out.btf $FEAT full/x
	umount full
else
	note "not root or no tmpfs: full-disk case skipped"
fi

# 3. SIGKILL during -J on a large input: the demo with 64 MiB of
# incompressible bytes in a non-allocated section, so that writing the
# new file takes long enough for kills to land inside it.
head -c 64M /dev/urandom >junk.bin
objcopy --add-section .junk=junk.bin "$DEMO" big.old || { bad "kill: objcopy"; exit 1; }
rm -f junk.bin
cp big.old big.new && "$BTFENC" -J -j2 $FEAT big.new || { bad "kill: setup"; exit 1; }
start=$(date +%s%N)
cp big.old big.t && "$BTFENC" -J -j2 $FEAT big.t
total_ms=$(( ($(date +%s%N) - start) / 1000000 ))
old=0 new=0 stale=0
mkdir -p kill
for i in $(seq 1 24); do
	rm -f kill/* kill/.[!.]* 2>/dev/null
	cp big.old kill/x
	delay_ms=$(( total_ms * i / 20 ))
	"$BTFENC" -J -j2 $FEAT kill/x 2>/dev/null &
	pid=$!
	sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	if cmp -s kill/x big.old; then
		old=$((old + 1))
	elif cmp -s kill/x big.new; then
		new=$((new + 1))
		"$BTFENC" dump kill/x >/dev/null || bad "kill after ${delay_ms} ms: new file does not validate"
	else
		bad "kill after ${delay_ms} ms: the file is neither the old nor the new one"
	fi
	# A temporary file may stay after SIGKILL (nobody is left to remove it);
	# it must never be the target's name.
	stale=$((stale + $(ls -A kill | grep -c '\.btfenc-')))
done
ok "SIGKILL at 24 moments of a ${total_ms} ms run: $old old, $new new, $stale stale temp files"
[ $old -gt 0 ] && [ $new -gt 0 ] || note "kills did not land on both sides of the rename"

cd / && rm -rf "$W"
exit $fail
