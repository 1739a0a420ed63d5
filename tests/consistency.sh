#!/bin/sh
# consistency.sh: the commands and the viewer say the same things the
# same way, on the shared traces and recordings ($SHARED_TRACES,
# $SHARED_SIMPLEPERF; each part skipped when absent):
# - info numbers the loaded event type of a two-type simpleperf
#   recording "1 of 2" (all of them: "all of 2"), and the viewer's y
#   still cycles through both and all;
# - against --base, the icicle's status names the frame in full and dotted, as
#   diff writes it, at 80 columns too;
# - with both clocks, the profile's changes against --base are on diff's
#   default clock (cpu): every method in both traces has diff's
#   delta_excl and delta_incl in the rows `w` writes;
# - a focus leaves the stated sampling interval as it was: report,
#   diff (both traces) and the viewer's title;
# - diff --focus counts each trace's threads as report --focus does
#   (those with a focused call), with the same totals;
# - the viewer takes --focus, --merge and --drop on its command line:
#   its title names them, and its profile has report's numbers for the
#   same options;
# - report -s self sorts a simpleperf recording by its self samples (the
#   independent reader's, expected/FILE.functions.tsv), -s total by its
#   total;
# - the viewer shortens a simpleperf recording's Java methods as an ART
#   trace's (a.o.Looper.loop), and shows a cpu-clock recording's time
#   in one column, not the two equal ones of its two clocks.
# Every tmux command goes through one control-mode client: no process
# a key, a poll or a check.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
T=${SHARED_TRACES:-}
S=${SHARED_SIMPLEPERF:-}
two=$S/firefox-profiler__simpleperf-cpu-clock.trace.gz
bitmaps=$S/aosp__display_bitmaps.trace
basic=$T/perflib__basic.trace
old=$T/AppMethodOrder__oldVersion.trace
regular=$T/firefox-profiler__art-trace-regular.trace
streaming=$T/firefox-profiler__art-trace-streaming.trace
new=$T/AppMethodOrder__studioVersion.trace
earlier=$T/perflib__basic.earlier-revision.trace
LC_ALL=C
export LC_ALL

. "${top_srcdir:-.}/tests/tmux-ctl.sh"

sock=tracetui-consistency-$$
tmp=$(mktemp -d)
trap 'view_end; ctl_stop; rm -rf "$tmp"' EXIT
have_tmux=
command -v tmux >/dev/null 2>&1 && ctl_start && have_tmux=1

# --- info numbers a part "I of N" -----------------------------------------
if [ -f "$two" ]; then
	"$TRACETUI" info "$two" >"$tmp/info" 2>&1
	grep -q '^  simpleperf-event-type-index=1 of 2$' "$tmp/info"
	ok $? "info: the first of two event types is 1 of 2"
	"$TRACETUI" info --sample-type 1 "$two" >"$tmp/info" 2>&1
	grep -q '^  simpleperf-event-type-index=2 of 2$' "$tmp/info"
	ok $? "info: the second, 2 of 2"
	"$TRACETUI" info --sample-type all "$two" >"$tmp/info" 2>&1
	grep -q '^  simpleperf-event-type-index=all of 2$' "$tmp/info" &&
		grep -q '^ *tid  *pid  *samples  *cpu-clock sched:sched_switch  name$' \
			"$tmp/info"
	ok $? "info: all of them, all of 2, each with its column"
	if [ -n "$have_tmux" ] && view "$two" 120x30; then
		keys y
		pane_wait '\| Profile \|.*sched:sched_switch samples' >/dev/null
		ok $? "viewer: y loads the second event type"
		keys y
		pane_wait '\| Profile \|.*all samples' >/dev/null
		r=$?
		keys y
		pane_wait '\| Profile \|.*cpu-clock samples' >/dev/null
		ok $((r + $?)) "viewer: y again, all of them, then the first again"
	else
		ok 0 "# SKIP no tmux or the viewer did not open"
		ok 0 "# SKIP no tmux or the viewer did not open"
	fi
else
	for i in 1 2 3 4 5; do ok 0 "# SKIP no $two"; done
fi

