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
# and the ratios against the floor.  Then the same on a real trace
# repeated to 65 MB (and to about 1 GB with BIG=1), as V1 and as the
# streaming variant, with the ratios of streaming to V1 and the first
# screen, the first icicle and the first call tree of the viewer
# (bench/keys); the two reports run in turn PAIRS times (11), since
# their ratio is the closest figure; then `frames` (of the frame methods
# BENCH_FRAME_METHOD names) and `triage` against report in turn (also on
# the larger generated trace and on the largest shared trace as it is,
# budget 1.5x); and the
# viewer's transforms, undo and redo on a trace of 2.5 M records against
# their budget of 0.5 s each (bench/transforms).  Two sizes show whether the cost is
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

# timed report|frames FILE: measure's line for one run of the command
# on FILE, in TSV (frames of the methods $frame_re matches).
timed() {
	case $1 in
	report) "$measure" 1 "$tracetui" report --format tsv "$2" ;;
	frames) "$measure" 1 "$tracetui" frames --format tsv \
		--frame-method "$frame_re" "$2" ;;
	triage) "$measure" 1 "$tracetui" triage --format json "$2" ;;
	esac
}

# alternate N A FA B FB: A FA and B FB (report or frames of a trace), one
# run of each in turn N times, then a line for each as measure prints it
# (the median wall and cpu times, the largest peak): a drift of the
# machine's speed then weighs on both alike.
alternate() {
	i=0
	while [ "$i" -lt "$1" ]; do
		echo "a $(timed "$2" "$3")"
		echo "b $(timed "$4" "$5")"
		i=$((i + 1))
	done | awk '
	function median(list, n,    v, i, j, t) {
		n = split(list, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{
		for (k = 2; k <= NF; k++) {
			split($k, kv, "=")
			if (kv[1] == "maxrss_mb")
				rss[$1] = kv[2] + 0 > rss[$1] + 0 ? kv[2] : rss[$1]
			else
				runs[$1, kv[1]] = runs[$1, kv[1]] " " kv[2]
		}
	}
	END {
		for (w = 1; w <= 2; w++) {
			c = w == 1 ? "a" : "b"
			printf "wall_ms=%.1f cpu_ms=%.1f maxrss_mb=%.1f\n",
				median(runs[c, "wall_ms"]), median(runs[c, "cpu_ms"]),
				rss[c]
		}
	}'
}

# A simpleperf recording (Android Studio's Callstack Sample) with its
# samples repeated to about SP_MB megabytes (100; bench/simpleperf.c),
# twice: as repeated copies, where every callchain recurs in every copy
# (the reader reads each distinct callchain once, so this measures the
# rest: the walk, the samples' fields, the model), and with distinct
# callchains (`repeat --distinct`: each copy's leaf entries at other
# addresses, the symbol ids kept), where no callchain recurs across
# copies, as in a real recording (511 of the 525 samples distinct; 938
# of 1234 in the other shared recording): every entry is decoded and
# looked up.  Each file's `report --format tsv` (REPEAT runs, the median
# wall and cpu times, the largest peak) against a bare walk of its own
# records (each size read, every byte summed); the target is 3x the walk
# for both.
# SP_ONLY=1 runs only these.
simpleperf_bench() {
	sp=${SHARED_SIMPLEPERF:-$srcdir/../shared/simpleperf}/aosp__display_bitmaps.trace
	if [ -f "$sp" ] && [ -x "$builddir/bench/simpleperf" ]; then
		for how in repeated distinct; do
			big="$out/simpleperf-$how.trace"
			opt=
			[ "$how" = distinct ] && opt=--distinct
			"$builddir/bench/simpleperf" repeat $opt \
				$((${SP_MB:-100} * 1000000)) "$sp" "$big"
			sync "$big" 2>/dev/null || sync
			n=$("$builddir/bench/simpleperf" walk "$big" |
				sed "s/ .*//")
			echo "== $(basename "$sp") repeated, $how callchains:" \
				"$n records, $(($(wc -c <"$big") / 1000000)) MB"
			f=$("$measure" "$repeat" \
				"$builddir/bench/simpleperf" walk "$big")
			r=$("$measure" "$repeat" "$tracetui" report --format tsv "$big")
			echo "walk    $f"
			echo "report  $r"
			awk -v f="$(field wall_ms "$f")" -v r="$(field wall_ms "$r")" \
				-v fc="$(field cpu_ms "$f")" -v rc="$(field cpu_ms "$r")" \
				-v how="$how" 'BEGIN {
				printf "simpleperf report, %s callchains: %.2fx the walk wall, %.2fx cpu (target 3x)\n",
					how, r / (f > 0 ? f : 1), rc / (fc > 0 ? fc : 1)
			}'
			rm -f "$big"
		done
	fi
}

# simpleperf recordings of many threads and event types, written by
# tests/unit-simpleperf --write-threads (each sample 17 bytes, as small
# as simpleperf writes one): 1,024 event types and 2,000 Thread records
# (one sample), info; 1,024 event types and 20,000 one-sample threads,
# report and info; SP_THREADS (1,000,000) one-sample threads, report,
# info, tree and the viewer's load (bench/keys with no keys: the sums,
# the first screen, the model taken over), each peak against the file
# (the limit: 20 times).  Memory should grow with the threads, not with
# threads times types.
#
# The viewer on the million threads (18.7 MB), on the 2-core machine
# shared with other builds (load 8):
#   before (every thread's sums and call paths kept, each in blocks of
#     its own, and the info lines made as the viewer opened): peak 767
#     MB = 42x the file, 7.1 s user cpu
#   after (the sums packed in three arrays, those of threads of fewer
#     than 32 calls summed again from the calls when wanted; the call
#     paths built and merged 65,536 threads at a time, those of threads
#     of fewer than 1,024 calls let go; the info lines made when the
#     view is first drawn): peak 288 MB = 15.8x, 4.6 to 6.7 s user cpu
simpleperf_threads_bench() {
	gen="$builddir/tests/unit-simpleperf"
	[ -x "$gen" ] || return 0
	n=${SP_THREADS:-1000000}
	for spec in "1 2000 1024 info" "20000 0 1024 report info" \
		"$n 0 1 report info tree viewer"; do
		set -- $spec
		big="$out/simpleperf-threads.trace"
		"$gen" --write-threads "$big" "$1" "$2" "$3"
		size=$(wc -c <"$big")
		echo "== simpleperf, $3 event types, $1 sampled threads," \
			"$2 Thread records: $size bytes"
		shift 3
		for c in "$@"; do
			if [ "$c" = viewer ]; then
				[ -x "$builddir/bench/keys" ] || continue
				r=$("$measure" 1 "$builddir/bench/keys" "$big" 0)
			else
				r=$("$measure" 1 "$tracetui" $c "$big")
			fi
			echo "$c $r" | awk -v size="$size" '{
				for (k = 2; k <= NF; k++) {
					split($k, kv, "=")
					if (kv[1] == "maxrss_mb")
						mb = kv[2]
				}
				printf "%-6s %s (%.1fx the file)\n", $1,
					substr($0, length($1) + 2),
					mb * 1048576 / size
			}'
		done
		rm -f "$big"
	done
}

