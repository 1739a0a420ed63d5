#!/bin/sh
# cli.sh: the command line contract of PRODUCT.md section 3: help and
# version for each command, exit statuses, one-line error messages that
# name the file, the offset and the problem.
. "${top_srcdir:-.}/tests/lib.sh"

nl='
'
# Matched by the shell's case, not a grep a check.
for cmd in report tree calls info dump folded; do
	run "$TRACETUI" $cmd --help
	case $rc$nl$out in
	"0${nl}Usage: tracetui $cmd "* | "0$nl"*"${nl}Usage: tracetui $cmd "*) r=0 ;;
	*) r=1 ;;
	esac
	ok $r "$cmd --help"
	run "$TRACETUI" $cmd -V
	case $rc$nl$out in
	*" "*" "* | *"$nl"*"$nl"*) r=1 ;;
	"0${nl}tracetui "?*) r=0 ;;
	*) r=1 ;;
	esac
	ok $r "$cmd --version"
	run "$TRACETUI" $cmd --no-such-option x.trace
	case $rc$nl$err in
	"2$nl"*"unknown option"*) r=0 ;;
	*) r=1 ;;
	esac
	ok $r "$cmd: unknown option is a usage error"
	run "$TRACETUI" $cmd
	ok $([ $rc -eq 2 ] && echo 0 || echo 1) "$cmd: no file is a usage error"
done
run "$TRACETUI" --help
ok $([ $rc -eq 0 ] && echo "$out" | grep -q "^Commands:" && echo 0 ||
	echo 1) "tracetui --help lists the commands"
# The viewer shows both clocks where the trace has both; report one.
ok $(printf '%s\n' "$out" | grep -q -- '--clock CLOCK  *wall or cpu (default: both where present)$' &&
	"$TRACETUI" report --help | grep -q -- '--clock CLOCK  *wall or cpu (default: cpu if present)$' &&
	echo 0 || echo 1) "--help: the viewer's default clock is both, a command's cpu"
run "$TRACETUI"
ok $([ $rc -eq 2 ] && echo 0 || echo 1) "no argument is a usage error"
run "$TRACETUI" report --top many x.trace
ok $([ $rc -eq 2 ] && echo 0 || echo 1) "--top needs a number"
# Every number option refuses NaN and the infinities (strtod reads them,
# and a range check written v < low || v > high lets NaN through).  make
# check: each value through one option, each option once; check-long:
# every value through every option.
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
	run "$TRACETUI" report --range "0..$v" x.trace
	ok $([ $rc -eq 2 ] && echo 0 || echo 1) "--range 0..$v: a usage error"
done
# "tracetui -" reads the trace from standard input and its keys from
# /dev/tty: without a terminal it says why (status 2), not "cannot
# open"; the batch commands read "-" as ever.
demo=${top_builddir:-.}/data/demo.trace
[ -f "$demo" ] || demo=${top_srcdir:-.}/data/demo.trace
if command -v setsid >/dev/null 2>&1 && [ -f "$demo" ]; then
	setsid "$TRACETUI" - <"$demo" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $([ $rc -eq 2 ] && grep -q "keys from the terminal (/dev/tty: " \
		"$tmp/err" && ! grep -q "cannot open" "$tmp/err" &&
		echo 0 || echo 1) "tracetui - without a terminal: why, exit 2 (got $rc)"
	diag <"$tmp/err"
	run sh -c "\"$TRACETUI\" report - <\"$demo\""
	ok $([ $rc -eq 0 ] && echo "$out" | grep -q '^-: thread-cpu clock' &&
		echo 0 || echo 1) "report - reads standard input"
fi
run "$TRACETUI" report --format xml x.trace
ok $([ $rc -eq 2 ] && echo 0 || echo 1) "unknown format"
run "$TRACETUI" report --clock sundial x.trace
ok $([ $rc -eq 2 ] && echo 0 || echo 1) "unknown clock"
run "$TRACETUI" info --min-pct 3 x.trace
ok $([ $rc -eq 2 ] && echo "$err" | grep -q "does not apply" && echo 0 ||
	echo 1) "an option another command takes is refused"

