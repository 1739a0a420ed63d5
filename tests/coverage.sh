#!/bin/sh
# coverage.sh: the line coverage of src/ from the .gcda files the last
# run left (a build configured with --enable-coverage; `make coverage`
# runs the suite first).  Prints the files of src/ below 90%, then the
# total: lines run, lines with code, percentage.  A header's inline code
# is counted once: a line counts as run when any object ran it.
GCOV=${GCOV:-gcov}
cd "${top_builddir:-.}" || exit 1
gcdas=$(find src -name '*.gcda' | LC_ALL=C sort)
if [ -z "$gcdas" ]; then
	echo "coverage.sh: no .gcda files under src/: configure with" \
		"--enable-coverage and run the tests" >&2
	exit 1
fi
# gcov -t writes the annotated source to stdout: "COUNT: LINE:text",
# COUNT "-" for a line without code, "#####" or "=====" for one never
# run, a trailing "*" when some block of the line was not run.
for f in $gcdas; do
	"$GCOV" -t -o "$(dirname "$f")" "$f" 2>/dev/null
done | awk -F: '
	$2 + 0 == 0 && $3 == "Source" {
		file = $4
		sub(/^\.\//, "", file)
		if (file !~ /^src\//)
			sub(/^.*\/src\//, "src/", file)
		keep = file ~ /^src\//
		next
	}
	!keep { next }
	{
		count = $1
		gsub(/[ *]/, "", count)
		if (count == "-")
			next
		key = file SUBSEP ($2 + 0)
		if (!(key in seen)) {
			seen[key] = 1
			lines[file]++
		}
		if (count ~ /^[0-9]+$/ && count > 0 && !(key in ran)) {
			ran[key] = 1
			hit[file]++
		}
	}
	END {
		for (f in lines) {
			total += lines[f]
			run += hit[f]
			if (hit[f] < 0.9 * lines[f])
				printf "%-36s %5d of %5d lines, %5.1f%%\n", f,
					hit[f], lines[f], 100 * hit[f] / lines[f] | \
					"LC_ALL=C sort"
		}
		close("LC_ALL=C sort")
		if (!total) {
			print "coverage.sh: no lines of src/ in gcov output" \
				>"/dev/stderr"
			exit 1
		}
		printf "coverage of src/: %d of %d lines, %.2f%%\n", run,
			total, 100 * run / total
	}'
