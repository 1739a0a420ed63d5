#!/bin/sh
# frames.sh: `tracetui frames`.
#
# - A hand-made trace (below) whose frames, slow and frozen counts,
#   percentiles and hot methods are worked out by hand: a nested overload
#   of the frame method is not a frame of its own, a frame thread draws
#   beside main, a method of another class named doFrame is no frame;
#   --budget, --refresh-rate, --frame-method, --range, -t, -s, -n and
#   every format; usage errors.
# - A generated trace (frames of another overload) and every real trace
#   in $SHARED_TRACES (make check: the one of a family with frames,
#   AppMethodOrder__studioVersion): the frames equal, row for row,
#   the outermost calls `tracetui calls` lists of the frame method
#   (nesting found from starts and ends by awk), and the summary's counts
#   and nearest-rank percentiles equal python3's from those calls; the
#   frames found in the sums pass equal those of the model's calls.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL
T='	'

# has FILE PATTERN...: FILE has a line matching each glob PATTERN (the
# whole line), read by the shell: these checks run by the dozen.
has() {
	h_file=$1
	shift
	for h_pat; do
		h_seen=
		while IFS= read -r h_line || [ -n "$h_line" ]; do
			case $h_line in
			$h_pat) h_seen=yes; break ;;
			esac
		done <"$h_file"
		[ -n "$h_seen" ] || return 1
	done
}

# Times are "cpu wall", microseconds.  main: frames of 10, 20 (holding a
# doFrame (J)V overload: not a frame), 12 and 800 ms, and an
# AnimationHandler doFrame (no frame); RenderFrames: 5 and 17 ms.
# main's walls sorted: 10000 12000 20000 800000: p50 is rank 2 (12000),
# p90, p95 and p99 rank 4 (800000).  At 60 Hz (16667 us) 2 slow, at 90
# (11111) 3, at 120 (8333) 4; one frozen (over 700 ms).
cd "$tmp" || exit 1
cat >frames.spec <<'SPEC'
format v1
version 3
clock dual
vm art
thread 1 main
thread 7 RenderFrames
method 0x4 android.view.Choreographer doFrame (JI)V Choreographer.java
method 0x8 android.view.Choreographer doFrame (J)V Choreographer.java
method 0xc com.example.View draw ()V View.java
method 0x10 com.example.View measure ()V View.java
method 0x14 android.os.Looper loop ()V Looper.java
method 0x18 android.view.Choreographer doFrame (JILandroid/view/DisplayEventReceiver$VsyncEventData;)V Choreographer.java
method 0x1c android.animation.AnimationHandler$1 doFrame (J)V AnimationHandler.java

call 1 0x14 0 0 500000 1000000 {
	call 1 0x4 500 1000 5500 11000 {
		call 1 0xc 1000 2000 4000 8000
	}
	call 1 0x4 10000 20000 20000 40000 {
		call 1 0x8 10500 21000 19500 39000 {
			call 1 0x10 11000 22000 18500 37000
		}
	}
	call 1 0x4 25000 50000 31000 62000 {
		call 1 0xc 25500 51000 30000 60000
	}
	call 1 0x1c 35000 70000 37500 75000
	call 1 0x4 50000 100000 450000 900000 {
		call 1 0x10 50000 100000 425000 850000
	}
}
call 7 0x18 0 0 2500 5000
call 7 0x18 5000 10000 13500 27000
SPEC
"$MKTRACE" frames.spec f.trace || skip_all "mktrace failed"