# Files that are not traces: exit 3 and "tracetui: FILE: offset N: ...".
expect_input_error() {
	# expect_input_error FILE PATTERN DESCRIPTION
	run "$TRACETUI" report "$1"
	ok $([ $rc -eq 3 ] && [ -z "$out" ] &&
		[ "$(echo "$err" | wc -l)" -eq 1 ] &&
		echo "$err" | grep -q "^tracetui: $1: offset [0-9]*: $2" &&
		echo 0 || echo 1) "$3"
	[ $rc -eq 3 ] || echo "$err" | diag
}
expect_input_error "$tmp/missing.trace" "cannot open" "missing file"
run "$TRACETUI" --base "$tmp/missing.trace" "$tmp/new.trace"
ok $([ $rc -eq 3 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
	echo "$err" | grep -q "^tracetui: $tmp/missing.trace: offset 0: " &&
	echo 0 || echo 1) "an unreadable --base exits with 3"
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
ok $([ $rc -eq 2 ] && [ "$err" = "tracetui: unknown command 'repot'; did you mean 'report'?" ] &&
	echo 0 || echo 1) "a mistyped command: did you mean"
run "$TRACETUI" florp x.trace
ok $([ $rc -eq 2 ] && echo "$err" | grep -q "^tracetui: unknown command 'florp' (see 'tracetui --help')$" &&
	echo 0 || echo 1) "an unknown command far from every one"
run "$TRACETUI" "$tmp/missing.trace"
ok $([ $rc -eq 3 ] && [ "$err" = "tracetui: $tmp/missing.trace: cannot open: No such file or directory" ] &&
	echo 0 || echo 1) "the viewer on a missing file says so"
run "$TRACETUI" "$tmp"
ok $([ $rc -eq 3 ] && echo "$err" | grep -q "is a directory" &&
	echo 0 || echo 1) "the viewer on a directory says so"
run "$TRACETUI" --bogus x.trace
ok $([ $rc -eq 2 ] && echo "$err" | grep -q "(see 'tracetui --help')$" &&
	echo 0 || echo 1) "the viewer's usage errors point at tracetui --help"
run "$TRACETUI" --help
ok $([ $rc -eq 0 ] && echo "$out" | grep -q -- "--range A..B" &&
	echo 0 || echo 1) "tracetui --help lists the viewer's options"


# Batch text tables speak milliseconds with the unit in the header, as
# report does; TSV keeps integer microseconds under _us names.  The text's
# numbers are the TSV's divided by 1000, row for row.
demo_trace "$tmp/demo.trace"
"$TRACETUI" tree --min-pct 5 "$tmp/demo.trace" >"$tmp/tree.txt"
"$TRACETUI" tree --min-pct 5 -f tsv "$tmp/demo.trace" >"$tmp/tree.tsv"
head -1 "$tmp/tree.txt" | grep -q '^Incl %  *Incl ms  *Excl ms  *Calls  *Method$' &&
	head -1 "$tmp/tree.tsv" | grep -q "^incl_pct	incl_us	excl_us	calls	depth	method$"
ok $? "tree: text columns in ms say so, TSV's in us say so"
awk 'NR > 1 { printf "%s %s %s\n", $2, $3, $4 }' "$tmp/tree.txt" >"$tmp/got"
awk -F'\t' 'NR > 1 { printf "%.3f %.3f %d\n", $2 / 1000, $3 / 1000, $4 }' \
	"$tmp/tree.tsv" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -gt 5 ] && cmp -s "$tmp/want" "$tmp/got"
ok $? "tree: the text's ms are the TSV's us / 1000 ($(wc -l <"$tmp/want") rows)"
"$TRACETUI" calls "$tmp/demo.trace" 'Choreographer\.doFrame' >"$tmp/calls.txt"
"$TRACETUI" calls -f tsv "$tmp/demo.trace" 'Choreographer\.doFrame' \
	>"$tmp/calls.tsv"
head -1 "$tmp/calls.txt" |
	grep -q '^Thread  *Tid  *Start ms  *Wall ms  *Cpu ms  *Depth  *Flags  *Method$' &&
	head -1 "$tmp/calls.tsv" |
	grep -q "^thread	tid	start_us	wall_us	cpu_us	depth	flags	method$"
ok $? "calls: text columns in ms say so, TSV's in us say so"
awk 'NR > 1 { printf "%s %s %s\n", $3, $4, $5 }' "$tmp/calls.txt" >"$tmp/got"
awk -F'\t' 'NR > 1 { printf "%.3f %.3f %.3f\n", $3 / 1000, $4 / 1000, $5 / 1000 }' \
	"$tmp/calls.tsv" >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -gt 100 ] && cmp -s "$tmp/want" "$tmp/got"
ok $? "calls: the text's ms are the TSV's us / 1000 ($(wc -l <"$tmp/want") calls)"

# --sample-type on a method trace: ignored, and the warning names both
# formats that take it.
"$TRACETUI" report --sample-type cpu "$tmp/demo.trace" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] &&
	grep -q 'warning: --sample-type applies to pprof profiles and simpleperf recordings only; ignored' "$tmp/err"
ok $? "--sample-type on a method trace: a warning naming pprof and simpleperf (exit $rc)"

done_testing
