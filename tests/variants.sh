#!/bin/sh
# variants.sh: every layout ART's method-trace writers produce, written
# by ../shared/variants/gen-variants.py (which follows ART's writer code)
# into a temporary directory, and the two files kept beside it (Android
# 15's non-streaming V2, ART 16's low-overhead dump).  All hold one
# scenario, so each must give the README's numbers:
#   main (tid 1234): App.main { App.work { Util.helper } ; App.work }
#   worker (tid 1240): Util.helper
# per thread cpu 250 and 30 us, wall 300 and 40 us (each on the clocks
# the file has); App.main 250 us cpu, 300 us wall; App.work 2 calls;
# Util.helper once on each thread.  Then cuts of the two kept files end
# with data or a message naming the file and an offset.  make check:
# each layout feature (V1 and V2, file and stream, each clock, ART 8 to
# 13's, the draft's, ns and us) in one variant at least, and every
# 101st cut; check-long: every variant, every cut.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
VARIANTS=${SHARED_VARIANTS:-${top_srcdir:-.}/../shared/variants}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -f "$VARIANTS/gen-variants.py" ] || skip_all "no $VARIANTS/gen-variants.py"
[ -n "$python" ] || skip_all "no python3"

# The generator writes beside itself: run a copy.
cp "$VARIANTS/gen-variants.py" "$tmp/"
if ! python3 "$tmp/gen-variants.py" >"$tmp/gen.out" 2>&1; then
	ok 1 "gen-variants.py runs"
	diag <"$tmp/gen.out"
	done_testing
	exit
fi
n=$(ls "$tmp/generated" | wc -l)
[ "$n" -ge 16 ]
ok $? "gen-variants.py writes its variants ($n)"

# info_scan INFO: from `info`'s text, read by the shell: clock, and
# the main and worker threads' rows (found by tid or by name: V1 files
# number threads) as main_tid, main_wall, main_cpu, worker_wall,
# worker_cpu; anomalies "none" or not.
info_scan() {
	clock= anomalies= main_tid= main_wall= main_cpu= worker_wall= worker_cpu=
	in_t= seen_main= seen_worker=
	while IFS= read -r line; do
		case $line in
		threads:*) in_t=yes; continue ;;
		clock:*) clock=${line#clock:}; clock=${clock#"${clock%%[! ]*}"} ;;
		"anomalies: none") anomalies=none ;;
		esac
		case $line in [a-z]*) in_t= ;; esac
		[ -n "$in_t" ] || continue
		set -- $line
		[ $# -gt 0 ] && [ "$1" != tid ] || continue
		eval "last=\${$#}"
		if [ -z "$seen_main" ] && { [ "$1" = 1234 ] || [ "$last" = main ]; }; then
			seen_main=yes main_tid=$1 main_wall=$4 main_cpu=$5
		fi
		if [ -z "$seen_worker" ] && { [ "$1" = 1240 ] || [ "$last" = worker ]; }; then
			seen_worker=yes worker_wall=$4 worker_cpu=$5
		fi
	done <"$1"
}

# check FILE: the scenario's numbers on FILE, one test: info read by
# the shell, the two reports by one awk.
check() {
	f=$1
	name=${f##*/}
	why=
	if ! "$TRACETUI" info "$f" >"$tmp/info.$name" 2>"$tmp/err"; then
		ok 1 "$name: read"
		diag <"$tmp/err"
		return
	fi
	info_scan "$tmp/info.$name"
	case $clock in dual | wall) want_wall=yes ;; *) want_wall= ;; esac
	case $clock in dual | thread-cpu) want_cpu=yes ;; *) want_cpu= ;; esac
	[ -n "$main_tid" ] || why="$why no main thread;"
	if [ -n "$want_wall" ]; then
		[ "$main_wall" = 300 ] || why="$why main wall $main_wall;"
		[ "$worker_wall" = 40 ] || why="$why worker wall $worker_wall;"
	fi
	if [ -n "$want_cpu" ]; then
		[ "$main_cpu" = 250 ] || why="$why main cpu $main_cpu;"
		[ "$worker_cpu" = 30 ] || why="$why worker cpu $worker_cpu;"
	fi
	"$TRACETUI" report -f tsv "$f" >"$tmp/all" 2>/dev/null
	"$TRACETUI" report -f tsv -t "$main_tid" "$f" >"$tmp/main" 2>/dev/null
	# A report's value: the first row of the method, by column name
	# (what is wrong read back by the shell).
	awk -F'\t' -v wall="$want_wall" -v cpu="$want_cpu" '
		FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }
		{ m = $1; sub(/ .*/, "", m); k = file SUBSEP m }
		!(k in row) { row[k] = $0 }
		function field(file, m, c,   f) {
			if (!((file, m) in row) || !((file, c) in col)) return ""
			split(row[file, m], f, "\t")
			return f[col[file, c]]
		}
		END {
			if (field(1, "com.example.App.work", "calls") != 2)
				printf " App.work calls;"
			if (field(1, "com.example.Util.helper", "calls") != 2)
				printf " Util.helper calls;"
			if (field(2, "com.example.Util.helper", "calls") != 1)
				printf " Util.helper on main;"
			v = field(2, "com.example.App.main", "incl_wall")
			if (wall != "" && v != 300) printf " App.main wall %s;", v
			v = field(2, "com.example.App.main", "incl_cpu")
			if (cpu != "" && v != 250) printf " App.main cpu %s;", v
		}' "$tmp/all" "$tmp/main" >"$tmp/why"
	IFS= read -r w_awk <"$tmp/why"
	why=$why$w_awk
	[ "$anomalies" = none ] || why="$why anomalies;"
	[ -z "$why" ]
	ok $? "$name ($clock): the scenario's numbers"
	[ -z "$why" ] || echo "$why" | diag
}