"$TRACETUI" frames -f tsv f.trace >out 2>err
ok $? "frames -f tsv: status 0"
cat >expect <<EOF
thread${T}tid${T}start_us${T}wall_us${T}cpu_us${T}over_us${T}hot1${T}hot1_excl_us${T}hot2${T}hot2_excl_us
main${T}1${T}1000${T}10000${T}5000${T}0${T}com.example.View.draw ()V${T}6000${T}android.view.Choreographer.doFrame (JI)V${T}4000
main${T}1${T}20000${T}20000${T}10000${T}3333${T}com.example.View.measure ()V${T}15000${T}android.view.Choreographer.doFrame (J)V${T}3000
main${T}1${T}50000${T}12000${T}6000${T}0${T}com.example.View.draw ()V${T}9000${T}android.view.Choreographer.doFrame (JI)V${T}3000
main${T}1${T}100000${T}800000${T}400000${T}783333${T}com.example.View.measure ()V${T}750000${T}android.view.Choreographer.doFrame (JI)V${T}50000
RenderFrames${T}7${T}0${T}5000${T}2500${T}0${T}android.view.Choreographer.doFrame (JILandroid/view/DisplayEventReceiver\$VsyncEventData;)V${T}5000${T}${T}
RenderFrames${T}7${T}10000${T}17000${T}8500${T}333${T}android.view.Choreographer.doFrame (JILandroid/view/DisplayEventReceiver\$VsyncEventData;)V${T}17000${T}${T}
EOF
cmp -s expect out
ok $? "the hand-made trace's frames, with the overload nested inside not counted and the frame thread's"
cmp -s expect out || diff expect out | diag

"$TRACETUI" frames f.trace >out 2>err
has out 'main (1): 4 frames, 2 slow, 1 frozen; p50 12.000 p90 800.000 p95 800.000 p99 800.000 max 800.000 ms'
ok $? "text: main's summary line by hand"
has out 'RenderFrames (7): 2 frames, 1 slow, 0 frozen; p50 5.000 p90 17.000 p95 17.000 p99 17.000 max 17.000 ms'
ok $? "text: the frame thread's summary line by hand"
has out '*f.trace: 6 frames, budget 16.667 ms, on the wall clock*'
ok $? "text: the budget line"
[ ! -s err ]
ok $? "no message"

slow_of() { awk '/^main \(1\)/ { print $5 }' out; }
"$TRACETUI" frames --refresh-rate 90 f.trace >out
[ "$(slow_of)" = 3 ]
ok $? "--refresh-rate 90: the 12 ms frame is slow too"
has out '*budget 11.111 ms*'
ok $? "--refresh-rate 90: budget 11.111 ms"
"$TRACETUI" frames --refresh-rate 120 f.trace >out
[ "$(slow_of)" = 4 ] && has out '*budget 8.333 ms*'
ok $? "--refresh-rate 120: all four slow, budget 8.333 ms"
"$TRACETUI" frames --budget 10.5 f.trace >out
[ "$(slow_of)" = 3 ]
ok $? "--budget 10.5: three slow"
"$TRACETUI" frames --budget 1000 f.trace >out
awk '/^main \(1\)/ { exit !($5 == 0 && $7 == 1) }' out
ok $? "--budget 1000: none slow, still one frozen"

"$TRACETUI" frames -f tsv --frame-method 'doFrame' f.trace >out
awk 'END { exit NR - 1 != 7 }' out
ok $? "--frame-method doFrame: AnimationHandler's call is a frame too (7)"
"$TRACETUI" frames -f tsv --frame-method 'Choreographer\.doFrame \(J\)V' \
	f.trace >out
[ "$(awk -F'\t' 'NR > 1 { print $1 "\t" $3 "\t" $4 }' out)" = \
	"main${T}21000${T}18000" ]
ok $? "--frame-method replaces the default: the overload alone"

"$TRACETUI" frames -f tsv -t RenderFrames f.trace >out
awk -F'\t' 'NR > 1 && $1 != "RenderFrames" { bad = 1 }
	END { exit bad || NR < 2 }' out
ok $? "-t: one thread's frames"
"$TRACETUI" frames -f tsv -s wall -n 2 f.trace >out
[ "$(awk -F'\t' 'NR > 1 { printf "%s ", $4 }' out)" = "800000 20000 " ]
ok $? "-s wall -n 2: the two longest"
"$TRACETUI" frames -f tsv -s cpu f.trace >out
[ "$(awk -F'\t' 'NR > 1 { printf "%s ", $5 }' out)" = \
	"400000 10000 8500 6000 5000 2500 " ]
