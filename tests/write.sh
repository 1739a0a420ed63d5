#!/bin/sh
# write.sh: `w` in the headless viewer (tests/render) writes every row of
# the view to a file, and the rows are the batch commands' numbers for the
# same scope: the profile's against `report`, the icicle's frames against
# `folded`, the call chart's calls against `calls` and `report`, the
# threads' against `info`; text by default, TSV for a .tsv name; under
# a filter the rows shown, always by full names; the prompt's history
# left to patterns; an unwritable name is said in the status line with
# the errno text; a write that fails leaves the old file whole.
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
RENDER=${RENDER:-$builddir/tests/render}
[ -x "$RENDER" ] || skip_all "no $RENDER"
[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
demo=$builddir/data/demo.trace
[ -f "$demo" ] || demo=$srcdir/data/demo.trace
[ -f "$demo" ] || skip_all "no data/demo.trace"
# The views' rows against the batch commands' hold on any trace: make
# check writes every view of a generated fixture of a few threads
# (render-gen), check-long of the demo's 140,000 calls.  The filters
# and prompts below pick the demo's names; the prompts' and the
# writes' own checks after them read the tiered trace again.
tiered_trace "$demo"
tiered=$trace

# write STEPS...: the render's screen into $tmp/screen, run in $tmp, on
# the cpu clock (c: the viewer opens on both), report's default.
write() {
	(cd "$tmp" && "$RENDER" "$trace" 100x12 key:c "$@") >"$tmp/screen" 2>&1
}

# One render writes every view: the default name, then .tsv names; and
# the icicle again bottom-up.
write key:w key:Enter \
	key:w key:C-u type:profile.tsv key:Enter \
	VIEW_ICICLE key:w key:C-u type:icicle.tsv key:Enter \
	VIEW_TIMELINE key:w key:C-u type:chart.tsv key:Enter \
	VIEW_THREADS key:w key:C-u type:threads.tsv key:Enter \
	VIEW_CALLTREE key:e key:w key:C-u type:tree.tsv key:Enter \
	VIEW_ICICLE key:b key:w key:C-u type:bottom-up.tsv key:Enter \
	VIEW_INFO key:w key:Enter
ok $? "render writes from every view"
grep -q "wrote [0-9]* rows to tracetui-info.txt" "$tmp/screen"
ok $? "the status line says how many rows went where"

# The batch commands' answers, each asked once.
"$TRACETUI" report --format tsv "$trace" >"$tmp/report.tsv"
"$TRACETUI" folded --no-thread "$trace" | LC_ALL=C sort >"$tmp/folded"
"$TRACETUI" info "$trace" 2>/dev/null >"$tmp/info"

# The default name, in text: a header and one line per method.
methods=$(awk 'END { print NR - 1 }' "$tmp/report.tsv")
[ -f "$tmp/tracetui-profile.txt" ] &&
	[ "$(($(wc -l <"$tmp/tracetui-profile.txt") - 1))" -eq "$methods" ]
ok $? "w in the profile writes tracetui-profile.txt, every method ($methods)"
head -1 "$tmp/tracetui-profile.txt" | grep -q '^Incl%  *Incl ms  *Excl%'
ok $? "the text file is aligned under the view's column titles, with units"

# Profile: name, incl, excl (ms) and calls+rec, as report's cpu columns.
awk -F'\t' 'NR > 1 {
	printf "%s\t%.3f\t%.3f\t%d+%d\n", $1, $4 / 1000, $5 / 1000, $2, $3
}' "$tmp/report.tsv" | LC_ALL=C sort >"$tmp/want"
awk -F'\t' 'NR > 1 { printf "%s\t%s\t%s\t%s\n", $7, $2, $4, $5 }' \
	"$tmp/profile.tsv" | LC_ALL=C sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
rc=$?
ok $rc "profile.tsv: every method's numbers are report's"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/got" | head -5 | diag

# Icicle: each frame with exclusive time is a folded stack.
awk -F'\t' 'NR > 1 && $3 != "0.000" {
	printf "%s %.0f\n", $4, $3 * 1000
}' "$tmp/icicle.tsv" | LC_ALL=C sort >"$tmp/got"
cmp -s "$tmp/folded" "$tmp/got"
rc=$?
ok $rc "icicle.tsv: the frames' paths and exclusive times are folded's"
[ $rc -eq 0 ] || diff "$tmp/folded" "$tmp/got" | head -5 | diag
awk -F'\t' 'NR > 1 && $1 == 1 { s += $2 * 1000 } END { printf "%.0f\n", s }' \
	"$tmp/icicle.tsv" >"$tmp/got"
