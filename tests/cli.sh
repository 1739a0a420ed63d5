#!/bin/sh
# cli.sh: the command line contract of PRODUCT.md section 3: help and
# version for each command, exit statuses, one-line error messages that
# name the file, the offset and the problem.  make check: one case of
# each kind (the help checks on two commands, one each for the others,
# each NaN spelling through one option); check-long: every command and
# spelling.
. "${top_srcdir:-.}/tests/lib.sh"

nl='
'
# Matched by the shell's case, not a grep a check.  make check: report
# and tree through the four checks, each other command through one of
# them in turn; check-long: every command through all four.
# kind K: whether command $ci takes check K (1 to 4) here.
kind() { [ -n "$long" ] || [ $ci -le 2 ] || [ $((ci - 2)) -eq "$1" ]; }
ci=0
for cmd in report tree calls info dump folded; do
	ci=$((ci + 1))
	if kind 1; then
		run "$TRACETUI" $cmd --help
		case $rc$nl$out in
		"0${nl}Usage: tracetui $cmd "* | "0$nl"*"${nl}Usage: tracetui $cmd "*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$cmd --help"
	fi
	if kind 2; then
		run "$TRACETUI" $cmd -V
		case $rc$nl$out in
		*" "*" "* | *"$nl"*"$nl"*) r=1 ;;
		"0${nl}tracetui "?*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$cmd --version"
	fi
	if kind 3; then
		run "$TRACETUI" $cmd --no-such-option x.trace
		case $rc$nl$err in
		"2$nl"*"unknown option"*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$cmd: unknown option is a usage error"
	fi
	if kind 4; then
		run "$TRACETUI" $cmd
		[ $rc -eq 2 ]
		ok $? "$cmd: no file is a usage error"
	fi
done
# One tracetui --help for what it lists.
run "$TRACETUI" --help
help_rc=$rc help=$out
case $help_rc$nl$help in
"0$nl"*"${nl}Commands:"*) r=0 ;;
*) r=1 ;;
esac
ok $r "tracetui --help lists the commands"
# The viewer shows both clocks where the trace has both; report one.
run "$TRACETUI" report --help
r=1
case $help in
*"--clock CLOCK "*" wall or cpu (default: both where present)$nl"*)
	case $out in
	*"--clock CLOCK "*" wall or cpu (default: cpu if present)$nl"*) r=0 ;;
	esac ;;
esac
ok $r "--help: the viewer's default clock is both, a command's cpu"
run "$TRACETUI"
[ $rc -eq 2 ]
ok $? "no argument is a usage error"
run "$TRACETUI" report --top many x.trace
[ $rc -eq 2 ]
ok $? "--top needs a number"
# Every number option refuses NaN and the infinities (strtod reads them,
# and a range check written v < low || v > high lets NaN through).  make
# check: each value through one option, each option once, --range with
# nan and 1e999; check-long: every value through every option.
vi=0
for v in nan -nan inf -inf infinity 1e999; do
	ci=0
	for cmd in "tree --min-pct" "flamegraph --min-width" \
		"flamegraph --width" "diff --alpha" "report --top" \
		"frames --budget" "frames --refresh-rate"; do
		ci=$((ci + 1))
		[ -n "$long" ] || [ $((ci % 6)) -eq $vi ] || continue
		# shellcheck disable=SC2086
		run "$TRACETUI" $cmd "$v" x.trace
		case $rc$nl$err in
		"2$nl"*"not '$v'"*) r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$cmd $v: a usage error (got $rc)"
	done
	vi=$((vi + 1))
	case $long$v in yes* | nan | 1e999) ;; *) continue ;; esac
	run "$TRACETUI" report --range "0..$v" x.trace
	[ $rc -eq 2 ]
	ok $? "--range 0..$v: a usage error"