for f in "$tmp"/generated/* "$VARIANTS"/art15__v2-file-dual.trace \
	"$VARIANTS"/art16__low-overhead-dump.bin; do
	case $long${f##*/} in
	v1_file_wall.trace | v1_stream_wall.trace | \
		v1_stream_dual_art8to13.trace | v2_stream_wall_draft.trace | \
		v2_stream_dual_ns.trace) continue ;;
	esac
	check "$f"
done

# The threads of the two kept files have no names: their tids name them
# (in the infos check read).
for f in art15__v2-file-dual.trace art16__low-overhead-dump.bin; do
	t1= t2=
	while IFS= read -r line; do
		case $line in
		*" thread 1234") t1=yes ;;
		*" thread 1240") t2=yes ;;
		esac
	done <"$tmp/info.$f"
	[ -n "$t1" ] && [ -n "$t2" ]
	ok $? "$f: threads named by their tids"
done
r=1
while IFS= read -r line; do
	case $line in format:*) line=${line#format:}
		case ${line#"${line%%[! ]*}"} in "ART low-overhead dump"*) r=0 ;; esac ;;
	esac
done <"$tmp/info.art16__low-overhead-dump.bin"
ok $r "art16__low-overhead-dump.bin: info names the format"

# Read from a pipe, where only the first bytes decide before the rest.
for f in art15__v2-file-dual.trace art16__low-overhead-dump.bin; do
	cat "$VARIANTS/$f" | "$TRACETUI" report -f tsv - >"$tmp/piped" 2>&1
	"$TRACETUI" report -f tsv "$VARIANTS/$f" >"$tmp/mapped" 2>&1
	cmp -s "$tmp/piped" "$tmp/mapped"
	ok $? "$f: a pipe of it reads as the file does"
done

# Cuts of the two kept files: data (maybe with warnings) or one message
# naming the file and an offset, never a signal; a cut after the header
# keeps what was whole, and says so.  `report` at every byte in make
# check-long, every 101st in make check (its message read by the shell);
# the fuzz target's invariants on every cut in one process (make check:
# every 7th).
stride=101 replay=7
[ -z "$long" ] || stride=1 replay=1
for f in art15__v2-file-dual.trace art16__low-overhead-dump.bin; do
	size=$(wc -c <"$VARIANTS/$f")
	bad=0
	n=0
	while [ $n -lt "$size" ]; do
		head -c $n "$VARIANTS/$f" >"$tmp/cut"
		"$TRACETUI" report "$tmp/cut" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		warned= named= first=
		while IFS= read -r line; do
			[ -n "$first" ] || first=$line
			case $line in
			"tracetui: $tmp/cut: offset "[0-9]*": warning: "*) warned=yes named=yes ;;
			"tracetui: $tmp/cut: offset "[0-9]*": "*) named=yes ;;
			esac
		done <"$tmp/err"
		case $rc in
		0) [ $n -eq 0 ] || [ -n "$warned" ] ||
			{ bad=$((bad + 1)); echo "cut at $n: no warning" | diag; } ;;
		3) [ -n "$named" ] ||
			{ bad=$((bad + 1)); echo "cut at $n: $first" | diag; } ;;
		*) bad=$((bad + 1)); echo "cut at $n: exit $rc" | diag ;;
		esac
		n=$((n + stride))
	done
	ok $bad "$f: its cuts, one every $stride of its $size bytes, read or refuse with an offset"
	replay_cuts 1 $replay "$VARIANTS/$f" "$f: every ${replay}th cut keeps the fuzz target's invariants"
done
# A cut after the Android 15 file's header keeps the blocks before it;
# a cut among the dump's method packets keeps the methods before it.
head -c 357 "$VARIANTS/art15__v2-file-dual.trace" >"$tmp/cut"
"$TRACETUI" report -f tsv "$tmp/cut" >"$tmp/out" 2>"$tmp/err"
grep -q '^com.example.App.main' "$tmp/out" && grep -q 'offset 357\|cut off' "$tmp/err"
ok $? "art15 cut inside its second block: the first kept, the cut named"
head -c 180 "$VARIANTS/art16__low-overhead-dump.bin" >"$tmp/cut"
"$TRACETUI" report -f tsv "$tmp/cut" >"$tmp/out" 2>"$tmp/err"
grep -q '^com.example.App.work' "$tmp/out" &&
	grep -q 'offset 166: .*ART low-overhead dump' "$tmp/err"
ok $? "art16 cut among its method packets: the whole ones kept, the cut named"
done_testing