# Java heap dumps: a dump of HEAP_OBJECTS (5 million) objects from
# tests/heap-gen.py (Android's layout, id size 4; kept in the output
# folder once written), then the real dumps of $SHARED_HEAPDUMPS: a bare
# walk of the records (bench/heapwalk), `info` (the walk, the classes,
# what the roots reach; target 3x the walk) and `report` (the histogram
# with retained sizes: its cpu per million objects, target 0.5 s, and
# peak memory against the dump's size, target 1x, and per object: the
# rule of the man page is in bytes per object).  HEAP_ONLY=1 runs only
# these.
#
# Measured on the 2-core machine shared with other builds (its cpu
# times swing by 2x and more with their load, random memory access most;
# compare runs made side by side), 5,358,584 objects in 172 MiB:
#   before (references read from the dump at each step of each walk),
#     at a lighter load: report 23.8 s cpu = 4.4 s per million objects,
#     peak 401 MB = 2.33x the dump; info 5.1 s = 70x the walk (73 ms),
#     peak 292 MB; at load 14: info 30.6 s = 95x the walk (320 ms)
#   after (references decoded once into compact arrays in file order,
#     their ids looked up in batches fetched ahead, the search on a
#     bitmap, the dump's pages let go behind each pass), at load 14:
#     report 7.1 s cpu = 1.3 s per million, peak 255 MB = 1.48x the
#     dump (50 bytes per object); info 3.1 s = 11x the walk (270 ms),
#     peak 215 MB = 1.25x
#   then (4-byte record offsets under 4 GiB; semi-NCA instead of the
#     buckets, the parents turned into the dominators in place, no
#     array of fill positions for the tree; the references' targets
#     numbered in place for the predecessors' pass; huge pages for the
#     arrays read at random), three runs side by side with the build
#     before, at load 8 (medians): report 4.4 s cpu (before 6.6) =
#     0.83 s per million, peak 229 MB = 1.33x the dump (before 255 MB
#     = 1.48x; 45 bytes per object); info 2.4 s (before 2.8) = 9x the
#     walk (270 ms), peak 178 MB = 1.03x (before 197 MB).  What is
#     left is cache misses: the id lookups of the references (about
#     1.2 s), the search's two per vertex and the predecessors' per
#     reference, the histogram's walk of the tree (0.8 s); and the
#     model (22.5 bytes per object) with the tree and retained sizes
#     (16 per object, 4 per reachable one) make 1.15x by themselves.
#   now (one walk of the records: each object's class noted as a slot
#     per class id, only arrays' and class objects' shallow sizes kept,
#     the references decoded as the walk meets them; ids looked up by
#     rank where they ascend, no hash table; the walk's arrays made
#     present in batches of huge pages, since a first touch page by page
#     is what costs here; the dump's pages not made present all at
#     open; freed arrays given back), three runs of three side by side
#     with the build before, at load 2.3 (medians): info 530 ms (before
#     1330) = 3.1x the walk (170 ms), peak 141 MiB (before 178); report
#     2.06 s (before 2.94) = 0.38 s per million, peak 156 MiB = 0.90x
#     the dump (before 229 MiB = 1.33x; 30 bytes per object); with the
#     rank set as the walk meets the ids (no array of them), ten runs
#     alternating: info 542 ms (before 563) = 3.0x the walk (180 ms),
#     peak 122 MiB; with the rank's common step inline and info
#     summing the reachable bytes in its own pass, five runs of each
#     alternating with the first build, at load 2.5 (medians): info
#     503 ms (before 1493) = 2.7x the walk (187 ms), peak 118 MiB
#     (before 178); report 2.20 s (before 2.92) = 0.41 s per million
#     (before 0.55), peak 155.5 MiB = 0.90x the dump (before 229 MiB
#     = 1.33x).  The bare walk depends on how the dump lies in the
#     page cache: the same bytes written afresh (this script's own
#     copy, its pages in large folios, mapped a huge page at a time)
#     walk in 55 ms, not 190 to 210; there, at load 3.9: info 408 ms
#     (before 1132) = 7.5x the walk, report 2.05 s (before 2.51) =
#     0.38 s per million.  What is left in info beyond the walk is
#     mostly the reachable walk (100 ms: a miss in its bitmap and one
#     in the rank per reference), new memory (about 80 MiB: offsets,
#     classes, references; 50 ms zeroing it) and the walk's own work
#     per object (the class's slot, the references: 100 ms); the bare
#     walk allocates and looks up nothing, so 3x of it is out of reach
#     for a count of what the roots reach.
# The real dumps (16,000 to 44,000 objects): info 20 to 40 ms (before
# 22 to 39), report 22 to 43 (before 23 to 47), most of it starting
# the process and its first page faults; their peaks of 6.8 to 11.7
# MiB (before 6.4 to 11.3: the next 4 MiB made present ahead of a pass
# reads pages of array data a pass over the records' heads skips) are
# mostly the program's own (3 MiB alone; the bare walk 2.8 to 5),
# beyond their 1.8 to 3.8 MB, and their references are decoded by a
# pass after the walk (ART writes a class's dump after instances of
# it).
heap_bench() {
	objects=${HEAP_OBJECTS:-5000000}
	dump="$out/heap-$objects.hprof"
	if [ ! -f "$dump" ]; then
		python3 "$srcdir/tests/heap-gen.py" --android --seed 5 \
			--objects "$objects" "$dump.tmp" && mv "$dump.tmp" "$dump"
	fi
	heaps=${SHARED_HEAPDUMPS:-$srcdir/../shared/heapdumps}
	for d in "$dump" "$heaps"/*.hprof; do
		[ -f "$d" ] || continue
		n=$("$tracetui" info "$d" | sed -n 's/^objects: \([0-9]*\).*/\1/p')
		size=$(wc -c <"$d")
		echo "== heap dump $(basename "$d"): $n objects, $((size / 1000000)) MB"
		w=$("$measure" "$repeat" "$builddir/bench/heapwalk" "$d")
		i=$("$measure" "$repeat" "$tracetui" info "$d")
		r=$("$measure" "$repeat" "$tracetui" report --format tsv \
			--heap all "$d")
		echo "walk    $w"
		echo "info    $i"
		echo "report  $r"
		awk -v r="$(field cpu_ms "$r")" -v i="$(field cpu_ms "$i")" \
			-v w="$(field cpu_ms "$w")" \
			-v mb="$(field maxrss_mb "$r")" -v n="$n" -v size="$size" 'BEGIN {
			w = w > 0 ? w : 1
			printf "report: %.2f s of cpu per million objects (target 0.5); peak %.0f MB = %.2fx the dump (target 1x), %.0f bytes per object\n",
				r / 1000 * 1e6 / n, mb, mb * 1048576 / size,
				mb * 1048576 / n
			printf "info: %.1fx the bare walk'"'"'s cpu (target 3x)\n", i / w
		}'
	done
}

