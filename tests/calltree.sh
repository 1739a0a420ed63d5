#!/bin/sh
# calltree.sh: the call tree view's root against the batch commands, on
# data/demo.trace and on the real traces in ../shared/traces (skipped when
# absent).  The root's time, which the view shows in its status line when
# the root is selected, must be the sum of the top-level paths that
# `tracetui tree --no-thread` prints for the same scope and clock, and
# `report`'s total (PRODUCT.md section 2: time outside any method is a
# frame of its own, so the root is the scope's total).
#
# make check: the generated fixture render-gen (a few threads) in place
# of the demo trace, and one real trace (Launcher__app) on each clock;
# check-long: the demo trace on each clock and every real trace.
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
RENDER=${RENDER:-$builddir/tests/render}
[ -x "$RENDER" ] || skip_all "no $RENDER"
demo=$builddir/data/demo.trace
[ -f "$demo" ] || demo=$srcdir/data/demo.trace
[ -f "$demo" ] || skip_all "no data/demo.trace"
tiered_trace "$demo"
demo=$trace
dname=${demo##*/}
dname=${dname%.trace}

# Milliseconds with three decimals ("2943.288") as microseconds.
# In the shell alone: a process less per number.
us() {
	u_v=${1%.*}${1#*.}
	while :; do
		case $u_v in 0?*) u_v=${u_v#0} ;; *) break ;; esac
	done
	echo "${u_v:-0}"
}

# render_root FILE STEPS...: the render's screen in $out, the root's
# time (ms) in $root and the title's clock in $title_clock, read by the
# shell.
render_root() {
	r_file=$1
	shift
	out=$("$RENDER" "$r_file" 400x12 "$@" 2>&1)
	root= title_clock=
	r_first=yes
	while IFS= read -r r_line; do
		if [ -n "$r_first" ]; then
			r_first=
			case $r_line in *'| clock: '*)
				title_clock=${r_line#*| clock: }
				title_clock=${title_clock%%[!a-z+]*} ;;
			esac
		fi
		case $r_line in 'every call path: '*' ms'*)
			root=${r_line#every call path: }
			root=${root%% ms*} ;;
		esac
	done <<SCREEN
$out
SCREEN
}

# check LABEL FILE CLOCK THREAD STEPS...: the root of the call tree drawn
# after STEPS (which end on the tree with the root selected), on CLOCK
# (cpu, wall, or cpu+wall: both clocks shown, the tree on the wall's),
# within THREAD (a name, or "all").
check() {
	label=$1 file=$2 clock=$3 thread=$4
	tclock=$clock
	[ "$clock" != cpu+wall ] || tclock=wall
	shift 4
	# A screen the caller rendered already ($rendered) is reused.
	[ -n "${rendered:-}" ] || render_root "$file" "$@"
	rendered=
	if [ -z "$root" ] || [ "$title_clock" != "$clock" ]; then
		ok 1 "$label: the tree's root is drawn on the $clock clock"
		echo "$out" | diag
		return
	fi
	root=$(us "$root")
	tree_sum=$("$TRACETUI" tree --no-thread --min-pct 0 --format tsv \
		-c "$tclock" \
		-t "$thread" "$file" 2>/dev/null |
		awk -F'\t' 'NR > 1 && $5 == 0 { s += $2 } END { print s + 0 }')
	total=$("$TRACETUI" report -c "$tclock" -t "$thread" "$file" \
		2>/dev/null | sed -n '1s/.*, total \([0-9.]*\) ms over.*/\1/p')
	total=$(us "$total")
	[ "$root" -eq "$tree_sum" ]
	ok $? "$label: root $root us = tree's top-level paths $tree_sum us"
	[ "$root" -eq "$total" ]
	ok $? "$label: root $root us = report's total $total us"
}

# The viewer opens on both clocks (the tree on the wall's); c, then cpu;
# c again, wall.  Each clock alone on the demo trace under check-long;
# make check sees them on the first real trace with both (below).
check "$dname cpu+wall" "$demo" cpu+wall all key:C key:g
if [ -n "$long" ]; then
	check "$dname cpu" "$demo" cpu all key:c key:C key:g
	check "$dname wall" "$demo" wall all key:c key:c key:C key:g
fi
# The threads view's second row by wall span, as the title names it.
thread=$("$RENDER" "$demo" 400x12 key:t MOVE_DOWN ENTER key:C key:g |
	sed -n '1s/.*| thread \(.*\) | clock.*/\1/p')
if [ -n "$thread" ]; then
	check "$dname thread $thread cpu" "$demo" cpu "$thread" \
		key:c key:t MOVE_DOWN ENTER key:C key:g
else
	ok 1 "$dname: the threads view scopes to one thread"
fi

# E stops after 10000 new rows: a root calling 110 methods that each call
# the same 100 leaves has 11110 paths below the root.  Opening runs in
# the order shown (the 110 equal paths by node order), a row at a time,
# so the last of them stay closed and the last row is one of them.
awk 'BEGIN {
	print "format v1\nversion 3\nclock dual\nvm art\nthread 1 main"
	print "method 0x4 com.example.Root run ()V Root.java"
	for (i = 1; i <= 110; i++)
		printf "method 0x%x com.example.Mid m%d ()V Mid.java\n", 4 + 4 * i, i
	for (j = 1; j <= 100; j++)
		printf "method 0x%x com.example.Leaf l%d ()V Leaf.java\n", 4096 + 4 * j, j
	t = 0
	printf "call 1 0x4 0 0 %d %d {\n", 110 * 101, 110 * 101
	for (i = 1; i <= 110; i++) {
		printf "call 1 0x%x %d %d %d %d {\n", 4 + 4 * i, t, t, t + 101, t + 101
		for (j = 1; j <= 100; j++) {
			printf "call 1 0x%x %d %d %d %d\n", 4096 + 4 * j, t + j, t + j, t + j + 1, t + j + 1
		}
		print "}"
		t += 101
	}
	print "}"
}' >"$tmp/wide.spec"
if "$MKTRACE" "$tmp/wide.spec" "$tmp/wide.trace"; then
	# One render: the screen after E (screen:E, its status line the
	# 12th line out), then after G (the 24th).
	status= last= w_n=0
	while IFS= read -r w_line; do
		w_n=$((w_n + 1))
		case $w_n in
		12) status=$w_line ;;
		24) last=$w_line ;;
		esac
	done <<SCREENS