done
# "tracetui -" reads the trace from standard input and its keys from
# /dev/tty: without a terminal it says why (status 2), not "cannot
# open"; the batch commands read "-" as ever.
# (Any trace: make check reads a generated fixture, check-long the demo.)
demo_trace "$tmp/demo.trace"
tiered_trace "$tmp/demo.trace"
demo=$trace
if command -v setsid >/dev/null 2>&1 && [ -f "$demo" ]; then
	setsid "$TRACETUI" - <"$demo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t_err=$(cat "$tmp/err")
	r=1
	case $rc$nl$t_err in
	*"cannot open"*) ;;
	"2$nl"*"keys from the terminal (/dev/tty: "*) r=0 ;;
	esac
	ok $r "tracetui - without a terminal: why, exit 2 (got $rc)"
	diag <"$tmp/err"
	out=$("$TRACETUI" report - <"$demo" 2>/dev/null)
	rc=$?
	case $rc$nl$out in
	"0$nl-: thread-cpu clock"* | "0$nl"*"$nl-: thread-cpu clock"*) r=0 ;;
	*) r=1 ;;
	esac
	ok $r "report - reads standard input"
fi
run "$TRACETUI" report --format xml x.trace
[ $rc -eq 2 ]
ok $? "unknown format"
run "$TRACETUI" report --clock sundial x.trace
[ $rc -eq 2 ]
ok $? "unknown clock"
run "$TRACETUI" info --min-pct 3 x.trace
case $rc$nl$err in "2$nl"*"does not apply"*) r=0 ;; *) r=1 ;; esac
ok $r "an option another command takes is refused"

# Files that are not traces: exit 3 and "tracetui: FILE: offset N: ...".
expect_input_error() {
	# expect_input_error FILE PATTERN DESCRIPTION
	# (PATTERN is a shell pattern; matched by the shell.)
	run "$TRACETUI" report "$1"
	r=1
	case $rc$out$nl$err in
	*"$nl"*"$nl"*) ;;
	"3${nl}tracetui: $1: offset "[0-9]*": "$2*) r=0 ;;
	esac
	ok $r "$3"
	[ $rc -eq 3 ] || echo "$err" | diag
}
expect_input_error "$tmp/missing.trace" "cannot open" "missing file"
run "$TRACETUI" --base "$tmp/missing.trace" "$tmp/new.trace"
case $rc$nl$err in
*"$nl"*"$nl"*) r=1 ;;
"3${nl}tracetui: $tmp/missing.trace: offset 0: "*) r=0 ;;
*) r=1 ;;
esac
ok $r "an unreadable --base exits with 3"
expect_input_error "$tmp" "is a directory" "a directory"
: >"$tmp/empty.trace"
expect_input_error "$tmp/empty.trace" "the file is empty" "an empty file"
expect_input_error /dev/zero "is a device" "/dev/zero"
printf 'hello, world\n' >"$tmp/text.trace"
expect_input_error "$tmp/text.trace" "not a method trace" "a text file"
printf '*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n' \
	>"$tmp/nokeyend.trace"
expect_input_error "$tmp/nokeyend.trace" "expected '\*end'" \
	"a key without *end"
printf '\037\213\010\000' >"$tmp/gz.trace"
expect_input_error "$tmp/gz.trace" "gzip" "a gzip file"
if [ "$(id -u)" -ne 0 ]; then
	printf '*version\n' >"$tmp/secret.trace"
	chmod 000 "$tmp/secret.trace"
	expect_input_error "$tmp/secret.trace" "cannot open" "an unreadable file"
fi
mkfifo "$tmp/fifo.trace" 2>/dev/null && {
	# Read as cat reads it, whoever comes first: the reader waits for
	# its writer.  The writer gives up if nothing ever reads.
	timeout 10 sh -c 'printf SLOW >"$1"' sh "$tmp/fifo.trace" &
	expect_input_error "$tmp/fifo.trace" "not a method trace" \
		"a FIFO with junk"
	wait $!
}

# A mistyped command, a missing file and a directory are said as such,
# before the viewer would ask for a terminal.
run "$TRACETUI" repot x.trace
[ $rc -eq 2 ] && [ "$err" = "tracetui: unknown command 'repot'; did you mean 'report'?" ]
ok $? "a mistyped command: did you mean"
run "$TRACETUI" florp x.trace
[ $rc -eq 2 ] && [ "$err" = "tracetui: unknown command 'florp' (see 'tracetui --help')" ]
ok $? "an unknown command far from every one"
run "$TRACETUI" "$tmp/missing.trace"
[ $rc -eq 3 ] && [ "$err" = "tracetui: $tmp/missing.trace: cannot open: No such file or directory" ]
ok $? "the viewer on a missing file says so"
run "$TRACETUI" "$tmp"
case $rc$nl$err in "3$nl"*"is a directory"*) r=0 ;; *) r=1 ;; esac
ok $r "the viewer on a directory says so"
run "$TRACETUI" --bogus x.trace
case $rc$nl$err in "2$nl"*"(see 'tracetui --help')") r=0 ;; *) r=1 ;; esac
ok $r "the viewer's usage errors point at tracetui --help"
case $help_rc$nl$help in "0$nl"*"--range A..B"*) r=0 ;; *) r=1 ;; esac
ok $r "tracetui --help lists the viewer's options"