# --- --base: full names in the status ---------------------------------------
if [ -n "$have_tmux" ] && [ -f "$basic" ] && [ -f "$earlier" ]; then
	# make check: the narrow size; check-long: both.
	for size in 80x24 ${long:+120x30}; do
		if view "$basic" "$size" --base "$earlier"; then
			keys 3 j
			pane_wait '^android\.os\.Debug\.stopMethodTracing \(\)V .* base($| [0-9.]* ms, new)'
			ok $? "$size: against --base, the icicle's status names the frame in full and dotted, as diff does"
		else
			ok 1 "the viewer opens $basic against --base at $size"
		fi
	done
else
	ok 0 "# SKIP no tmux or no $basic"
	ok 0 "# SKIP no tmux or no $basic"
fi

# --- --base: the changes on diff's clock --------------------------------------
if [ -n "$have_tmux" ] && [ -f "$old" ] && [ -f "$new" ] &&
	view "$new" 120x30 --base "$old"; then
	keys w C-u
	type_text "$tmp/profile.tsv"
	keys Enter
	pane_wait "wrote [0-9]* rows to" >/dev/null
	"$TRACETUI" diff -f tsv "$old" "$new" 2>/dev/null >"$tmp/diff.tsv"
	# Each delta in ms as the viewer writes it; the columns found by
	# their titles (Δ is UTF-8's CE 94).
	awk -F'\t' '
		function ms(us) { return us == 0 ? "0.000" : sprintf("%+.3f", us / 1000) }
		NR == FNR { if (FNR > 1 && $2 == "both") { e[$1] = ms($8); i[$1] = ms($12) }; next }
		FNR == 1 { for (c = 1; c <= NF; c++) {
				if ($c == "\316\224Excl Cpu ms") de = c
				if ($c == "\316\224Incl Cpu ms") di = c }
			if (!de || !di) { print "no cpu change columns: " $0; exit 1 }
			next }
		$NF in e { n++; if ($de != e[$NF] || $di != i[$NF]) {
				bad++; if (bad < 5) print $NF ": " $de " " $di " against " e[$NF] " " i[$NF] } }
		END { if (!n || bad) { print n + 0 " rows, " bad + 0 " differ"; exit 1 } }' \
		"$tmp/diff.tsv" "$tmp/profile.tsv" >"$tmp/out" 2>&1
	ok $? "the profile's changes against --base are diff's, on its default clock (cpu)" ||
		diag <"$tmp/out"
else
	ok 0 "# SKIP no tmux or no $old"
fi

# --- a focus: the interval, the threads, the viewer -----------------------
if [ -f "$regular" ] && [ -f "$streaming" ]; then
	f=performCreate
	# Each command run once, with and without the focus; the lines
	# compared read by the shell.
	: >"$tmp/report"
	for file in "$regular" "$streaming"; do
		"$TRACETUI" report "$file" >"$tmp/whole"
		"$TRACETUI" report --focus $f "$file" >"$tmp/focus"
		{ read -r w1; read -r w2; } <"$tmp/whole"
		{ read -r f1; read -r f2; } <"$tmp/focus"
		every=${w2#sampled about every }
		every=${every%% ms*}
		case $w2 in
		"sampled about every "*" ms"*)
			case $every in
			*[!0-9.]*) false ;;
			*) [ "$w2" = "$f2" ] ;;
			esac ;;
		*) false ;;
		esac
		ok $? "report --focus states $(basename "$file")'s interval as without it" ||
			echo "$f2" | diag
		# "total 169.594 ms over 1 thread" of each.
		echo "total ${f1##*total }" >>"$tmp/report"
	done
	"$TRACETUI" diff "$regular" "$streaming" >"$tmp/diff.whole" 2>/dev/null
	"$TRACETUI" diff --focus $f "$regular" "$streaming" \
		>"$tmp/diff.focus" 2>/dev/null
	grep '^[a-z]*: *sampled' "$tmp/diff.whole" >"$tmp/whole"
	grep '^[a-z]*: *sampled' "$tmp/diff.focus" >"$tmp/focus"
	[ "$(wc -l <"$tmp/whole")" -eq 2 ] && cmp -s "$tmp/whole" "$tmp/focus"
	ok $? "diff --focus states both intervals as without it" ||
		diag <"$tmp/focus"

	# The totals, from report and diff.
	sed -n 's/^[a-z]*: *[^ ]*: .*\(total [^(]*[a-z]\).*$/\1/p' \
		"$tmp/diff.focus" >"$tmp/diff"
	case $(cat "$tmp/report") in *'over 1 thread') true ;; *) false ;; esac &&
		cmp -s "$tmp/report" "$tmp/diff"
	ok $? "diff --focus counts threads and totals as report --focus ($(tr '\n' ';' <"$tmp/report"))" ||
		diff "$tmp/report" "$tmp/diff" | diag
