#!/bin/sh
# transforms.sh: --focus, --merge, --drop, --collapse-recursion, --collapse
# and --group on tests/fixtures/transforms.spec, whose stacks and numbers
# the spec draws; the rows expected below are worked out by hand from
# that drawing, one transform at a time.
#
# - report rows (both clocks: the spec's times stand for both) of each
#   transform, and of two orders of the same pair;
# - tree, folded, export and diff take the transforms too;
# - bad values are usage errors; a regex matching nothing warns;
# - a transform that changes nothing (--drop '^$') gives byte-identical
#   outputs of every command, on the fixture and the real traces in
#   $SHARED_TRACES (skipped when absent).
# - --focus: every command's total is the focused calls' time.
#
# make check: the identity on the fixture, the focus on one real trace
# (Launcher__app's Thread.sleep, wall clock, and within a range), the
# demo's report under --focus (cpu clock); check-long: every real
# trace and the demo's methods.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
SHARED_TRACES=${SHARED_TRACES:-$srcdir/../shared/traces}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL

cd "$tmp" || exit 1
"$MKTRACE" "$srcdir/tests/fixtures/transforms.spec" t.trace ||
	skip_all "mktrace failed on transforms.spec"

# expect DESCRIPTION COMMAND ARGS...: the output of `tracetui COMMAND
# ARGS` without its first line (the header of TSV output) equals stdin,
# tabs written as spaces.  One awk compares, and keeps both sides for
# a failure's diff.
expect() {
	e_desc=$1
	shift
	"$TRACETUI" "$@" >"$tmp/out" 2>"$tmp/e"
	: >"$tmp/got"
	: >"$tmp/expect"
	if awk -v out="$tmp/out" -v got="$tmp/got" -v want="$tmp/expect" '
		FILENAME == out { if (FNR > 1) { gsub(/\t/, " "); g[++n] = $0
				print >got }
			next }
		{ w[++m] = $0; print >want }
		END { if (n != m) exit 1
			for (i = 1; i <= n; i++) if (g[i] != w[i]) exit 1 }' \
		"$tmp/out" /dev/stdin; then
		ok 0 "$e_desc"
	else
		ok 1 "$e_desc"
		diff -u "$tmp/expect" "$tmp/got" | diag
		diag <"$tmp/e"
	fi
}

# Columns: method, calls, recursive calls, incl and excl cpu, incl and
# excl wall.
expect "no transform: the numbers the spec works out" \
	report --format tsv t.trace <<EOF
p.App.main ()V 1 0 100 20 100 20
p.A.run ()V 1 0 50 20 50 20
r.C.rec ()V 1 2 30 26 30 26
p.A.helper ()V 1 0 20 10 20 10
q.B.work ()V 2 0 20 20 20 20
r.D.mid ()V 1 0 10 4 10 4
EOF

# helper vanishes; its excl 10 goes to run (20 + 10), whose incl stays.
expect "--merge: the method's exclusive time goes to its caller" \
	report --format tsv --merge 'A\.helper' t.trace <<EOF
p.App.main ()V 1 0 100 20 100 20
p.A.run ()V 1 0 50 30 50 30
r.C.rec ()V 1 2 30 26 30 26
q.B.work ()V 2 0 20 20 20 20
r.D.mid ()V 1 0 10 4 10 4
EOF

# Both work calls (10 each) go: helper 20 -> 10, run 50 -> 30, main
# 100 -> 80; excl times of the callers do not change.
expect "--drop: the calls and their time leave every caller" \
	report --format tsv --drop 'B\.work' t.trace <<EOF
p.App.main ()V 1 0 80 20 80 20
p.A.run ()V 1 0 30 20 30 20
r.C.rec ()V 1 2 30 26 30 26
p.A.helper ()V 1 0 10 10 10 10
r.D.mid ()V 1 0 10 4 10 4
EOF

expect "--drop: tree without the dropped calls" \
	tree --format tsv --min-pct 0 --drop 'B\.work' t.trace <<EOF