# The roots add up to the scope's total, as report says it.
total=$("$TRACETUI" report "$trace" | sed -n '1s/.*total \([0-9.]*\) ms.*/\1/p')
[ "$(cat "$tmp/got")" = "$(echo "$total" | awk '{ printf "%.0f\n", $1 * 1000 }')" ]
ok $? "icicle.tsv: the outermost frames add up to report's total"

# Bottom-up, the icicle's callers are made as it writes them: a frame's
# exclusive time is the time of the stacks whose outermost frame it is,
# so its path reversed, with that time, is a folded stack (written by
# the first render).
awk -F'\t' 'NR > 1 && $3 != "0.000" {
	n = split($4, f, ";"); s = f[n]
	for (i = n - 1; i >= 1; i--) s = s ";" f[i]
	printf "%s %.0f\n", s, $3 * 1000
}' "$tmp/bottom-up.tsv" | LC_ALL=C sort >"$tmp/got"
cmp -s "$tmp/folded" "$tmp/got"
rc=$?
ok $rc "bottom-up: every caller made, the reversed paths are folded's"
[ $rc -eq 0 ] || diff "$tmp/folded" "$tmp/got" | head -5 | diag

# Call chart (wall clock): every call of calls', with its start and
# duration; the exclusive times add up per method name (two methods may
# share one) to report's.
"$TRACETUI" calls --format tsv "$trace" | awk -F'\t' 'NR > 1 {
	printf "%s\t%s\t%.3f\t%.3f\t%s\n", $1, $6, $3 / 1000, $4 / 1000, $NF
}' | LC_ALL=C sort >"$tmp/want"
awk -F'\t' 'NR > 1 { printf "%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $6 }' \
	"$tmp/chart.tsv" | LC_ALL=C sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
rc=$?
ok $rc "chart.tsv: thread, depth, start, duration and method of every call"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/got" | head -5 | diag
"$TRACETUI" report --clock wall --format tsv "$trace" | awk -F'\t' 'NR > 1 {
	e[$1] += $7 } END { for (m in e) if (e[m]) printf "%s\t%d\n", m, e[m] }' |
	LC_ALL=C sort >"$tmp/want"
awk -F'\t' 'NR > 1 { e[$6] += $5 * 1000 }
	END { for (m in e) if (e[m] >= 0.5) printf "%s\t%.0f\n", m, e[m] }' \
	"$tmp/chart.tsv" | LC_ALL=C sort >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got"
rc=$?
ok $rc "chart.tsv: exclusive times add up to report's per method"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/got" | head -5 | diag

# Threads: one row per thread, in scope, with info's events and spans.
awk '/^threads:/ { on = 1; next }
	on && /^[a-z]/ { on = 0 }
	on && $1 ~ /^[0-9]+$/ { printf "%s\t%s\t%.3f\n", $1, $3, $4 / 1000 }' \
	"$tmp/info" | LC_ALL=C sort >"$tmp/want"
awk -F'\t' 'NR > 1 && $1 == "[x]" { printf "%s\t%s\t%s\n", $3, $4, $5 }' \
	"$tmp/threads.tsv" | LC_ALL=C sort >"$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"
rc=$?
ok $rc "threads.tsv: every thread's tid, calls and wall span are info's"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/got" | head -5 | diag

# Call tree: the root holds report's total; e opened the hot path.
sed -n 2p "$tmp/tree.tsv" | awk -F'\t' -v t="$total" \
	'{ exit !($2 == t && $NF == "all") }'
ok $? "tree.tsv: the root 'all' holds report's total ($total ms)"
[ "$(awk -F'\t' 'NR > 2' "$tmp/tree.tsv" | wc -l)" -gt 2 ]
ok $? "tree.tsv: the open rows follow the root"

# Info: the lines of `tracetui info`, under one title.
tail -n +2 "$tmp/tracetui-info.txt" | sed 's/ *$//' >"$tmp/got"
sed 's/ *$//' "$tmp/info" | cmp -s - "$tmp/got"
ok $? "tracetui-info.txt: info's lines"

