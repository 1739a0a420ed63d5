#!/bin/sh
# fuzz-replay.sh: run every input of tests/fuzz-corpus (seeds and the
# regression inputs of past findings) through the fuzz target's checks,
# built without libFuzzer as tests/fuzz-replay: one TAP line per file.
. "${top_srcdir:-.}/tests/lib.sh"

REPLAY=${top_builddir:-.}/tests/fuzz-replay
CORPUS=${top_srcdir:-.}/tests/fuzz-corpus

[ -x "$REPLAY" ] || skip_all "no $REPLAY"
# A hang is a finding too: it fails rather than holding the suite.
limit=
command -v timeout >/dev/null && limit="timeout 300"
for f in "$CORPUS"/*; do
	name=${f##*/}
	[ "$name" = README ] && continue
	$limit "$REPLAY" "$f" >"$tmp/out" 2>&1
	rc=$?
	ok $rc "$name"
	[ $rc -eq 0 ] || diag <"$tmp/out"
done
done_testing
