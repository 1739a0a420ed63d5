#!/bin/sh
# patterns.sh: every regular expression the program compiles goes
# through util/pattern.c's limits.  glibc's regcomp overflowed its stack
# on 20,000 nested '(' (exit 139 from --focus, --merge, --drop and calls,
# the viewer's terminal left raw) and takes minutes or gigabytes on
# long patterns and nested repetitions (runs of optional copies, {,n}
# among them, under a limit of address space).  Each option and prompt that
# takes a regex must refuse such a pattern with a usage error (status 2)
# or a status-line message, and go on taking ordinary ones.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
RENDER=${top_builddir:-.}/tests/render
srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
"$MKTRACE" "$srcdir/tests/fixtures/render-gen.spec" "$tmp/gen.trace" ||
	skip_all "mktrace failed"
f=$tmp/gen.trace

# repeat N TEXT: TEXT N times.
repeat() {
	awk -v n="$1" -v t="$2" 'BEGIN { while (n-- > 0) printf "%s", t }'
}

deep="$(repeat 20000 '(')a$(repeat 20000 ')')"
nested101="$(repeat 101 '(')Looper$(repeat 101 ')')"
nested100="$(repeat 100 '(')Looper$(repeat 100 ')')"
long_pattern="Looper$(repeat 4100 '.?')"
expand='(a{0,1000}){0,1000}'

# refused DESCRIPTION WHY CMD...: exit 2 with WHY on stderr, nothing on
# stdout, and a message that shows at most the pattern's start.
refused() {
	r_desc=$1 r_why=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "$r_why" "$tmp/err" &&
		[ "$(wc -c <"$tmp/err")" -lt 400 ]
	ok $? "$r_desc: usage error (exit $rc): $r_why"
	[ $rc -eq 2 ] || head -c 300 "$tmp/err" | diag
}

for opt in --focus --merge --drop; do
	refused "report $opt, 20000 nested groups" "$opt '((((.*': longer than 4096 bytes" \
		"$TRACETUI" report "$opt" "$deep" "$f"
	refused "report $opt, 101 nested groups" "nested deeper than 100 parentheses" \
		"$TRACETUI" report "$opt" "$nested101" "$f"
	refused "tree $opt, nested repetitions" "too large once its repetitions expand" \
		"$TRACETUI" tree "$opt" "$expand" "$f"
	"$TRACETUI" report "$opt" "$nested100" "$f" >/dev/null 2>&1
	ok $? "report $opt: 100 nested groups are within the limit"
done
refused "calls, 20000 nested groups" "longer than 4096 bytes" \
	"$TRACETUI" calls "$f" "$deep"
refused "calls, 101 nested groups" "nested deeper than 100 parentheses" \
	"$TRACETUI" calls "$f" "$nested101"
refused "calls, a pattern of 8206 bytes" "longer than 4096 bytes" \
	"$TRACETUI" calls "$f" "$long_pattern"
refused "calls, nested repetitions" "too large once its repetitions expand" \
	"$TRACETUI" calls "$f" "$expand"
refused "calls, an interval of a million" "too large" \
	"$TRACETUI" calls "$f" 'a{1000}b{1000}c{1000}d{1000}((e{1000}){100})'
refused "frames --frame-method, 101 nested groups" "nested deeper than 100" \
	"$TRACETUI" frames --frame-method "$nested101" "$f"
run "$TRACETUI" calls "$f" "$nested100"
ok "$([ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'Looper\.loop' &&
	echo 0 || echo 1)" "calls: 100 nested groups still match"
# Parentheses in a bracket expression or escaped are no groups.
run "$TRACETUI" calls "$f" "$(repeat 150 '[(]?')Looper$(repeat 150 '\)?')"
ok "$([ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'Looper\.loop' &&
	echo 0 || echo 1)" "calls: 150 [(] and 150 \\) are no nesting"

# Patterns that regcomp took gigabytes for, or overflowed its stack on:
# glibc reads {,n} as {0,n}, and its memory grows with the square of a
# run of optional copies ("a{0,9999}": 790 MB), nested ones multiplying.
# Each command runs in 300 MB of address space: a pattern let through
# fails there (exit 139, or "Memory exhausted") instead of taking the
# machine.
if asan_built "$TRACETUI"; then
	vlimit=unlimited
else
	vlimit=300000
fi
limited() {
	(ulimit -v $vlimit 2>/dev/null; exec "$@")
}
costly="(((a{,40}){,40}){,40}){,40} ((a{,100}){,100}){,100} a{0,9999}
((a{0,46}){0,46}){0,46} ((a{,46}){,46}){,46} (a?){,3000}"
# make check: each pattern through one of the four doors, in turn, each
# door at least once; check-long: every pattern through every door.
pi=0
for p in $costly; do
	why="too large once its repetitions expand"
	door() { [ -n "$long" ] || [ $((pi % 4)) -eq "$1" ]; }
	door 0 && refused "calls '$p'" "$why" limited "$TRACETUI" calls "$f" "$p"
	door 1 && refused "report --focus '$p'" "$why" \
		limited "$TRACETUI" report --focus "$p" "$f"
	door 2 && refused "frames --frame-method '$p'" "$why" \
		limited "$TRACETUI" frames --frame-method "$p" "$f"
	door 3 && refused "tree --drop '$p'" "$why" \
		limited "$TRACETUI" tree --drop "$p" "$f"
	pi=$((pi + 1))
done
# Within the limits: compiled, and in the same address space.
for p in 'Looper.{0,2000}' '(L?){,1000}ooper' 'Looper(\.[a-z]+){1,50}'; do
	run limited "$TRACETUI" calls "$f" "$p"
	ok "$([ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'Looper\.loop' &&
		echo 0 || echo 1)" "calls '$p': compiled and matched (exit $rc)"
done

# The viewer's prompts: a status-line message, and the viewer goes on.
if [ -x "$RENDER" ]; then
	for step in search filter; do
		"$RENDER" "$f" 100x30 "$step:$deep" >"$tmp/screen" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] &&
			grep -q 'bad regular expression: longer than 4096 bytes' \
				"$tmp/screen"
		ok $? "viewer $step, 20000 nested groups: a message (exit $rc)"
		"$RENDER" "$f" 100x30 "$step:$nested101" "$step:Looper" \
			>"$tmp/screen" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && ! grep -q 'bad regular' "$tmp/screen" &&
			grep -q 'Looper' "$tmp/screen"
		ok $? "viewer $step: a pattern after the refused one works"
	done
	"$RENDER" "$f" 100x30 VIEW_ICICLE "search:$nested101" >"$tmp/screen" 2>&1
	grep -q 'nested deeper than 100 parentheses' "$tmp/screen"
	ok $? "the icicle's search: the same message"
	# make check: the filter's prompt (the search's took the others
	# above); check-long: both.
	for step in ${long:+search} filter; do
		limited "$RENDER" "$f" 100x30 "$step:a{0,9999}" \
			"$step:((a{,100}){,100}){,100}" >"$tmp/screen" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] &&
			grep -q 'too large once its repetitions expand' "$tmp/screen"
		ok $? "viewer $step, a{0,9999} and {,n} nested: a message (exit $rc)"
	done
fi

done_testing