100.0 80 0 0 0 [main]
100.0 80 20 1 1 p.App.main ()V
37.5 30 20 1 2 p.A.run ()V
12.5 10 10 1 3 p.A.helper ()V
37.5 30 10 1 2 r.C.rec ()V
25.0 20 10 1 3 r.C.rec ()V
12.5 10 4 1 4 r.D.mid ()V
7.5 6 6 1 5 r.C.rec ()V
EOF
# The later calls move back by 20: rec starts at 40, not 60.
"$TRACETUI" export --format chrome --drop 'B\.work' t.trace >chrome.json
grep -q '"name":"r.C.rec ()V","ph":"X","pid":1,"tid":1,"ts":40,"dur":30' \
	chrome.json
ok $? "export --drop: the outer rec starts at 40 and lasts 30"

# The outermost rec (60..90) is the one root; the two rec calls inside
# it are merged: into it (10) and into mid (6, so mid's excl is 10).
expect "--focus: the outermost calls become roots, nested ones merged" \
	report --format tsv --focus 'C\.rec' t.trace <<EOF
r.C.rec ()V 1 0 30 20 30 20
r.D.mid ()V 1 0 10 10 10 10
EOF
# The focused calls are the whole (as the Firefox Profiler's focus on a
# function): the thread's time is mid's 10, nothing is outside any
# method, and percentages are shares of the focused time.
expect "--focus: tree has the method as its root, and only its time" \
	tree --format tsv --min-pct 0 --focus 'D\.mid' t.trace <<EOF
100.0 10 0 0 0 [main]
100.0 10 4 1 1 r.D.mid ()V
60.0 6 6 1 2 r.C.rec ()V
EOF

# The middle rec merges into the outer (excl 10 + 10), the innermost
# into mid (4 + 6): no recursive calls are left.
expect "--collapse-recursion: direct and indirect recursion fold" \
	report --format tsv --collapse-recursion t.trace <<EOF
p.App.main ()V 1 0 100 20 100 20
p.A.run ()V 1 0 50 20 50 20
r.C.rec ()V 1 0 30 20 30 20
p.A.helper ()V 1 0 20 10 20 10
q.B.work ()V 2 0 20 20 20 20
r.D.mid ()V 1 0 10 10 10 10
EOF

# The order matters: focus then collapse keeps the rec under mid;
# collapse then focus merged it into mid first.
expect "transforms apply in the order given (focus, collapse)" \
	report --format tsv --focus 'D\.mid' --collapse-recursion t.trace <<EOF
r.D.mid ()V 1 0 10 4 10 4
r.C.rec ()V 1 0 6 6 6 6
EOF
expect "transforms apply in the order given (collapse, focus)" \
	report --format tsv --collapse-recursion --focus 'D\.mid' t.trace <<EOF
r.D.mid ()V 1 0 10 10 10 10
EOF

# Classes: p.A has run and helper inside it (incl once: 50, excl
# 20 + 10, one recursive call); r.C keeps its three calls.
expect "--group class: one row per class, incl once per stack" \
	report --format tsv --group class t.trace <<EOF
p.App 1 0 100 20 100 20
p.A 1 1 50 30 50 30
r.C 1 2 30 26 30 26
q.B 2 0 20 20 20 20
r.D 1 0 10 4 10 4
EOF
# Packages: p = main, run, helper (excl 20 + 20 + 10); r = rec, rec,
# mid, rec (excl 26 + 4, incl 30 once).
expect "--group package: one row per package" \
	report --format tsv --group package t.trace <<EOF
p 1 2 100 50 100 50
r 1 3 30 30 30 30
q 2 0 20 20 20 20
EOF
# Collapse merges only a class's nested frames: run+helper become one
# p.A frame, rec+rec one r.C frame; mid's rec stays a frame of its own.
expect "--collapse class: nested frames of one class become one" \
	report --format tsv --collapse class t.trace <<EOF
p.App 1 0 100 20 100 20
p.A 1 0 50 30 50 30
r.C 1 1 30 26 30 26
q.B 2 0 20 20 20 20
r.D 1 0 10 4 10 4
EOF
# folded has no header: expect leaves out the first stack, checked apart.
expect "--collapse package: nested frames of one package become one" \
	folded --collapse package t.trace <<EOF
main;p;q 20
main;p;r 30
EOF
"$TRACETUI" folded --collapse package t.trace | head -n 1 >first
echo "main;p 50" | cmp -s - first
ok $? "--collapse package: p keeps 100 - 20 (q) - 30 (r) = 50"

