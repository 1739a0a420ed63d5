#!/bin/sh
# fuzz-replay.sh: run every input of tests/fuzz-corpus (seeds and the
# regression inputs of past findings) through the fuzz target's checks,
# built without libFuzzer as tests/fuzz-replay: one TAP line per file.
# All the files go through one process (libFuzzer too runs its inputs in
# one); only when it fails is each file run alone, to say which.
. "${top_srcdir:-.}/tests/lib.sh"

REPLAY=${top_builddir:-.}/tests/fuzz-replay
CORPUS=${top_srcdir:-.}/tests/fuzz-corpus

[ -x "$REPLAY" ] || skip_all "no $REPLAY"
# A hang is a finding too: it fails rather than holding the suite.
limit=
command -v timeout >/dev/null && limit="timeout 300"
set --
for f in "$CORPUS"/*; do
	[ "${f##*/}" = README ] || set -- "$@" "$f"
done
$limit "$REPLAY" "$@" >"$tmp/out" 2>&1
all=$?
for f; do
	if [ $all -eq 0 ]; then
		rc=0
	else
		$limit "$REPLAY" "$f" >"$tmp/out" 2>&1
		rc=$?
	fi
	ok $rc "${f##*/}"
	[ $rc -eq 0 ] || diag <"$tmp/out"
done
# (Every file passed alone, but not all together: state one input left
# for the next.)
[ $all -eq 0 ] || [ $tap_failed -ne 0 ] || {
	ok 1 "the files one after another in one process (status $all)"
	$limit "$REPLAY" "$@" 2>&1 | tail -5 | diag
}
done_testing
