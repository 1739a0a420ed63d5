#!/bin/sh
# run.sh: the load benchmark behind `make bench`.
#
# Writes realistic traces with the fixture writer (program-shaped call
# graph, thousands of methods, several threads), then times, on each:
#   floor   a bare one-pass walk over the records (bench/floor.c)
#   fresh   writing as many bytes of new memory as the model has (13
#           bytes a call with both clocks): the page faults any loader
#           that builds such a model pays, whatever it computes
#   bare    a loader stripped to what any loader of such a model must
#           do, on every cpu (bench/bare.c): entries matched with exits
#           and the model written, nothing else
#   load    `tracetui info` (read and build the model)
#   report  `tracetui report --format tsv` end to end
# and prints the median of REPEAT runs, cpu time per record, peak memory,
# and the ratios against the floor.  Two sizes show whether the cost is
# linear in the records.  With DMTRACEDUMP=/path/to/dmtracedump set, its
# text report is timed too.
set -eu
builddir=${builddir:-.}
srcdir=${srcdir:-.}
out=${BENCH_DIR:-$builddir/bench/out}
repeat=${REPEAT:-3}
records=${RECORDS:-5000000}
mkdir -p "$out"

measure="$builddir/bench/measure"
floor="$builddir/bench/floor"
bare="$builddir/bench/bare"
tracetui="$builddir/src/tracetui"
mktrace="$builddir/tests/mktrace"

field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

for n in $((records / 4)) "$records"; do
	trace="$out/bench-$n.trace"
	if [ ! -f "$trace" ]; then
		cat >"$out/bench-$n.spec" <<SPEC
# A program-shaped trace for the benchmark.
format v1
version 3
clock dual
vm art
generate threads=12 methods=4000 records=$n seed=20261122 maxdepth=48
SPEC
		"$mktrace" "$out/bench-$n.spec" "$trace"
	fi
	size=$(wc -c <"$trace")
	echo "== $n records, $((size / 1000000)) MB: $trace"
	calls=$("$tracetui" info "$trace" | sed -n 's/^calls: *//p')
	f=$("$measure" "$repeat" "$floor" "$trace")
	m=$("$measure" "$repeat" "$floor" --fresh $((calls * 13)))
	b=$("$measure" "$repeat" "$bare" "$trace")
	l=$("$measure" "$repeat" "$tracetui" info "$trace")
	r=$("$measure" "$repeat" "$tracetui" report --format tsv "$trace")
	echo "floor   $f"
	echo "fresh   $m ($((calls * 13 / 1000000)) MB)"
	echo "bare    $b"
	echo "load    $l"
	echo "report  $r"
	awk -v f="$(field wall_ms "$f")" -v m="$(field wall_ms "$m")" \
		-v b="$(field wall_ms "$b")" \
		-v lw="$(field wall_ms "$l")" -v r="$(field cpu_ms "$r")" \
		-v rw="$(field wall_ms "$r")" -v n="$n" \
		-v mb="$(field maxrss_mb "$r")" -v size="$size" 'BEGIN {
		f = f > 0 ? f : 1
		printf "times the floor (wall): fresh %.1fx, bare %.1fx, load %.1fx, report %.1fx\n",
			m / f, b / f, lw / f, rw / f
		printf "report: %.0f ns of cpu per record; peak memory %.0f MB = %.2fx the file\n",
			r * 1e6 / n, mb, mb * 1048576 / size
	}'
	if [ -n "${DMTRACEDUMP:-}" ]; then
		d=$("$measure" 1 "$DMTRACEDUMP" "$trace")
		echo "dmtracedump $d"
		awk -v d="$(field wall_ms "$d")" -v r="$(field wall_ms "$r")" \
			-v l="$(field wall_ms "$l")" 'BEGIN {
			printf "faster than dmtracedump: load %.1fx, report %.1fx\n",
				d / l, d / r
		}'
	fi
done
if [ -x "$builddir/bench/keys" ]; then
	echo "== key presses on the $records-record trace"
	"$builddir/bench/keys" "$out/bench-$records.trace"
fi