expect "folded: merge and drop in one command" \
	folded --merge 'A\.run' --drop 'r\.D' t.trace <<EOF
main;p.App.main ()V;p.A.helper ()V 10
main;p.App.main ()V;p.A.helper ()V;q.B.work ()V 10
main;p.App.main ()V;q.B.work ()V 10
main;p.App.main ()V;r.C.rec ()V 10
main;p.App.main ()V;r.C.rec ()V;r.C.rec ()V 10
EOF
"$TRACETUI" folded --merge 'A\.run' --drop 'r\.D' t.trace | head -n 1 >first
echo "main;p.App.main ()V 40" | cmp -s - first
ok $? "folded: main keeps its 20 and run's 20"

# diff transforms both traces: grouped rows, no change.
expect "diff --group class: both traces grouped" \
	diff --format tsv --group class t.trace t.trace <<EOF
p.A both 2 2 0 30 30 0 0.00 50 50 0 0.00
p.App both 1 1 0 20 20 0 0.00 100 100 0 0.00
q.B both 2 2 0 20 20 0 0.00 20 20 0 0.00
r.C both 3 3 0 26 26 0 0.00 30 30 0 0.00
r.D both 1 1 0 4 4 0 0.00 10 10 0 0.00
EOF

# Usage errors and warnings.
run "$TRACETUI" report --group method t.trace
[ "$rc" -eq 2 ] && case $err in *"--group takes class or package"*) true ;;
*) false ;; esac
ok $? "--group method: usage error naming the choices"
run "$TRACETUI" report --merge '(' t.trace
[ "$rc" -eq 2 ] && case $err in *"'(': not a valid"*) true ;; *) false ;;
esac
ok $? "--merge with a bad regex: usage error naming it"
run "$TRACETUI" info --drop x t.trace
[ "$rc" -eq 2 ]
ok $? "info takes no transforms"
run "$TRACETUI" report --drop nothing-like-this t.trace
[ "$rc" -eq 0 ] && case $err in *"'nothing-like-this' matches no method"*)
	true ;; *) false ;; esac
ok $? "a regex matching no method: a warning, not an error"

