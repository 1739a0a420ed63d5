#!/bin/sh
# patterns.sh: every regular expression the program compiles goes
# through util/pattern.c's limits.  glibc's regcomp overflowed its stack
# on 20,000 nested '(' (exit 139 from --focus, --merge, --drop and calls,
# the viewer's terminal left raw) and takes minutes or gigabytes on
# long patterns and nested repetitions (runs of optional copies, {,n}
# among them, under a limit of address space).  Each option and prompt that
# takes a regex must refuse such a pattern with a usage error (status 2)
# or a status-line message, and go on taking ordinary ones.  make check:
# each option and prompt through some of the checks, each check through
# one of them at least; check-long: every one through all.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
RENDER=${top_builddir:-.}/tests/render
srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
mkdir "$tmp/fixtures"
fixture_traces "$tmp/fixtures"
f=$tmp/fixtures/render-gen.trace
[ -f "$f" ] || skip_all "mktrace failed"
nl='
'

# repeat N TEXT: TEXT N times, in $rep (by doubling: no process).
repeat() {
	rep= r_n=$1 r_t=$2
	while [ "$r_n" -gt 0 ]; do
		[ $((r_n % 2)) -eq 1 ] && rep=$rep$r_t
		r_t=$r_t$r_t
		r_n=$((r_n / 2))
	done
}

repeat 20000 '('; deep=${rep}a
repeat 20000 ')'; deep=$deep$rep
repeat 101 '('; nested101=${rep}Looper
repeat 101 ')'; nested101=$nested101$rep
repeat 100 '('; nested100=${rep}Looper
repeat 100 ')'; nested100=$nested100$rep
repeat 4100 '.?'; long_pattern=Looper$rep
expand='(a{0,1000}){0,1000}'

# refused DESCRIPTION WHY CMD...: exit 2 with WHY on stderr, nothing on
# stdout, and a message that shows at most the pattern's start.
refused() {
	r_desc=$1 r_why=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	r_err=
	while IFS= read -r r_line; do r_err=$r_err$r_line$nl; done <"$tmp/err"
	r=1
	case $r_err in
	*"$r_why"*) [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] &&
		[ ${#r_err} -lt 400 ] && r=0 ;;
	esac
	ok $r "$r_desc: usage error (exit $rc): $r_why"
	[ $rc -eq 2 ] || head -c 300 "$tmp/err" | diag
}

# make check: each option through two of the four checks, each check
# through one or two options; check-long: every option through all.
oi=0
for opt in --focus --merge --drop; do
	kind() { [ -n "$long" ] || [ $(((oi + $1) % 2)) -eq 0 ]; }
	kind 0 && refused "report $opt, 20000 nested groups" "$opt '((((" \
		"$TRACETUI" report "$opt" "$deep" "$f"
	kind 1 && refused "report $opt, 101 nested groups" "nested deeper than 100 parentheses" \
		"$TRACETUI" report "$opt" "$nested101" "$f"
	kind 2 && refused "tree $opt, nested repetitions" "too large once its repetitions expand" \
		"$TRACETUI" tree "$opt" "$expand" "$f"
	if kind 3; then
		"$TRACETUI" report "$opt" "$nested100" "$f" >/dev/null 2>&1
		ok $? "report $opt: 100 nested groups are within the limit"
	fi
	oi=$((oi + 1))
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
case $rc$nl$out in "0$nl"*Looper.loop*) r=0 ;; *) r=1 ;; esac
ok $r "calls: 100 nested groups still match"
# Parentheses in a bracket expression or escaped are no groups.
repeat 150 '[(]?'; p=${rep}Looper
repeat 150 '\)?'; p=$p$rep
run "$TRACETUI" calls "$f" "$p"
case $rc$nl$out in "0$nl"*Looper.loop*) r=0 ;; *) r=1 ;; esac
ok $r "calls: 150 [(] and 150 \\) are no nesting"

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
# Within the limits: compiled, and in the same address space (make
# check: a run of optional copies near the limit, and a bounded group;
# check-long: a long interval too, each near the limit a fifth of a
# second of compiling).
within="'(L?){,1000}ooper' 'Looper(\.[a-z]+){1,50}'"
[ -z "$long" ] || within="'Looper.{0,2000}' $within"
eval "set -- $within"
for p; do
	run limited "$TRACETUI" calls "$f" "$p"
	case $rc$nl$out in "0$nl"*Looper.loop*) r=0 ;; *) r=1 ;; esac
	ok $r "calls '$p': compiled and matched (exit $rc)"
done

# The viewer's prompts: a status-line message, and the viewer goes on.
if [ -x "$RENDER" ]; then
	# make check: the search's prompt with 20000 groups, the
	# filter's with 101 and a pattern after; check-long: both.
	for step in search filter; do
		if [ -n "$long" ] || [ $step = search ]; then
		"$RENDER" "$f" 100x30 "$step:$deep" >"$tmp/screen" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] &&
			grep -q 'bad regular expression: longer than 4096 bytes' \
				"$tmp/screen"
		ok $? "viewer $step, 20000 nested groups: a message (exit $rc)"
		fi
		[ -n "$long" ] || [ $step = filter ] || continue
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