if [ -n "${HEAP_ONLY:-}" ]; then
	heap_bench
	exit 0
fi

if [ -n "${SP_ONLY:-}" ]; then
	simpleperf_threads_bench
	simpleperf_bench
	exit 0
fi

# REAL_ONLY=1 skips the generated traces.
gen="$((records / 4)) $records"
[ -n "${REAL_ONLY:-}" ] && gen=
for n in $gen; do
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
		sync "$trace" 2>/dev/null || sync
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
	# triage against report, in turn (budget 1.5x): on the larger
	# generated trace, whose main thread draws frames and holds no
	# launch.  Not met: triage loads the model (`info` alone, the same
	# load, is 1.6-1.7x report's wall and cpu: the records read twice
	# and the calls written), then walks it; only a triage summed in
	# report's one pass, no model, can meet it.  Cpu medians on the
	# 2-core machine at load 3-5, a generated trace of 70 M records
	# (980 MB, 5 pairs) and of 10 M (140 MB, 11): report 1967 ms, triage
	# 3818 ms (1.94x) before the names were built once and durations
	# read only where exclusive times are wanted, 3712 ms (1.89x) after;
	# report 441, triage 813 (1.84x), 755 (1.71x).  Then (980 MB, one
	# run each in turn, 6 rounds, load 3-4, cpu medians and best
	# walls): report 2.13 s, 1.00 s; info 3.29, 1.68; triage 3.94, 2.44
	# (1.85x cpu, 2.4x wall) before the threads' passes shared the cpus,
	# found the frames themselves and left untracked the calls no
	# blocked or hot rule can count, 3.42, 2.01 (1.6x, 2.0x) after.
	# Then triage summed in report's pass (model/triage-sums.c, joined
	# across the split; the model only for a launch): on 10 M records
	# (140 MB, 5 rounds, load 1.6, medians): report 169 ms wall, 298
	# cpu; triage 300, 500 (1.78x, 1.68x) before, 210, 366 (1.25x,
	# 1.23x) after.
	if [ "$n" = "$records" ]; then
		tr=$(alternate "${PAIRS:-11}" report "$trace" triage "$trace")
		echo "triage  $(echo "$tr" | sed -n 2p)"
		echo "$tr" | awk -F'[= ]' 'NR == 1 { rw = $2; rc = $4 }
			NR == 2 { printf "triage / report: %.2fx wall, %.2fx cpu (budget 1.5x)\n",
				$2 / rw, $4 / rc }'
	fi
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
if [ -x "$builddir/bench/keys" ] && [ -z "${REAL_ONLY:-}" ]; then
	echo "== key presses on the $records-record trace"
	"$builddir/bench/keys" "$out/bench-$records.trace"
