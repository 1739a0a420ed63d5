#!/bin/sh
# shares.sh: what the viewer says of a method's callers, in a detached
# tmux server of our own, on the shared traces ($SHARED_TRACES; skipped
# when absent):
# - the call tree turned bottom-up gives each caller of a method its
#   share of that method on each clock shown (not of the whole trace),
#   as the profile's Parents do, at 120 and 80 columns;
# - at 80 and 100 columns the Parents keep the share on the sorted
#   clock while other numbers give way (make check: 80, in the viewer
#   of the 80-column tree; check-long: 100 too).
# Every tmux command goes through one control-mode client: no process
# a key, a poll or a check.
# The shares are checked against an independent reading of `tree`'s
# call paths (the time of the method's outermost calls summed by their
# caller) and `report`'s total of the method, on each clock.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
T=${SHARED_TRACES:-}
[ -n "$T" ] && [ -d "$T" ] || skip_all "no shared traces"
regular=$T/firefox-profiler__art-trace-regular.trace
[ -f "$regular" ] || skip_all "no shared traces"
method='java.lang.Object.wait (JI)V'

. "${top_srcdir:-.}/tests/tmux-ctl.sh"

sock=tracetui-shares-$$
trap 'view_end; ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"

# report's numbers of every method on both clocks, read once.
"$TRACETUI" report -f tsv "$regular" >"$tmp/report.tsv"

# shares CLOCK: each caller of $method with its share of the method's
# time on CLOCK, "Class.name<TAB>pct" (the class without its package,
# as the viewer's short names end), heaviest first: from `tree`'s paths,
# the method's outermost calls summed by their caller, over `report`'s
# total of the method.
shares() {
	total=$(awk -F'\t' -v m="$method" -v k="$1" '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "incl_" k) c = i }
			$1 == m { print $c }' "$tmp/report.tsv")
	"$TRACETUI" tree -f tsv --min-pct 0 --no-thread -c "$1" "$regular" |
		awk -F'\t' -v m="$method" -v total="$total" '
		NR == 1 { next }
		{
			d = $5; name[d] = $6
			# Outermost: no frame above it is the method.
			if ($6 == m) {
				outer = 1
				for (i = 0; i < d; i++) if (name[i] == m) outer = 0
				if (outer) sum[d ? name[d - 1] : "(top level)"] += $2
			}
		}
		END {
			for (c in sum) {
				split(c, w, " "); n = split(w[1], p, ".")
				printf "%s.%s\t%.1f%%\n", p[n - 1], p[n], 100 * sum[c] / total
			}
		}' | sort -t'	' -k2,2nr
}

shares wall >"$tmp/wall"
shares cpu >"$tmp/cpu"
[ -s "$tmp/wall" ] && [ -s "$tmp/cpu" ]
ok $? "the oracle reads the callers of $method" || diag <"$tmp/wall"

# rows_match FILE...: every caller of the oracle's files shows on a row
# with its share on each file's clock, in the order of the files'
# columns on screen (a regex of the shares, then the name).
rows_match() {
	paste "$@" | while IFS='	' read -r name wall name2 cpu; do
		[ "$name" = "$name2" ] || { echo "order: $name $name2"; exit 1; }
		re_of "$name"
		pane_wait " ${wall} .* ${cpu} .*${re}(\([^)]*\))?$" >/dev/null ||
			{ echo "no row: $wall $cpu $name"; exit 1; }
	done
}

# The callers in wall order, with the cpu share of each beside it.
awk -F'\t' 'NR == FNR { cpu[$1] = $2; next } { print $1 "\t" cpu[$1] }' \
	"$tmp/cpu" "$tmp/wall" >"$tmp/cpu-by-wall"

# parents_match FILE: each caller in FILE ("name<TAB>wall") shows as a
# parent with its wall share, what fails named.
parents_match() {
	while IFS='	' read -r name wall; do
		re_of "$name"
		pane_wait " ${wall} .*${re}(\([^)]*\))?$" >/dev/null ||
			echo "no parent row: $wall $name"
	done <"$1"
}

if view "$regular" 120x30; then
	search 'Object\.wait \(JI\)'
	keys 7 b
	pane_wait 'bottom-up: callers below, % of the method' >/dev/null
	pane_wait '^ *74\.6% .* 4\.1% .*Object\.wait\(long,int\)$' >/dev/null
	r=$?
	out=$(rows_match "$tmp/wall" "$tmp/cpu-by-wall")
	ok "$((r + $?))" "bottom-up: each caller's share of $method, wall and cpu ($(tr '\n' ' ' <"$tmp/wall"))"
	[ -z "$out" ] || echo "$out" | diag

	keys 1 Enter
	pane_wait '^ *Parents' >/dev/null
	# The profile's columns: Cpu% first, then Wall%.
	out=$(paste "$tmp/wall" "$tmp/cpu-by-wall" |
		while IFS='	' read -r name wall name2 cpu; do
			re_of "$name"
			pane_wait "^ *${cpu} .* ${wall} .*${re}(\([^)]*\))?$" >/dev/null ||
				echo "no parent row: $cpu $wall $name"
		done)
	[ -z "$out" ]
	ok $? "the profile's Parents: the same shares" || echo "$out" | diag
else
	ok 1 "the viewer opens $regular"
fi

# At 80 columns the bottom-up tree keeps both shares; back in the
# profile (1), Enter opens the method: the Parents keep the share on
# the sorted clock (wall) while other numbers give way.  (One viewer
# for both, as at 120 columns.)
if view "$regular" 80x24; then
	search 'Object\.wait \(JI\)'
	keys 7 b
	pane_wait '\(bottom-up\)' >/dev/null
	out=$(rows_match "$tmp/wall" "$tmp/cpu-by-wall")
	ok $? "80x24 bottom-up: the callers' shares, wall and cpu" ||
		echo "$out" | diag
	keys 1 Enter
	pane_wait '^ *Parents' >/dev/null
	out=$(parents_match "$tmp/wall")
	[ -z "$out" ]
	ok $? "at 80x24 the Parents keep their wall share" ||
		echo "$out" | diag
else
	ok 1 "the viewer opens $regular at 80x24"
	ok 1 "the viewer opens $regular at 80x24"
fi

# check-long: at 100 columns too, in a viewer of its own.
for size in ${long:+100x24}; do
	if view "$regular" "$size"; then
		search 'Object\.wait \(JI\)'
		keys Enter
		pane_wait '^ *Parents' >/dev/null
		out=$(parents_match "$tmp/wall")
		[ -z "$out" ]
		ok $? "at $size the Parents keep their wall share" ||
			echo "$out" | diag
	else
		ok 1 "the viewer opens $regular at $size"
	fi
done
done_testing