ok $? "-s cpu"
# 30..60 ms: main's second frame cut to 10 ms (30000..40000), the third
# whole; nothing of RenderFrames (its last event is at 27 ms).
"$TRACETUI" frames -f tsv --range 30..60 f.trace >out
[ "$(awk -F'\t' 'NR > 1 { printf "%s\t%s\t%s ", $1, $3, $4 }' out)" = \
	"main${T}30000${T}10000 main${T}50000${T}10000 " ]
ok $? "--range: frames cut at its edges"
"$TRACETUI" frames -f csv f.trace >out
[ "$(head -1 out)" = "thread,tid,start_us,wall_us,cpu_us,over_us,hot1,hot1_excl_us,hot2,hot2_excl_us" ] &&
	[ "$(wc -l <out)" -eq 7 ]
ok $? "-f csv"
"$TRACETUI" frames -f json f.trace >out
python3 -c 'import json,sys; r=json.load(open("out")); sys.exit(not (len(r) == 6 and r[3]["wall_us"] == 800000))' 2>/dev/null ||
	grep -q '"wall_us": *800000' out
ok $? "-f json"
"$TRACETUI" frames --drop 'View\.measure' -f tsv f.trace >out
awk -F'\t' 'NR == 5 { w = $4 } END { exit w != 50000 }' out
ok $? "transforms: --drop takes the dropped time out of the frame"

"$TRACETUI" frames --budget 0 f.trace >/dev/null 2>err
[ $? -eq 2 ] && has err '*budget*'
ok $? "--budget 0: usage error"
"$TRACETUI" frames --refresh-rate x f.trace >/dev/null 2>err
[ $? -eq 2 ]
ok $? "--refresh-rate x: usage error"
"$TRACETUI" frames --frame-method '(' f.trace >/dev/null 2>err
[ $? -eq 2 ]
ok $? "--frame-method with a bad expression: usage error"
"$TRACETUI" frames -s depth f.trace >/dev/null 2>err
[ $? -eq 2 ]
ok $? "-s depth: usage error"
"$TRACETUI" frames --help >out
has out '*--refresh-rate HZ*' '*--frame-method RE*'
ok $? "--help lists the frame options"

# diff: new.trace is f.trace with main's 12 ms frame made 30 ms.  All
# threads' walls, base: 5 10 12 17 20 800 ms (p50 rank 3: 12, p90 to
# p99 and max 800; 3 slow, 1 frozen); new: 5 10 17 20 30 800 (p50 17;
# 4 slow): slow +1, p50 +5 ms (+41.7%).
sed -e 's/^\(\tcall 1 0x4 25000 50000\) 31000 62000/\1 40000 80000/' \
	-e 's/^\tcall 1 0x1c 35000 70000 37500 75000/\tcall 1 0x1c 42000 85000 44000 90000/' \
	frames.spec >new.spec
"$MKTRACE" new.spec new.trace || skip_all "mktrace failed on new.spec"
"$TRACETUI" frames -f tsv new.trace | grep -q "^main${T}1${T}50000${T}30000${T}15000${T}"
ok $? "diff: the new trace's frame is 30 ms"
"$TRACETUI" diff f.trace new.trace >out 2>err
ok $? "diff: status 0 without --fail-if"
has out \
	'frames base: 6 frames, 3 slow, 1 frozen; p50 12.000 p90 800.000 p95 800.000 p99 800.000 max 800.000 ms' \
	'frames new:  6 frames, 4 slow, 1 frozen; p50 17.000 p90 800.000 p95 800.000 p99 800.000 max 800.000 ms' \
	'frames change: 0 frames, +1 slow, 0 frozen; p50 +5.000 p90 0.000 p95 0.000 p99 0.000 max 0.000 ms'
ok $? "diff: each side's frame summary and the change, by hand"
[ ! -s err ]
ok $? "diff: no message"
"$TRACETUI" diff f.trace f.trace >out
has out 'frames change: 0 frames, 0 slow, 0 frozen; p50 0.000*'
ok $? "diff: a trace against itself: no frame changes"
"$TRACETUI" diff --refresh-rate 120 f.trace new.trace >out
has out 'frames base: 6 frames, 5 slow*'
ok $? "diff --refresh-rate 120: all but the 5 ms frame slow"

