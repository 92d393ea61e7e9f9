# SPDX-License-Identifier: GPL-2.0
#
# timing.sh - what the benchmark scripts share; sourced, with $T set to
# their scratch directory.

# run OUT CMD...: runs CMD (output discarded), appends "wall cpu rss_kb"
# to OUT, cpu being user + sys
run() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$@" >/dev/null 2>&1
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$T/time" >>"$out"
}

# run_rep OUT REPS CMD...: like run, CMD run REPS times back to back and
# timed as one, wall and cpu divided by REPS (/usr/bin/time counts in
# 10 ms: a small module takes 20-40 ms)
run_rep() {
	local out=$1 reps=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M' -o "$T/time" \
		bash -c 'n=$1; shift; for ((i = 0; i < n; i++)); do "$@"; done' _ "$reps" "$@" \
		>/dev/null 2>&1
	awk -v n="$reps" '{ printf "%.4f %.4f %s\n", $1 / n, ($2 + $3) / n, $4 }' "$T/time" >>"$out"
}

median() { # FILE COLUMN
	sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

ratio() { echo "scale=3; $1 / $2" | bc -l; }