# Without a change, nothing changes: every command, byte for byte, and
# the same exit status (some real traces cannot be read, or lack a clock).
same() {
	s_file=$1
	shift
	"$TRACETUI" "$@" "$s_file" >plain 2>/dev/null
	s_rc=$?
	"$TRACETUI" "$@" --drop '^$' "$s_file" >dropped 2>/dev/null
	[ $? -eq "$s_rc" ] && cmp -s plain dropped
}
identity() {
	i_file=$1
	i_bad=
	for i_cmd in "report --format tsv" "report --format tsv --clock wall" \
		"tree --format tsv --min-pct 0" "folded" \
		"export --format chrome" "export --format speedscope"; do
		# shellcheck disable=SC2086
		same "$i_file" $i_cmd || i_bad="$i_bad; $i_cmd"
	done
	[ -z "$i_bad" ] || echo "differs:$i_bad" | diag
	[ -z "$i_bad" ]
}
identity t.trace
ok $? "an identity transform changes no output of the fixture"
# Every real trace in make check-long; in make check the fixture's
# is the one.
if [ -n "$long" ] && [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		identity "$f"
		ok $? "an identity transform changes no output of ${f##*/}"
	done
fi


# --- focus means focus ------------------------------------------------------
# The focused calls are the whole, in every command: report's total,
# tree's roots, folded's lines, the flame graph's root, the HTML export's
# total and root, the outermost events of the speedscope and Chrome
# exports all hold the focused calls' time, and that is the time of the
# outermost calls of the matching methods as `calls` lists them (per
# thread, a call that starts before the last outermost one ends is inside
# it).  No "(outside any method)" is left.
cat >totals.py <<'EOF'
import json, re, sys
speedscope, chrome, html = sys.argv[1:4]
s = json.load(open(speedscope))
sp = 0
for p in s["profiles"]:
    depth, opened = 0, None
    for e in p["events"]:
        if e["type"] == "O":
            if depth == 0:
                opened = e["at"]
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                sp += e["at"] - opened
c = json.load(open(chrome))
ch, ends = 0, {}
for e in sorted((e for e in c["traceEvents"] if e["ph"] == "X"),
                key=lambda e: (e["tid"], e["ts"], -e["dur"])):
    if e["ts"] >= ends.get(e["tid"], -1):
        ch += e["dur"]
        ends[e["tid"]] = e["ts"] + e["dur"]
h = open(html).read()
m = re.search(r'"total": (\d+)', h)
print(sp, ch, m.group(1) if m else "none")
EOF

# focus_agrees FILE REGEX CLOCK: every total of --focus REGEX on CLOCK is
# the outermost calls' time; says which differ.
focus_agrees() {
	f_file=$1 f_re=$2 f_clock=$3
	f_col=4
	[ "$f_clock" = cpu ] && f_col=5
	f_want=$("$TRACETUI" calls --format tsv "$f_file" "$f_re" 2>/dev/null |
		awk -F'\t' -v col="$f_col" 'NR > 1 {
			if (!($2 in end) || $3 >= end[$2]) {
				sum += $col; end[$2] = $3 + $4 } }
		END { printf "%d\n", sum }')
	set -- --focus "$f_re" --clock "$f_clock"
	f_report=$("$TRACETUI" report "$@" "$f_file" 2>/dev/null |
		sed -n '1s/.*, total \([0-9.]*\) ms over.*/\1/p' | tr -d .)
	f_report=$(expr "$f_report" + 0)
	# The tree's and folded's sums, and their lines outside any method
	# (none may be), from one run each.
	f_tree=$("$TRACETUI" tree --format tsv --min-pct 0 "$@" "$f_file" \
		2>/dev/null | awk -F'\t' 'NR > 1 && $5 == 0 { s += $2 }
		/outside any method/ { o++ }
		END { printf "%d %d\n", s, o }')
	f_folded=$("$TRACETUI" folded "$@" "$f_file" 2>/dev/null |
		awk '{ s += $NF } /outside any method/ { o++ }
		END { printf "%d %d\n", s, o }')
	f_outside=$((${f_tree#* } + ${f_folded#* }))
	f_tree=${f_tree% *} f_folded=${f_folded% *}
	"$TRACETUI" flamegraph "$@" "$f_file" >flame.svg 2>/dev/null
	f_flame=$(sed -n 's/.* data-total="\([0-9]*\)".*/\1/p' flame.svg | head -1)
	f_root=$(sed -n 's/.*<g class="f" .* data-i="\([0-9]*\)".*/\1/p' \
		flame.svg | head -1)
	"$TRACETUI" export --format speedscope "$@" "$f_file" >s.json 2>/dev/null
	"$TRACETUI" export --format chrome "$@" "$f_file" >c.json 2>/dev/null
	"$TRACETUI" export --format html "$@" "$f_file" >h.html 2>/dev/null
	f_exports=$(python3 totals.py s.json c.json h.html 2>&1)
	f_all="$f_report $f_tree $f_folded $f_flame $f_root $f_exports"
	[ "$f_all" = "$f_want $f_want $f_want $f_want $f_want $f_want $f_want $f_want" ] &&
		[ "$f_want" -gt 0 ] && [ "$f_outside" -eq 0 ]
	f_rc=$?
	[ $f_rc -eq 0 ] || echo "want $f_want: report tree folded flame root" \
		"speedscope chrome html: $f_all; outside: $f_outside" | diag
	return $f_rc
}

demo=$srcdir/data/demo.trace
if command -v python3 >/dev/null 2>&1 && [ -f "$demo" ]; then
	# The outermost performMeasure calls (as `calls` lists them):
	# 56.041 ms of thread-cpu time, 409.984 ms of wall time.
	# (make check: the demo's report alone, every total on a real
	# trace's two methods, one a clock; check-long: every one listed)
	for clock in ${long:+cpu wall}; do
		focus_agrees "$demo" 'ViewRootImpl\.performMeasure' $clock
		ok $? "demo, --focus performMeasure ($clock): every total is the focused calls'"
	done
	# One report: its first line and the method's row, read by the
	# shell.
	total= row=
	while IFS= read -r r_line; do
		[ -n "$total" ] || total=$r_line
		case $r_line in *performMeasure*) [ -n "$row" ] || row=$r_line ;; esac
	done <<REPORT
$("$TRACETUI" report --focus 'ViewRootImpl\.performMeasure' "$demo")
REPORT
	case $total in *", total 56.041 ms over 1 thread") true ;;
	*) false ;; esac && case $row in "100.0%   56.041 "*) true ;;
	*) false ;; esac
	ok $? "demo: report --focus performMeasure says total 56.041 ms, the method 100%"
	echo "$total" | diag
	for re in ${long:+'Choreographer\.doFrame' 'Thread\.run' \
		'Handler\.dispatchMessage|Looper\.loopOnce'}; do
		focus_agrees "$demo" "$re" cpu
		ok $? "demo, --focus '$re': every total is the focused calls'"
	done
	# Within a range, the focused calls cut to it: the demo's doFrame
	# in check-long, Launcher__app's Thread.sleep (a call of 2.5 s from
	# 1.2 s) in make check.
	r_file=$demo r_re='Choreographer\.doFrame'
	if [ -z "$long" ]; then
		r_file=$SHARED_TRACES/Launcher__app.trace r_re='Thread\.sleep'
	fi
	if [ -f "$r_file" ]; then
		a=$("$TRACETUI" report --focus "$r_re" --range 2s..4s \
			--clock wall "$r_file" |
			sed -n '1s/.*, total \([0-9.]*\) ms.*/\1/p')
		b=$("$TRACETUI" tree --format tsv --min-pct 0 --clock wall \
			--focus "$r_re" --range 2s..4s "$r_file" |
			awk -F'\t' 'NR > 1 && $5 == 0 { s += $2 }
			END { printf "%.3f\n", s / 1000 }')
		[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "0.000" ]
		ok $? "${r_file##*/}, --focus $r_re --range 2s..4s: report's total is tree's ($a, $b)"
	fi
else
	ok 0 "focus on the demo # SKIP no python3 or data/demo.trace"
fi
if command -v python3 >/dev/null 2>&1 && [ -d "$SHARED_TRACES" ]; then
	while read -r name re clock; do
		[ -f "$SHARED_TRACES/$name" ] || continue
		# make check: the first (the demo's report above is on the
		# cpu clock).
		[ -n "$long" ] || [ -z "${one_focus:-}" ] || continue
		one_focus=yes
		focus_agrees "$SHARED_TRACES/$name" "$re" "$clock"
		ok $? "$name, --focus '$re' ($clock): every total is the focused calls'"
	done <<'EOF'
Launcher__app.trace Thread\.sleep wall
Launcher__app.trace App\.(test|init) cpu
AndroidPerformance__App.trace FutureTask\.run wall
AndroidPerformance__App.trace Looper\.loop cpu
android-methods-profiler__legacy.trace Handler\.dispatchMessage wall
perflib__exception.trace Throwable\.<init> cpu
EOF
fi

# A focus on nothing, or a drop of everything, is refused (status 2),
# naming the option and its regex, with nothing on standard output.
for cmd in report tree folded flamegraph "export --format html" diff; do
	set -- t.trace
	[ "$cmd" = diff ] && set -- t.trace t.trace
	# shellcheck disable=SC2086
	run "$TRACETUI" $cmd --focus NoSuchThing "$@"
	[ "$rc" -eq 2 ] && [ -z "$out" ] &&
		[ "$err" = "tracetui: t.trace: --focus 'NoSuchThing' matches no method: nothing to focus on" ]
	ok $? "$cmd --focus NoSuchThing: refused, status 2 (status $rc)"
	echo "$err" | diag
done
# Both work calls are under run: dropped first, nothing is left to focus.
run "$TRACETUI" report --drop 'A\.run' --focus 'B\.work' t.trace
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
	[ "$err" = "tracetui: t.trace: --focus 'B\.work' matches no call: nothing to focus on" ]
ok $? "a focus on methods with no call left: refused (status $rc)"
echo "$err" | diag
run "$TRACETUI" tree --drop 'App\.main' t.trace
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
	[ "$err" = "tracetui: t.trace: --drop 'App\.main' removes every call: nothing would be left" ]
ok $? "a drop of every call: refused, status 2 (status $rc)"
echo "$err" | diag
run "$TRACETUI" report --merge . t.trace
[ "$rc" -eq 2 ] && case $err in *"--merge '.' removes every call"*) true ;;
*) false ;; esac
ok $? "a merge of every method: refused, status 2 (status $rc)"

done_testing