# gate EXPECTED-STATUS EXPR...: diff f.trace new.trace --fail-if EXPR...
# exits EXPECTED-STATUS.  make check runs the gates of one condition
# that holds or does not together, one run each (gate_done): every
# condition that holds is printed, none of those that do not; a run per
# gate in check-long.
g_holds=
g_not=
gate() {
	g_want=$1
	shift
	if [ -z "$long" ] && [ $# -eq 1 ]; then
		case $g_want in
		0) g_not="$g_not${g_not:+
}$1"
			return ;;
		1) g_holds="$g_holds${g_holds:+
}$1"
			return ;;
		esac
	fi
	g_args=
	for g in "$@"; do
		g_args="$g_args --fail-if '$g'"
	done
	eval "\"\$TRACETUI\" diff $g_args f.trace new.trace" >/dev/null 2>"$tmp/gate.err"
	g_rc=$?
	[ "$g_rc" -eq "$g_want" ]
	ok $? "--fail-if $* exits $g_want"
	[ "$g_rc" -eq "$g_want" ] || diag <"$tmp/gate.err"
}
gate 1 'slow_frames > +0'
gate 0 'slow_frames > +1'
gate 1 'slow_frames > +33%'
gate 0 'slow_frames > +34%'
gate 0 'frames > 0'
gate 0 'frames < 0'
gate 0 'frozen_frames > 0'
gate 1 'frame_p50 > +41%'
gate 0 'frame_p50 > +42%'
gate 1 'frame_p50 > 4ms'
gate 0 'frame_p50 > 5ms'
gate 1 'frame_p50 > 4999'
gate 1 'frame_p50 > 0.004s'
gate 0 'frame_p90 > +10%' 'frame_p95 > 0' 'frame_p99 > 0' 'frame_max > 0'
gate 1 'frame_max > -1us'
gate 0 'frame_max < 0'
gate 1 'frame_p90 > +10%' 'slow_frames > +0'
gate 2 'frames(main) > 1'
gate 2 'slow_frames > 1ms'
gate 2 'frame_p50 > 5 parsecs'
gate 2 'frame_p42 > 1'
gate_done() {
	[ -n "$g_holds$g_not" ] || return 0
	g_ifs=$IFS
	IFS='
'
	for g_want in 1 0; do
		set --
		if [ $g_want = 1 ]; then g_list=$g_holds; else g_list=$g_not; fi
		for g in $g_list; do
			set -- "$@" --fail-if "$g"
		done
		"$TRACETUI" diff "$@" f.trace new.trace >/dev/null \
			2>"$tmp/gate.err"
		g_rc=$?
		for g in $g_list; do
			g_seen=0
			while IFS= read -r g_line; do
				case $g_line in
				*"condition holds: $g: "*) g_seen=1 ;;
				esac
			done <"$tmp/gate.err"
			g_ok=1
			[ "$g_rc" -eq $g_want ] && [ $g_seen -eq $g_want ] && g_ok=0
			ok $g_ok "--fail-if $g exits $g_want"
			[ $g_ok -eq 0 ] || diag <"$tmp/gate.err"
		done
	done
	IFS=$g_ifs
}
gate_done
"$TRACETUI" diff --fail-if 'slow_frames > +0' f.trace new.trace \
	>/dev/null 2>err
has err "*condition holds: slow_frames > +0: base 3 slow frames, new 4 slow frames (+1)*"
ok $? "the message names both sides' values"
"$TRACETUI" diff --fail-if 'frame_p50 > +10%' f.trace new.trace \
	>/dev/null 2>err
has err "*condition holds: frame_p50 > +10%: base 12.000 ms, new 17.000 ms (+41.7%)*"
ok $? "a time's message in ms"
"$TRACETUI" diff --budget 35 --fail-if 'slow_frames > +0' f.trace new.trace \
	>/dev/null 2>&1
