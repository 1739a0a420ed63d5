#!/bin/sh
# argv-order.sh: options may follow operands, GNU style, for every
# command (POSIXLY_CORRECT or not): each command's output is the same
# with its options before, between and after the operands; "--" ends
# the options (an operand starting with '-' after it), but for diff,
# where a "--" after an operand separates the runs and options go on
# after it; a heap dump's commands (their own parser) alike.  make
# check: report, calls (an operand among the options), diff and info in
# each order, --help after an operand for those; check-long: every
# command.
. "${top_srcdir:-.}/tests/lib.sh"

[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
cd "$tmp" || exit 1
demo_trace demo.trace || skip_all "no demo trace"
# The orders are the parser's, whatever the trace: make check reads a
# fixture of a few calls that has frames (t.trace), check-long the demo.
if [ -n "$long" ]; then
	ln -s demo.trace t.trace
else
	mkdir fixtures
	fixture_traces fixtures
	ln -s fixtures/render-frames.trace t.trace
fi

# same NAME BEFORE AFTER: the command's stdout and status are equal with
# its words as BEFORE and as AFTER orders them (split at blanks).  In
# make check, for the commands of $short only.
short=" report calls diff info "
same() {
	case $long$short in yes* | *" ${2%% *} "*) ;; *) return 0 ;; esac
	# shellcheck disable=SC2086
	"$TRACETUI" $2 >before.out 2>before.err
	s_rb=$?
	# shellcheck disable=SC2086
	"$TRACETUI" $3 >after.out 2>after.err
	s_ra=$?
	[ $s_rb -eq $s_ra ] && [ -s before.out ] && cmp -s before.out after.out
	ok $? "$1: options after the operands (status $s_rb, $s_ra)"
	[ $s_rb -eq $s_ra ] || head -3 after.err | diag
}

same "report" \
	"report -n 3 -f tsv t.trace" \
	"report t.trace -n 3 -f tsv"
same "report, no POSIXLY_CORRECT" \
	"report -n 3 t.trace" \
	"report t.trace -n 3"
POSIXLY_CORRECT=1
export POSIXLY_CORRECT
same "report under POSIXLY_CORRECT" \
	"report -n 3 t.trace" \
	"report t.trace -n 3"
unset POSIXLY_CORRECT
same "tree" \
	"tree --min-pct 5 t.trace" \
	"tree t.trace --min-pct 5"
same "calls" \
	"calls -t all -s wall -f tsv t.trace ." \
	"calls t.trace -t all . -s wall -f tsv"
same "frames" \
	"frames -f json t.trace" \
	"frames t.trace -f json"
same "triage" \
	"triage -f json --threshold R19=1 t.trace" \
	"triage t.trace --threshold R19=1 -f json"
same "info" \
	"info --max-input 1G t.trace" \
	"info t.trace --max-input 1G"
same "dump" \
	"dump --max-input 1G t.trace" \
	"dump t.trace --max-input 1G"
same "folded" \
	"folded -c wall t.trace" \
	"folded t.trace -c wall"
same "export" \
	"export --format speedscope t.trace" \
	"export t.trace --format speedscope"
same "flamegraph" \
	"flamegraph --width 600 t.trace" \
	"flamegraph t.trace --width 600"
same "diff" \
	"diff -n 3 -f tsv t.trace t.trace" \
	"diff t.trace -n 3 t.trace -f tsv"

# --help after an operand is help, for every command.
nl='
'
for cmd in report tree calls frames triage info dump folded diff export \
	flamegraph; do
	case $long$short in yes* | *" $cmd "*) ;; *) continue ;; esac
	run "$TRACETUI" $cmd t.trace --help
	case $nl$out in
	*"${nl}Usage: tracetui $cmd "*) ;;
	*) rc=1 ;;
	esac
	ok $rc "$cmd FILE --help: the help"
done

# "--" ends the options: what follows is an operand, '-' or not.
ln -s t.trace ./-t.trace
"$TRACETUI" report -n 2 -- -t.trace >dash.out 2>dash.err &&
	"$TRACETUI" report -n 2 t.trace >plain.out 2>&1 &&
	sed 's/-t\.trace/t.trace/' dash.out >dash.sed && cmp -s dash.sed plain.out
ok $? "report -- -FILE: a file whose name starts with '-'"
"$TRACETUI" calls -f tsv t.trace -- -t >dash.out 2>dash.err
rc=$? lines=0
while IFS= read -r line; do lines=$((lines + 1)); done <dash.out
[ $rc -eq 0 ] && [ $lines -eq 1 ]
ok $? "calls FILE -- -t: -t is the REGEX (no call matches it)"
"$TRACETUI" report t.trace -- -n 2 >/dev/null 2>dash.err
[ $? -eq 2 ] && grep -q "unexpected argument '-n'" dash.err
ok $? "report FILE -- -n 2: operands after --, a usage error"

# diff: "--" after an operand separates the runs; options go on after.
"$TRACETUI" diff -n 2 -f tsv t.trace t.trace -- t.trace \
	t.trace >runs1.out 2>/dev/null
r1=$?
"$TRACETUI" diff t.trace t.trace -- t.trace t.trace \
	-n 2 -f tsv >runs2.out 2>/dev/null
[ $r1 -eq $? ] && [ -s runs1.out ] && cmp -s runs1.out runs2.out
ok $? "diff BASE... -- NEW... OPTIONS: the runs, options after them"

# A heap dump's commands.
HEAP=${SHARED_HEAPDUMPS:-$abs_srcdir/../shared/heapdumps}/ahat__test-dump.hprof
if [ -f "$HEAP" ]; then
	"$TRACETUI" report -n 5 "$HEAP" >h1.out 2>/dev/null
	"$TRACETUI" report "$HEAP" -n 5 >h2.out 2>/dev/null
	[ -s h1.out ] && cmp -s h1.out h2.out
	ok $? "heap dump report: options after the file"
	POSIXLY_CORRECT=1 "$TRACETUI" report "$HEAP" -n 5 >h3.out 2>/dev/null
	cmp -s h1.out h3.out
	ok $? "heap dump report: options after the file, POSIXLY_CORRECT set"
	"$TRACETUI" report -n 5 -- "$HEAP" >h4.out 2>/dev/null
	cmp -s h1.out h4.out
	ok $? "heap dump report -n 5 -- FILE"
else
	ok 0 "# SKIP no shared heap dump"
	ok 0 "# SKIP no shared heap dump"
	ok 0 "# SKIP no shared heap dump"
fi

done_testing