fi

# The viewer's transforms, undo and redo on a trace of 2.5 M records
# (35 MB; TRANSFORM_RECORDS), each against a budget of 0.5 s, then a
# storm of 3000 of them (bench/transforms).  Measured at load 2.4 on the 2-core
# machine: 36 keys, the worst 230 ms wall (122 ms cpu of the drawing
# thread, 262 ms of all threads), none over the budget; the storm's
# leftovers 214 ms; peak 383 MB.
if [ -x "$builddir/bench/transforms" ] && [ -z "${REAL_ONLY:-}" ]; then
	n=${TRANSFORM_RECORDS:-2500000}
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
		sync "$trace" 2>/dev/null || sync
	fi
	echo "== transforms, undo and redo on the $n-record trace"
	"$builddir/bench/transforms" "$trace" ||
		echo "transforms: some keys took more than the budget"
fi

# A real trace repeated (bench/repeat.c), as V1 and as the streaming
# variant Android Studio saves, with the same records: 65 MB always,
# about 1 GB with BIG=1 (`make bench-big`; it takes minutes).  The files
# go to a temporary folder removed on exit.
traces=${SHARED_TRACES:-$srcdir/../shared/traces}
real=${BENCH_TRACE:-$traces/AppMethodOrder__oldVersion.trace}
# Its main thread draws no Choreographer frames: its layout inflations,
# 55 a copy, nested, stand in for them.
frame_re=${BENCH_FRAME_METHOD:-'LayoutInflater\.createViewFromTag'}
if [ ! -f "$real" ]; then
	echo "== no real trace ($real): the real-shaped cases are skipped"
	simpleperf_threads_bench
	simpleperf_bench
	exit 0