ok $? "--budget 35 applies to the gate: one slow frame a side, no change"
"$TRACETUI" diff --frame-method 'AnimationHandler' --fail-if 'frames > 0' \
	f.trace new.trace >out 2>&1
[ $? -eq 0 ] && has out 'frames base: 1 frame*'
ok $? "--frame-method applies to diff"

# Several runs a side: the same significance rule as the method rows.
# Runs alike are one file named once a run.
"$TRACETUI" diff --fail-if 'slow_frames > +0' f.trace f.trace -- \
	new.trace new.trace >out 2>err
rc=$?
[ $rc -eq 0 ] && has err '*not significant, not failing: slow_frames > +0*'
ok $? "runs: 2 a side cannot be significant: status 0, said so"
has out 'frames change: 0~ frames, +1~ slow*'
ok $? "runs: a change that is not significant is marked ~"
"$TRACETUI" diff --fail-if 'slow_frames > +0' f.trace f.trace f.trace \
	f.trace -- new.trace new.trace new.trace new.trace >out 2>err
[ $? -eq 1 ] && has err '*condition holds: slow_frames > +0: base median 3 slow frames, new median 4 slow frames*'
ok $? "runs: 4 a side, every run slower: holds, status 1"
has out 'frames base: median 6 frames, 3 slow, 1 frozen; p50 12.000*' \
	'frames change: 0~ frames, +1 slow, 0~ frozen; p50 +5.000 p90 0.000~*'
ok $? "runs: medians and the change, unchanged numbers marked ~"
"$TRACETUI" diff --fail-if 'frames > 0' f.trace f.trace f.trace \
	f.trace -- new.trace new.trace new.trace new.trace >/dev/null 2>&1
ok $? "runs: no change in frames: status 0"

# A gate that cannot be evaluated fails and says why: a frame time or a
# slow count where a side has no frames (the frame method renamed,
# say), a method's number where the glob matches no method.
cat >noframes.spec <<'SPEC'
format v1
version 3
clock dual
vm art
thread 1 main
method 0x4 android.os.Looper loop ()V Looper.java
call 1 0x4 0 0 900 900
SPEC
"$MKTRACE" noframes.spec noframes.trace 2>err
ok $? "a trace with no frames: written"
for g in 'frame_p99 > +10%' 'frame_max < 0' 'slow_frames > +5'; do
	"$TRACETUI" diff --fail-if "$g" f.trace noframes.trace >out 2>err
	rc=$?
	[ $rc -eq 1 ] &&
		has err "*cannot be evaluated: noframes.trace has no frames*"
	ok $? "--fail-if '$g', NEW without frames: exit 1, said why (exit $rc)"
	[ $rc -eq 1 ] || diag <err
done
"$TRACETUI" diff --fail-if 'frame_p50 > +10%' noframes.trace noframes.trace \
	>out 2>err
[ $? -eq 1 ] && has err "*neither noframes.trace nor noframes.trace has frames*"
ok $? "--fail-if on frames, neither side with frames: exit 1, said why"
"$TRACETUI" diff --fail-if 'frames < -50%' f.trace noframes.trace >out 2>err
[ $? -eq 1 ] && has err "*condition holds: frames < -50%: base 6 frames, new 0 frames*"
ok $? "--fail-if 'frames < -50%': a count of 0 frames is a number"
"$TRACETUI" diff --fail-if 'frames > 0' f.trace noframes.trace >out 2>err
ok $? "--fail-if 'frames > 0' with fewer frames: status 0"
"$TRACETUI" diff --fail-if 'excl_cpu(no.such.*) > +10%' f.trace f.trace \
	>out 2>err
[ $? -eq 1 ] && has err "*cannot be evaluated: no method matches 'no.such.[*]' in either trace*"
ok $? "--fail-if over no method: exit 1, said why"
"$TRACETUI" diff --fail-if 'frame_p99 > +10%' f.trace f.trace -- \
	noframes.trace noframes.trace >out 2>err
