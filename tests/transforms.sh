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
# tabs written as spaces.
expect() {
	e_desc=$1
	shift
	cat >"$tmp/expect"
	"$TRACETUI" "$@" 2>"$tmp/e" | tail -n +2 | tr '\t' ' ' >"$tmp/got"
	if cmp -s "$tmp/expect" "$tmp/got"; then
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
# The thread keeps its traced time (100): the 90 outside the focus
# is outside any method, and percentages stay shares of the thread.
expect "--focus: tree has the method as its root" \
	tree --format tsv --min-pct 0 --focus 'D\.mid' t.trace <<EOF
100.0 100 0 0 0 [main]
90.0 90 90 0 1 (outside any method)
10.0 10 4 1 1 r.D.mid ()V
6.0 6 6 1 2 r.C.rec ()V
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
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		is_fast_trace "$f" || continue
		identity "$f"
		ok $? "an identity transform changes no output of ${f##*/}"
	done
fi

done_testing