else
	for i in 1 2 3 4; do ok 0 "# SKIP no $regular or $streaming"; done
fi

if [ -n "$have_tmux" ] && [ -f "$regular" ]; then
	if view "$regular" 170x30 --focus performCreate; then
		pane_wait '\| Profile \|.*sampled about every 5\.475 ms.*\| --focus performCreate$'
		ok $? "viewer --focus: the title names it, the interval as without it"
		# report's first row on the wall clock, its share and time.
		row=$("$TRACETUI" report -c wall --focus performCreate "$regular" |
			awk 'NR == 4 { print $1 " .* " $2; exit }')
		pane_wait " $row .*performCreate" >/dev/null
		ok $? "viewer --focus: the first row has report's numbers ($row)"
	else
		ok 1 "the viewer opens $regular with --focus"
		ok 1 "the viewer opens $regular with --focus"
	fi
	opts="--focus performCreate --merge Instrumentation --drop inflate"
	if view "$regular" 80x24 $opts; then
		pane_wait '\| Profile \|.* \| --focus' >/dev/null
		# shellcheck disable=SC2086
		row=$("$TRACETUI" report -c wall $opts "$regular" |
			awk 'NR == 4 { print $2; exit }')
		pane_wait "^ *[0-9.]* *[0-9.]*% *$row " >/dev/null
		ok $? "viewer $opts: report's numbers ($row ms)"
	else
		ok 1 "the viewer opens $regular with $opts"
	fi
else
	for i in 1 2 3; do ok 0 "# SKIP no tmux or no $regular"; done
fi

# --- simpleperf: sorts, names, one time column ------------------------------
if [ -f "$bitmaps" ]; then
	want=$S/expected/aosp__display_bitmaps.trace.functions.tsv
	for key in self:2 total:3; do
		"$TRACETUI" report -s "${key%:*}" -f tsv "$bitmaps" |
			awk -F'\t' -v k="${key%:*}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
				{ print $c }' >"$tmp/got"
		tail -n +2 "$want" | cut -f"${key#*:}" | sort -nr >"$tmp/want"
		cmp -s "$tmp/got" "$tmp/want"
		ok $? "report -s ${key%:*}: a simpleperf recording by its ${key%:*} samples, the independent reader's" ||
			diff "$tmp/want" "$tmp/got" | head | diag
	done
	if [ -n "$have_tmux" ]; then
		# make check: the wide size (the narrow one is --base's
		# above); check-long: both.
		for size in ${long:+80x24} 120x30; do
			if view "$bitmaps" "$size"; then
				pane_wait '\| Profile \|.*cpu-clock samples' >/dev/null
				# One Total ms column, none on the wall clock: the
				# header read twice alike (not half drawn).
				wait_for 'settled "screen -S 1 -E 1" &&
					[ -n "$ctl_out" ]'
				head=$ctl_out
				# grep -o 'Total m\{0,1\}s' | wc -l, by the shell.
				n=0 h=$head
				while :; do
					case $h in
					*'Total '*)
						h=${h#*'Total '}
						case $h in s* | ms*) n=$((n + 1)) ;; esac ;;
					*) break ;;
					esac
				done
				case $head in
				*Wall* | *Cpu*) false ;;
				*) [ $n -eq 1 ] ;;
				esac
				ok $? "$size: a cpu-clock recording's time in one column" ||
					echo "$head" | diag
				search 'Looper\.loop$'
				pane_wait ' a\.o\.Looper\.loop$'
				ok $? "$size: its Java methods shortened as ART's (a.o.Looper.loop)"
			else
				ok 1 "the viewer opens $bitmaps at $size"
				ok 1 "the viewer opens $bitmaps at $size"
			fi
		done
	else
		for i in 1 2 3 4; do ok 0 "# SKIP no tmux"; done
	fi
else
	for i in 1 2 3 4 5 6; do ok 0 "# SKIP no $bitmaps"; done
fi

done_testing
