#!/bin/sh
# valgrind.sh: every trace of the real corpus, and every fixture, through
# `report` and `tree` under valgrind's memcheck: no invalid access, no use
# of uninitialised memory, no leak.  Run by .ci/run (not by make check:
# it takes a few minutes); skips without valgrind or the corpus.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tracetui=${TRACETUI:-$top/src/tracetui}
traces=${SHARED_TRACES:-$top/../shared/traces}
command -v valgrind >/dev/null || { echo "valgrind.sh: no valgrind; skipped"; exit 0; }
[ -d "$traces" ] || { echo "valgrind.sh: no corpus; skipped"; exit 0; }
failed=0
n=0
for f in "$traces"/*.trace "$traces"/hprof/*.txt; do
	for cmd in "report --format tsv" tree; do
		n=$((n + 1))
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite "$tracetui" $cmd "$f" \
			>/dev/null 2>"${TMPDIR:-/tmp}/valgrind.$$"
		if [ $? -eq 99 ]; then
			failed=$((failed + 1))
			echo "valgrind.sh: $cmd $f:"
			head -20 "${TMPDIR:-/tmp}/valgrind.$$"
		fi
	done
done
rm -f "${TMPDIR:-/tmp}/valgrind.$$"
echo "valgrind.sh: $n runs, $failed with errors"
[ "$failed" -eq 0 ]
