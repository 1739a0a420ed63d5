#!/bin/sh
# layout.sh: at 80x24 and 120x30 nothing of a list view is cut, on real
# recordings (the shared traces and simpleperf recordings, read where
# they are; skipped without them).  Every list view is drawn headless by
# tests/render (its screen: steps): the profile, a drill-down, the call
# tree top-down, opened all the way and at its last (deepest) row, and
# bottom-up, the frames and their hot methods, the call tree on a frame's
# hot method, a method's calls, the threads, a focus (the title's
# transforms), and --base's comparison; the timeline's scale; triage's
# findings and the calls of the first.  On
# every screen:
#   - the title holds the viewed file's name (a long one's last 32
#     characters at least; with --base, the base's last 12 too);
#   - no cell is cut at its end: no truncation mark right after text
#     and before a blank or the line's end (names, numbers, messages);
#   - no name is cut down to three characters or fewer after a mark
#     ("…n…", "…ab").
# A failure names the file, the screen and the line.
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
RENDER=${RENDER:-$builddir/tests/render}
[ -x "$RENDER" ] || skip_all "no $RENDER"
[ -d "${SHARED_TRACES:-}" ] || skip_all "no shared traces"

# The steps of one run: each view, then a screen: step naming it.
steps='screen:profile
MOVE_DOWN*2 ENTER screen:drill-down
key:C key:g key:e screen:calltree
key:E key:G screen:calltree-deepest
key:b key:g key:e screen:bottom-up
key:b key:J screen:frames
EXPAND screen:hot-methods
ENTER screen:frame-calltree
key:p key:g key:I screen:calls
key:t screen:threads
key:p MOVE_DOWN key:F screen:focus
key:T screen:timeline
key:! screen:findings
ENTER screen:finding-calls
screen:end'

tab=$(printf '\t')
steps=$(printf '%s' "$steps" | tr ' \n' "$tab$tab")
: >"$tmp/batch"
: >"$tmp/runs"
n=0
# queue_run TRACE SIZE [BASE]: a run of every view (with --base BASE).
queue_run() {
	n=$((n + 1))
	if [ -n "${3:-}" ]; then
		printf '%s\t%s\t--base\t%s\t%s\t%s\t%s\n' "$n.txt" "$n.err" \
			"$3" "$1" "$2" "$steps" >>"$tmp/batch"
	else
		printf '%s\t%s\t%s\t%s\t%s\n' "$n.txt" "$n.err" "$1" "$2" \
			"$steps" >>"$tmp/batch"
	fi
	printf '%s\t%s\t%s\n' "$n" "$1" "${3:-}" >>"$tmp/runs"
}
for f in "$SHARED_TRACES"/*.trace "${SHARED_SIMPLEPERF:-/nonexistent}"/*.trace \
	"${SHARED_SIMPLEPERF:-/nonexistent}"/*.trace.gz; do
	# make check: one shared trace of each family (is_fast_trace) and
	# the simpleperf recording, each at one size in turn; check-long:
	# every one at both sizes.
	case $f in
	"$SHARED_TRACES"/*) is_fast_trace "$f" || continue ;;
	*.gz) [ -n "$long" ] || continue ;;
	esac
	# What tracetui refuses to read has no screens.
	[ -f "$f" ] && "$TRACETUI" info "$f" >/dev/null 2>&1 || continue
	if [ -n "$long" ]; then
		queue_run "$f" 80x24
		queue_run "$f" 120x30
	else
		size=80x24
		[ $((n % 2)) -eq 0 ] || size=120x30
		queue_run "$f" $size
	fi
done
# make check: the small pair; check-long: the game's too.
for pair in ${long:+game__mytrace} perflib__basic; do
	b=$SHARED_TRACES/$pair.earlier-revision.trace
	[ -f "$b" ] && "$TRACETUI" info "$SHARED_TRACES/$pair.trace" \
		>/dev/null 2>&1 || continue
	queue_run "$SHARED_TRACES/$pair.trace" 80x24 "$b"
	queue_run "$SHARED_TRACES/$pair.trace" 120x30 "$b"
done
(cd "$tmp" && "$RENDER" --batch batch) >"$tmp/status" 2>"$tmp/batch.err"
rc=$?
ran=$(grep -c '^0	' "$tmp/status")
[ $rc -eq 0 ] && [ "$ran" -eq "$n" ]
ok $? "every run drew its screens ($ran of $n)"
grep -v '^0	' "$tmp/status" | while IFS='	' read -r st out; do
	echo "exit $st: $(sed -n "${out%.txt}p" "$tmp/batch" | cut -f3-6)"
	diag <"$tmp/${out%.txt}.err"
done | diag

# check.awk: the faults of one run's screens, one line each.
cat >"$tmp/check.awk" <<'AWK'
function fault(what) {
	printf "%s [%s] line %d: %s: %s\n", file, label, line, what, $0
	faults++
}
/^=== / { label = substr($0, 5); line = 0; next }
label == "" || label == "end" { next }
{ line++ }
line == 1 {
	# The name whole, or its end: the last 32 characters.
	if (index($0, length(name) > 32 ? substr(name, length(name) - 31) \
	    : name) == 0)
		fault("the title lacks " name)
	if (base != "" && index($0, substr(base, length(base) - 11)) == 0)
		fault("the title lacks the end of " base)
	next
}
# The timeline's names are the chart's: its scale line is checked.
label == "timeline" && line > 2 { next }
{
	s = $0
	# A mark after text, before a blank or the end: cut at its end.
	if (s ~ /[^ ]…( |$)/)
		fault("cut at its end")
	# A mark, one to three characters, a mark, a blank or the end.
	if (s ~ /…[^ …][^ …]?[^ …]?(…| |$)/)
		fault("cut down to a few characters")
}
END { exit faults > 0 }
AWK
: >"$tmp/faults"
while IFS='	' read -r i f base; do
	name=${f##*/}
	bname=${base##*/}
	awk -v file="$name${bname:+ vs $bname}" -v name="$name" \
		-v base="$bname" -f "$tmp/check.awk" "$tmp/$i.txt" \
		>>"$tmp/faults"
done <"$tmp/runs"
screens=$(cut -f1 "$tmp/runs" | sed "s|^|$tmp/|; s|$|.txt|" |
	xargs cat | grep -c '^=== ')
faults=$(wc -l <"$tmp/faults")
[ "$faults" -eq 0 ]
ok $? "no cut names, numbers or titles on $screens screens ($faults faults)"
head -40 "$tmp/faults" | diag
# LAYOUT_FAULTS=FILE keeps every fault for reading.
[ -z "${LAYOUT_FAULTS:-}" ] || cp "$tmp/faults" "$LAYOUT_FAULTS"
done_testing