[ $? -eq 1 ] && has err "*cannot be evaluated: a run of NEW has no frames*"
ok $? "runs: --fail-if on frames, NEW's runs without frames: exit 1, said why"

# The real traces: frames against the outermost calls `calls` lists.
# oracle FILE: thread, tid, start, wall, cpu of every outermost call of
# the frame method, by thread in the order of `calls`, then start.
oracle() {
	"$TRACETUI" calls -f tsv "$1" \
		'^android\.view\.Choreographer\.doFrame( |$)' 2>/dev/null |
		awk -F'\t' 'NR > 1 {
			# Outermost: not inside the last outermost call of its
			# thread (same start and deeper counts as inside).
			if ($1 SUBSEP $2 in end && ($3 < end[$1, $2] ||
			    ($3 == st[$1, $2] && $6 > dp[$1, $2])) &&
			    $3 + $4 <= end[$1, $2])
				next
			end[$1, $2] = $3 + $4; st[$1, $2] = $3; dp[$1, $2] = $6
			print $1 "\t" $2 "\t" $3 "\t" $4 "\t" $5
		}'
}
traces=
if "$MKTRACE" "$srcdir/tests/fixtures/generated-v1.spec" gen.trace; then
	traces="$tmp/gen.trace"
fi
[ -n "${SHARED_TRACES:-}" ] && [ -d "$SHARED_TRACES" ] &&
	traces="$traces $(ls "$SHARED_TRACES"/*.trace)"
checked=0
for f in $traces; do
	# The real traces: the one of a family (is_fast_trace) that has
	# frames in make check, all of them under check-long.
	[ -n "$long" ] || case $f in
	"$tmp"/* | */AppMethodOrder__studioVersion.trace) ;;
	*) continue ;;
	esac
	"$TRACETUI" frames -f tsv "$f" >out 2>/dev/null || continue
	[ "$(wc -l <out)" -gt 1 ] || continue
	checked=$((checked + 1))
	name=$(basename "$f")
	tail -n +2 out | cut -f1-5 | sort -t "$T" -k2,2n -k3,3n >got
	oracle "$f" | sort -t "$T" -k2,2n -k3,3n >want
	cmp -s want got
	ok $? "$name: $(wc -l <got) frames, as the outermost calls of calls"
	cmp -s want got || diff want got | head -5 | diag
	# Found in the sums pass, as above, or in the model's calls (a
	# range loads them): the same rows, hot methods too.
	"$TRACETUI" frames -f tsv --range 0..100000s "$f" >model 2>/dev/null
	cmp -s out model
	ok $? "$name: the frames of the sums are the model's"
	command -v python3 >/dev/null 2>&1 || continue
	"$TRACETUI" frames "$f" 2>/dev/null |
		sed -n 's/^.* (\([0-9]*\)): \([0-9]*\) frames\{0,1\}, \([0-9]*\) slow, \([0-9]*\) frozen; p50 \([0-9.]*\) p90 \([0-9.]*\) p95 \([0-9.]*\) p99 \([0-9.]*\) max \([0-9.]*\) ms$/\1 \2 \3 \4 \5 \6 \7 \8 \9/p' |
		sort >got
	python3 - want >expect <<'PY'
import math, sys
walls = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    walls.setdefault(int(f[1]), []).append(int(f[3]))
def rank(v, p):
    return v[max(1, math.ceil(p * len(v) / 100)) - 1]
for tid in walls:
    v = sorted(walls[tid])
    out = [tid, len(v), sum(1 for w in v if w * 60 > 1000000),
           sum(1 for w in v if w > 700000)]
    out += ["%.3f" % (rank(v, p) / 1000) for p in (50, 90, 95, 99)]
    out.append("%.3f" % (v[-1] / 1000))
    print(" ".join(str(x) for x in out))
PY
	sort expect >expect.sorted
	cmp -s expect.sorted got
	ok $? "$name: counts and nearest-rank percentiles as python3 works them out"
	cmp -s expect.sorted got || diff expect.sorted got | diag
done
[ "$checked" -gt 0 ]
ok $? "some real trace has frames ($checked)"
done_testing