fi
# triage against report on the largest shared trace as it is (budget
# 1.5x): small, so the fixed costs (the rules' patterns over every
# method name) weigh most here.  AppMethodOrder__oldVersion (3.3 MB,
# 15 pairs, load 4-5): report 30.2 ms, triage 51.9 (1.72x) with every
# method's name formatted five times, 41.4 (1.37x) with each joined
# once; callgrind: 260 M instructions, 222 M (report 123 M).  Summed in
# report's pass, no model (15 rounds, load 1.6): report 21.5 ms, triage
# 37.1 (1.73x) before, 25.6 (1.19x) after.
largest=$(ls -S "$traces"/*.trace 2>/dev/null | head -1)
if [ -n "$largest" ]; then
	echo "== triage on the largest shared trace, $(basename "$largest")," \
		"$(($(wc -c <"$largest") / 1000)) kB"
	tr=$(alternate "${PAIRS:-11}" report "$largest" triage "$largest")
	echo "report  $(echo "$tr" | sed -n 1p)"
	echo "triage  $(echo "$tr" | sed -n 2p)"
	echo "$tr" | awk -F'[= ]' 'NR == 1 { rw = $2; rc = $4 }
		NR == 2 { printf "triage / report: %.2fx wall, %.2fx cpu (budget 1.5x)\n",
			$2 / rw, $4 / rc }'
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracetui-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
sizes=${REAL_SIZES:-65000000}
[ -n "${BIG:-}" ] && sizes="$sizes 975000000"
for bytes in $sizes; do
	v1="$tmp/real-$bytes.trace"
	st="$tmp/real-$bytes-stream.trace"
	"$builddir/bench/repeat" v1 "$bytes" "$real" "$v1" >/dev/null
	"$builddir/bench/repeat" stream "$bytes" "$real" "$st" >/dev/null
	# On the disk before the runs: no writeback of them beside a run.
	sync "$v1" "$st" 2>/dev/null || sync
	size=$(wc -c <"$v1")
	n=$("$floor" "$v1" | sed 's/ .*//')
	echo "== $(basename "$real") repeated: $n records, $((size / 1000000)) MB"
	f=$("$measure" "$repeat" "$floor" "$v1")
	l=$("$measure" "$repeat" "$tracetui" info "$v1")
	sl=$("$measure" "$repeat" "$tracetui" info "$st")
	# The two reports' ratio is the closest figure: alternated.
	both=$(alternate "${PAIRS:-11}" report "$v1" report "$st")
	r=$(echo "$both" | sed -n 1p)
	sr=$(echo "$both" | sed -n 2p)
	echo "floor          $f"
	echo "load v1        $l"
	echo "report v1      $r"
	echo "load stream    $sl"
	echo "report stream  $sr"
	awk -v f="$(field wall_ms "$f")" -v size="$size" \
		-v lw="$(field wall_ms "$l")" -v rw="$(field wall_ms "$r")" \
		-v lm="$(field maxrss_mb "$l")" -v rm="$(field maxrss_mb "$r")" \
		-v slw="$(field wall_ms "$sl")" -v srw="$(field wall_ms "$sr")" \
		-v slm="$(field maxrss_mb "$sl")" \
		-v srm="$(field maxrss_mb "$sr")" 'BEGIN {
		f = f > 0 ? f : 1
		printf "times the floor (wall): load %.1fx, report %.1fx; stream load %.1fx, report %.1fx\n",
			lw / f, rw / f, slw / f, srw / f
		printf "stream / v1: load %.2fx time, %.2fx memory; report %.2fx time, %.2fx memory\n",
			slw / lw, slm / lm, srw / rw, srm / rm
		printf "report peak memory: v1 %.2fx the file, stream %.2fx\n",
			rm * 1048576 / size, srm * 1048576 / size
	}'
	if [ -n "${DMTRACEDUMP:-}" ]; then
		d=$("$measure" 1 "$DMTRACEDUMP" "$v1")
		echo "dmtracedump    $d"
		awk -v d="$(field wall_ms "$d")" -v r="$(field wall_ms "$r")" \
			-v sr="$(field wall_ms "$sr")" 'BEGIN {
			printf "times dmtracedump: report v1 %.2fx, stream %.2fx\n",
				r / d, sr / d
		}'
	fi
	# frames against report, in turn: the frames are found in the
	# sums pass, so they should cost little more (budget 1.2x).
	fr=$(alternate "${PAIRS:-11}" report "$v1" frames "$v1")
	n=$("$tracetui" frames --format tsv --frame-method "$frame_re" "$v1" |
		tail -n +2 | wc -l)
	echo "frames v1      $(echo "$fr" | sed -n 2p) ($n frames)"
	echo "$fr" | awk -F'[= ]' 'NR == 1 { rw = $2; rc = $4 }
		NR == 2 { printf "frames / report: %.2fx wall, %.2fx cpu (budget 1.2x)\n",
			$2 / rw, $4 / rc }'
	# triage against report, in turn: one read of the model, then
	# every rule's pass over its calls (budget 1.5x).  Measured on the
	# 975 MB trace (2-core machine at load 9, medians of 3 cpu times):
	# report 2.6 s, info (the model alone) 5.1 s = 2.0x, triage 8.1 s
	# = 3.1x before the pass kept per thread only the rules that apply
	# there, 6.5 s = 2.5x after (callgrind at 65 MB: 2.42 G
	# instructions to 1.86 G; report 1.34 G, info 0.79 G: the model's
	# cost is mostly its memory's page faults).  The model alone is
	# over the budget: within it, the rules' sums must be taken in
	# report's pass, as `frames` takes its frames.  So they are now
	# (model/triage-sums.c, on both workers of the split): on the 975
	# MB trace (AppMethodOrder__oldVersion repeated, 5 rounds, load
	# 1.6, medians): report 627 ms wall, 1215 cpu; triage 2230, 3111
	# (3.56x, 2.56x) before, 750, 1431 (1.20x, 1.18x) after; its peak
	# 489 MB to 8 MB.
	tr=$(alternate "${PAIRS:-11}" report "$v1" triage "$v1")
	echo "triage v1      $(echo "$tr" | sed -n 2p)"
	echo "$tr" | awk -F'[= ]' 'NR == 1 { rw = $2; rc = $4 }
		NR == 2 { printf "triage / report: %.2fx wall, %.2fx cpu (budget 1.5x)\n",
			$2 / rw, $4 / rc }'
	if [ -x "$builddir/bench/keys" ]; then
		k=$("$builddir/bench/keys" "$v1" 1)
		echo "$k" | sed -n '1p;/(first/p;/^peak/p'
		echo "$k" | awk -v f="$(field wall_ms "$f")" '
		/load and first draw/ {
			first = $0
			sub(/.*load and first draw /, "", first)
			shown = $0
			sub(/.* shown /, "", shown)
			printf "first screen: %.1fx the floor; the icicle %.0f ms " \
				"after it\n", first / (f > 0 ? f : 1), shown - first
		}'
		# The call tree asked for right after the first screen.
		"$builddir/bench/keys" "$v1" 0 calltree | sed -n '/(first/p'
	fi
	rm -f "$v1" "$st"
done
simpleperf_threads_bench
simpleperf_bench
heap_bench