$("$RENDER" "$tmp/wide.trace" 100x12 key:C key:g key:E screen:E key:G)
SCREENS
	case $status in 'stopped at 10000 rows'*) ;; *) false ;; esac
	ok $? "E on the root stops at 10000 rows and says so"
	[ "$status" = "${status#stopped}" ] && echo "$status" | diag
	echo "$last" | grep -Eq '^com\.example\.Mid\.m[0-9]+ \(\)V  \(Mid\.java\)  depth 2( +row [0-9]+ of [0-9]+)?$'
	ok $? "the paths past the bound stay closed (last row: $last)"
	status=$("$RENDER" "$tmp/wide.trace" 100x12 key:C key:g key:j key:l \
		key:j key:E key:j | tail -n 2 | head -n 1)
	echo "$status" | grep -Eq '^com\.example\.Leaf\.l[0-9]+ \(\)V  \(Leaf\.java\)  depth 3( +row [0-9]+ of [0-9]+)?$'
	ok $? "E on one of the 110 opens its 100 leaves without a bound"
else
	ok 1 "mktrace writes the wide trace"
fi

if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		[ -n "$long" ] || [ "${f##*/}" = Launcher__app.trace ] ||
			continue
		name=${f##*/}
		name=${name%.trace}
		# The tree's render tells the clock the viewer opens on (C
		# keeps it): a trace it cannot draw is skipped.
		render_root "$f" key:C key:g
		first=$title_clock
		[ -n "$first" ] && [ -n "$root" ] || continue
		rendered=yes
		check "$name $first" "$f" "$first" all key:C key:g
		# Each clock alone: on every trace with both in make
		# check-long, on the first in make check.
		if [ "$first" = cpu+wall ] && [ -z "${both_done:-}" ]; then
			[ -n "$long" ] || both_done=yes
			check "$name cpu" "$f" cpu all key:c key:C key:g
			check "$name wall" "$f" wall all key:c key:c key:C key:g
		fi
	done
else
	echo "# no $SHARED_TRACES: the real traces are skipped"
fi
done_testing