# Under a filter (&) w writes the rows shown, by full names though the
# view abbreviates them: the profile's methods whose full names match
# (lower case: any case), the threads kept, the call tree's kept rows.
trace=$demo
write key:'&' type:looper key:Enter key:w key:C-u type:kept.tsv key:Enter \
	VIEW_THREADS key:'&' type:pool key:Enter \
	key:w key:C-u type:kept-threads.tsv key:Enter \
	VIEW_CALLTREE key:E key:'&' type:Looper.loopOnce key:Enter \
	key:w key:C-u type:kept-tree.tsv key:Enter
ok $? "render writes under filters"
"$TRACETUI" report --format tsv "$demo" |
	awk -F'\t' 'NR > 1 && tolower($1) ~ /looper/ { print $1 }' |
	LC_ALL=C sort >"$tmp/want"
awk -F'\t' 'NR > 1 { print $7 }' "$tmp/kept.tsv" | LC_ALL=C sort >"$tmp/got"
[ "$(wc -l <"$tmp/want")" -eq 2 ] && cmp -s "$tmp/want" "$tmp/got"
rc=$?
ok $rc "& looper, then w: only the 2 methods shown, by full names"
[ $rc -eq 0 ] || diff "$tmp/want" "$tmp/got" | head -5 | diag
awk -F'\t' 'NR > 1 { print $2 }' "$tmp/kept-threads.tsv" | LC_ALL=C sort \
	>"$tmp/got"
printf 'pool-2-thread-%s\n' 1 2 3 4 | cmp -s - "$tmp/got"
ok $? "& pool in the threads, then w: the 4 pool threads only"
awk -F'\t' 'NR > 1 && $NF !~ /android\.os\.Looper\.loopOnce \(/' \
	"$tmp/kept-tree.tsv" | head -3 >"$tmp/got"
[ "$(wc -l <"$tmp/kept-tree.tsv")" -gt 1 ] && [ ! -s "$tmp/got" ]
ok $? "& in the call tree, then w: only rows of the full name matched"
diag <"$tmp/got"

# The prompt's history holds / and & patterns, not w's file names: Up at
# w's prompt keeps the name offered, and Up at / recalls the pattern.
trace=$tiered
rm -f "$tmp/tracetui-profile.txt"
write key:/ type:loopOnce key:Enter key:w key:Up key:Enter key:/ key:Up
[ -f "$tmp/tracetui-profile.txt" ] && [ ! -e "$tmp/loopOnce" ]
ok $? "Up at w's prompt recalls no pattern as a file name"
tail -2 "$tmp/screen" | head -1 | grep -q '^search (Enter; Esc cancels): loopOnce *$'
ok $? "Up at / recalls the pattern, not the file name"

# An unwritable name: the errno text in the status line, nothing else.
write key:w key:C-u type:no/such/dir.txt key:Enter
grep -q "cannot write no/such/dir.txt: No such file or directory" \
	"$tmp/screen"
ok $? "an unwritable file name is said with its errno text"
# Esc cancels: nothing is written.
rm -f "$tmp/tracetui-profile.txt"
write key:w key:Esc
[ ! -e "$tmp/tracetui-profile.txt" ]
ok $? "Esc at the prompt writes nothing"

# A write that fails half way (here at a 2 KiB file size limit, the
# way a full disk would) leaves the file as it was: w writes beside it
# and renames, keeping its mode, and leaves no temporary file behind.
printf 'OLD CONTENT\n' >"$tmp/keep.txt"
chmod 640 "$tmp/keep.txt"
(ulimit -f 4 && trap '' XFSZ &&
	write key:w key:C-u type:keep.txt key:Enter)
grep -q 'cannot write keep.txt: File too large' "$tmp/screen" &&
	[ "$(cat "$tmp/keep.txt")" = "OLD CONTENT" ]
ok $? "a write that fails leaves the old file whole"
[ -z "$(find "$tmp" -name 'keep.txt.*')" ]
ok $? "and no temporary file"
write key:w key:C-u type:keep.txt key:Enter
grep -q 'wrote [0-9]* rows to keep.txt' "$tmp/screen" &&
	head -1 "$tmp/keep.txt" | grep -q '^Incl%' &&
	[ "$(find "$tmp/keep.txt" -perm 640)" = "$tmp/keep.txt" ]
ok $? "a write that succeeds replaces it, with its mode"

done_testing
