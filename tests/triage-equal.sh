#!/bin/sh
# triage-equal.sh: `triage`'s way of making a triage (the threads shared
# out among workers, an instrumented trace's frames found in their
# passes, the calls and frames no blocked or hot rule can count passed
# over) against the plain one (tests/triage-equal), on
# generated traces of several threads that draw frames, every fixture,
# the real traces, the variants and the simpleperf recordings.
. "${top_srcdir:-.}/tests/lib.sh"

TRIAGE_EQUAL=${top_builddir:-.}/tests/triage-equal
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
[ -x "$TRIAGE_EQUAL" ] || skip_all "no $TRIAGE_EQUAL"

# make check: one generated trace, a fixture of each kind (and those
# drawing frames), the fast real traces and the first simpleperf
# recording; check-long: every one.
n=0
for gen in "threads=6 methods=600 records=60000 seed=41 maxdepth=32" \
	"threads=3 methods=2000 records=100000 seed=42 maxdepth=48"; do
	n=$((n + 1))
	[ $n -gt 1 ] && [ -z "$long" ] && break
	printf 'format v1\nversion 3\nclock dual\nvm art\ngenerate %s\n' "$gen" \
		>"$tmp/gen$n.spec"
	"$MKTRACE" "$tmp/gen$n.spec" "$tmp/gen$n.trace" 2>"$tmp/err"
	ok $? "generated $n ($gen): written"
done
mkdir "$tmp/fixtures"
fixture_traces "$tmp/fixtures"

files="$tmp/*.trace"
for f in "$tmp"/fixtures/*.trace; do
	name=${f##*/}
	name=${name%.trace}
	case $name in
	render-triage | render-frames) files="$files $f" ;;
	*) is_fast_fixture "$name" && files="$files $f" ;;
	esac
done
for dir in "$SHARED_TRACES" "$SHARED_VARIANTS"; do
	[ -d "$dir" ] || continue
	for f in "$dir"/*.trace; do
		[ -f "$f" ] || continue
		[ "$dir" = "$SHARED_TRACES" ] && ! is_fast_trace "$f" && continue
		files="$files $f"
	done
done
if [ -d "$SHARED_SIMPLEPERF" ]; then
	for f in "$SHARED_SIMPLEPERF"/*.trace*; do
		[ -f "$f" ] || continue
		files="$files $f"
		[ -z "$long" ] && break
	done
fi

# Its TAP lines are renumbered into ours.
# shellcheck disable=SC2086
"$TRIAGE_EQUAL" $files >"$tmp/lib.tap" 2>"$tmp/err"
rc=$?
tap_merge "$tmp/lib.tap"
ok $rc "tests/triage-equal: status 0"
diag <"$tmp/err"
done_testing