# Batch text tables speak milliseconds with the unit in the header, as
# report does; TSV keeps integer microseconds under _us names.  The text's
# numbers are the TSV's divided by 1000, row for row.  One awk reads the
# four tables: for each of tree and calls, "HEADERS ROWS SAME" (1 where
# the headers are right, the TSV's row count, 1 where the numbers agree).
"$TRACETUI" tree --min-pct 5 "$tmp/demo.trace" >"$tmp/tree.txt"
"$TRACETUI" tree --min-pct 5 -f tsv "$tmp/demo.trace" >"$tmp/tree.tsv"
"$TRACETUI" calls "$tmp/demo.trace" 'Choreographer\.doFrame' >"$tmp/calls.txt"
"$TRACETUI" calls -f tsv "$tmp/demo.trace" 'Choreographer\.doFrame' \
	>"$tmp/calls.tsv"
set -- $(awk '
	FNR == 1 { f++ }
	f == 1 && FNR == 1 { h1 = /^Incl %  *Incl ms  *Excl ms  *Calls  *Method$/ }
	f == 1 && FNR > 1 { t[FNR] = $2 " " $3 " " $4; tn = FNR }
	f == 2 && FNR == 1 { h1 = h1 && $0 == "incl_pct\tincl_us\texcl_us\tcalls\tdepth\tmethod"; s1 = 1 }
	f == 2 && FNR > 1 { split($0, c, "\t"); n1++
		s1 = s1 && t[FNR] == sprintf("%.3f %.3f %d", c[2] / 1000, c[3] / 1000, c[4]) }
	f == 2 { m1 = FNR == tn }
	f == 3 && FNR == 1 { h2 = /^Thread  *Tid  *Start ms  *Wall ms  *Cpu ms  *Depth  *Flags  *Method$/ }
	f == 3 && FNR > 1 { u[FNR] = $3 " " $4 " " $5; un = FNR }
	f == 4 && FNR == 1 { h2 = h2 && $0 == "thread\ttid\tstart_us\twall_us\tcpu_us\tdepth\tflags\tmethod"; s2 = 1 }
	f == 4 && FNR > 1 { split($0, c, "\t"); n2++
		s2 = s2 && u[FNR] == sprintf("%.3f %.3f %.3f", c[3] / 1000, c[4] / 1000, c[5] / 1000) }
	f == 4 { m2 = FNR == un }
	END { print h1 + 0, n1 + 0, s1 && m1 ? 1 : 0, h2 + 0, n2 + 0, s2 && m2 ? 1 : 0 }
	' "$tmp/tree.txt" "$tmp/tree.tsv" "$tmp/calls.txt" "$tmp/calls.tsv")
[ "$1" = 1 ]
ok $? "tree: text columns in ms say so, TSV's in us say so"
[ "$2" -gt 5 ] && [ "$3" = 1 ]
ok $? "tree: the text's ms are the TSV's us / 1000 ($2 rows)"
[ "$4" = 1 ]
ok $? "calls: text columns in ms say so, TSV's in us say so"
[ "$5" -gt 100 ] && [ "$6" = 1 ]
ok $? "calls: the text's ms are the TSV's us / 1000 ($5 calls)"

# --sample-type on a method trace: ignored, and the warning names both
# formats that take it.
"$TRACETUI" report --sample-type cpu "$demo" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] &&
	grep -q 'warning: --sample-type applies to pprof profiles and simpleperf recordings only; ignored' "$tmp/err"
ok $? "--sample-type on a method trace: a warning naming pprof and simpleperf (exit $rc)"

done_testing
