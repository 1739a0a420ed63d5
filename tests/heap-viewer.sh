#!/bin/sh
# heap-viewer.sh: the heap dump viewer in tmux, at 80x24 and 120x30, on
# the dumps of $SHARED_HEAPDUMPS (skipped when absent) and on dumps
# tests/heap-gen.py writes (Android with planted leaks, JVM).  Its screens
# against the batch commands (tests/heap-screens.py): the Classes rows
# against `report`'s TSV, first and last, sorted by retained, by
# shallow (s) and by instances (a click on its header); the Dominators' top rows against `tree`; Leaks against
# `leaks`; Duplicates against `report --duplicates`; nothing cut on any
# screen; `w` on Classes writes report's every row.  On
# leakcanary__leak_service_binder.hprof: Classes -> Instances of
# LeakyService (against `paths -n 3`) -> its fields -> the path to root
# (against `paths`), which goes through leakAllTheBinders; back with
# Esc, and a String field's text; e down the dominators' hot path.
# --heap opens the viewer on a heap; a class object lists its statics.  The first screen shows the counts
# while the dominators are computed (a status says so).  A class name
# holding terminal controls shows escaped.  While the dump loads, its
# line shows and q quits.  Damaged and cut dumps: the viewer shows what
# was read, every view opens, and q ends it with status 0.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
command -v tmux >/dev/null 2>&1 || skip_all "no tmux"
gen="$srcdir/tests/heap-gen.py"
screens="$srcdir/tests/heap-screens.py"
heaps=${SHARED_HEAPDUMPS:-$srcdir/../shared/heapdumps}
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^(C|en_US)\.utf-?8$')

# tmux through one control-mode client (tests/tmux-ctl.sh): a key, a
# poll or a nap costs no process.
. "$srcdir/tests/tmux-ctl.sh"
sock=tracetui-heap-$$
trap 'ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"

# The Python side from one python3 (tests/heap-py.py; -S: no site
# packages): the dumps, then those made of them: a class named with
# terminal controls (esc.hprof), and cut and damaged dumps.
cat >"$tmp/esc.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
old = b'com/example/Holder'
new = old[:1] + b'\x1b[2J\x1b]0;PWNED\x07' + old[-3:]
assert len(new) == len(old)
open(sys.argv[2], 'wb').write(b.replace(old, new))
PY
cat >"$tmp/hostile.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
n = len(b)
many = len(sys.argv) > 3
cuts = [40, n // 7, n // 3, n // 2, n - 9] if many else [n // 2]
for k, at in enumerate(cuts):
    open('%s/cut%d.hprof' % (sys.argv[2], k), 'wb').write(b[:at])
bad = bytearray(b)
for k in range(5 if many else 1):
    at = (k * 7919 + 1000) % n
    bad[at] ^= 0x5a
    open('%s/bad%d.hprof' % (sys.argv[2], k), 'wb').write(bytes(bad))
PY
mkdir "$tmp/hostile"
python3 -S "$srcdir/tests/heap-py.py" \
	- - "$gen" --android --leaks --seed 5 --objects 3000 "$tmp/art.hprof" :: \
	- - "$gen" --id-size 8 --seed 9 --objects 3000 "$tmp/jvm.hprof" :: \
	- - "$tmp/esc.py" "$tmp/jvm.hprof" "$tmp/esc.hprof" :: \
	- - "$tmp/hostile.py" "$tmp/art.hprof" "$tmp/hostile" ${long:+many}
dumps="$tmp/art.hprof $tmp/jvm.hprof"
for f in "$heaps"/*.hprof; do
	[ -f "$f" ] && dumps="$dumps $f"
done

# sizes DUMP: the sizes DUMP's screens are checked at.  check-long:
# every dump at 80x24 and 120x30, every screen; make check: the Android
# one (its planted leaks) at 80x24, every screen, and a real dump at
# 120x30, its Classes (first and last rows, w), Dominators and help
# screens (the JVM one and the other real dumps are read by the walk,
# by heap.sh and by heap-same.sh).
sizes() {
	if [ -n "$long" ]; then
		echo 80x24 120x30
		return
	fi
	case ${1##*/} in
	art.hprof) echo 80x24 ;;
	ahat__test-dump.hprof) echo 120x30 ;;
	esac
}

# start W H DUMP [OPTION]: the viewer on DUMP in a fresh session v of
# W x H (the one before killed first: a client's line is one command,
# one answer); its exit status shows as EXIT:N when it ends, and the
# session stays.
start_up=
start() {
	[ -z "$start_up" ] || ctl 'kill-session -t v'
	quote "env LANG=${utf8:-C} LC_ALL=${utf8:-C} TERM=screen $hold \
'$TRACETUI' ${4:-} '$3'; echo EXIT:\$?; sleep 600"
	ctl "new-session -d -s v -x $1 -y $2 $quoted" || return 1
	start_up=yes
}
# keys KEY...: the keys (and send-keys' -l) typed into v at once.
keys() {
	k_cmd='send-keys -t v'
	for k_arg; do
		quote "$k_arg"
		k_cmd="$k_cmd $quoted"
	done
	ctl "$k_cmd"
}
# wait_for TEXT [NAME]: the screen shows TEXT (a grep pattern); polled
# (tmux-ctl.sh's naps, 40 ms from the fourth) for up to 60 s (a bound
# for a loaded machine, not a timing), the
# screen a diagnostic when it never does.  Each poll's screen is
# captured into $tmp/NAME (screen by default): the one that matched is
# the shot the checks read, once a second one a nap later is the same
# (a frame caught half drawn can show TEXT over rows not yet redrawn).
# TEXT without a pattern's characters is looked for by the shell, line
# by line (a grep less per poll).
wait_for() {
	wf_shot=$tmp/${2:-screen}
	case $1 in
	*[].[*^$\\]*) wf_re=yes ;;
	*) wf_re= ;;
	esac
	wf_i=0
	wf_was=
	while [ $wf_i -lt 1500 ]; do
		ctl 'capture-pane -p -t v' &&
			printf '%s\n' "$ctl_out" >"$wf_shot"
		if [ -n "$wf_was" ] && [ "$ctl_out" = "$wf_was" ]; then
			return 0
		fi
		wf_was=
		if [ -n "$wf_re" ]; then
			grep -q -- "$1" "$wf_shot" && wf_was=$ctl_out
		else
			while IFS= read -r wf_line; do
				case $wf_line in *"$1"*) wf_was=$ctl_out; break ;; esac
			done <"$wf_shot"
		fi
		if [ -n "$wf_was" ]; then
			ctl 'run-shell -d 0.01'
		else
			nap $wf_i
		fi
		wf_i=$((wf_i + 1))
	done
	diag <"$wf_shot"
	return 1
}

hold=
: >"$tmp/checks"

n=0
for dump in $dumps; do
	n=$((n + 1))
	[ -n "$(sizes "$dump")" ] || continue
	# every: each screen below (else Classes, Dominators and help).
	every=$long
	[ $n -ne 1 ] || every=yes
	"$TRACETUI" report --format tsv "$dump" >"$tmp/$n.report" 2>/dev/null
	"$TRACETUI" tree --min-pct 0 --format tsv "$dump" \
		>"$tmp/$n.tree" 2>/dev/null
	if [ -n "$every" ]; then
		"$TRACETUI" report --format tsv -s shallow "$dump" \
			>"$tmp/$n.shallow" 2>/dev/null
		"$TRACETUI" report --format tsv -s instances "$dump" \
			>"$tmp/$n.instances" 2>/dev/null
		"$TRACETUI" leaks "$dump" >"$tmp/$n.leaks" 2>/dev/null
		"$TRACETUI" report --duplicates --format tsv "$dump" \
			>"$tmp/$n.dups" 2>/dev/null
	fi
	first=yes
	for size in $(sizes "$dump"); do
		w=${size%x*} h=${size#*x} s="$n.$size"
		if [ $n.$size = 1.80x24 ]; then
			# The first screen before the dominators: the second
			# thread held until C-l (TRACETUI_TEST_HOLD_DOMINATORS),
			# the counts show at once, sorted by shallow bytes, the
			# retained column "-", the status saying so; then the
			# retained column fills in (the Classes screen below).
			hold=TRACETUI_TEST_HOLD_DOMINATORS=1
			start "$w" "$h" "$dump" ||
				skip_all "tmux cannot start a server"
			hold=
			wait_for 'computing dominators' "$s.counts"
			printf 'counts\t%s\t%s\n' "$tmp/$s.counts" \
				"$tmp/$n.shallow" >>"$tmp/checks"
			keys C-l
		else
			start "$w" "$h" "$dump"
		fi
		# The dominators done: the status says the row's place.
		if ! wait_for 'row 1 of' "$s.classes"; then
			ok 1 "${dump##*/} $size: the first screen"
			continue
		fi
		if [ -n "$first" ]; then
			# w writes every row, the same as report's.
			keys w "$tmp/$n.w.tsv" Enter
			wait_for 'wrote [0-9]* rows'
			tail -n +2 "$tmp/$n.w.tsv" >"$tmp/$n.w.rows"
			tail -n +2 "$tmp/$n.report" | cmp -s - "$tmp/$n.w.rows"
			ok $? "${dump##*/}: w writes report's rows"
			first=
		fi
		# G: the last row's number, not the first screen's row 1.
		last=$(($(wc -l <"$tmp/$n.report") - 1))
		keys G
		wait_for "row $last of $last" "$s.classes-end"
		if [ -n "$every" ]; then
			keys s g
			wait_for 'Shallow▼\|Shallowv' "$s.classes-shallow"
		fi
		keys 5
		wait_for '  Dominators  heap' "$s.dominators"
		if [ -n "$every" ]; then
			keys 6
			wait_for '  Leaks  heap' "$s.leaks"
			keys 7
			wait_for '  Duplicates  heap' "$s.duplicates"
			# A click on the Instances header sorts by it.
			keys 1
			wait_for '  Classes  heap'
			{ IFS= read -r x && IFS= read -r x; } <"$tmp/$s.classes"
			x=${x%%Instances*}
			x=$((${#x} + 2))
			keys -l "$(printf '\033[<0;%d;2M\033[<0;%d;2m' "$x" "$x")"
			wait_for 'Instances▼\|Instancesv' "$s.classes-instances"
		fi
		keys '?'
		wait_for 'Views (Tab' "$s.help"
		keys q
		wait_for 'EXIT:0'
		ok $? "${dump##*/} $size: q ends the viewer with status 0"
		printf 'classes\t%s\t%s\n' "$tmp/$s.classes" "$tmp/$n.report" \
			>>"$tmp/checks"
		printf 'classes\t%s\t%s\tend\n' "$tmp/$s.classes-end" \
			"$tmp/$n.report" >>"$tmp/checks"
		printf 'dominators\t%s\t%s\n' "$tmp/$s.dominators" \
			"$tmp/$n.tree" >>"$tmp/checks"
		printf 'cut\t%s\t-\n' "$tmp/$s.help" >>"$tmp/checks"
		[ -n "$every" ] || continue
		printf 'classes\t%s\t%s\n' "$tmp/$s.classes-shallow" \
			"$tmp/$n.shallow" >>"$tmp/checks"
		printf 'classes\t%s\t%s\n' "$tmp/$s.classes-instances" \
			"$tmp/$n.instances" >>"$tmp/checks"
		printf 'leaks\t%s\t%s\n' "$tmp/$s.leaks" "$tmp/$n.leaks" \
			>>"$tmp/checks"
		printf 'duplicates\t%s\t%s\n' "$tmp/$s.duplicates" \
			"$tmp/$n.dups" >>"$tmp/checks"
	done
done

# The walk: Classes -> Instances -> Fields -> Path to root.
leak="$heaps/leakcanary__leak_service_binder.hprof"
if [ -f "$leak" ]; then
	"$TRACETUI" paths -n 3 "$leak" LeakyService >"$tmp/leak.paths"
	for size in 80x24 ${long:+120x30}; do
		w=${size%x*} h=${size#*x}
		start "$w" "$h" "$leak"
		wait_for 'row 1 of'
		keys / 'LeakyService$' Enter
		wait_for 'match 1 of 1'
		keys Enter
		# The title, not the Classes header's column, and 3 rows,
		# not the Classes' "row 1 of 316".
		wait_for '  Instances  heap' &&
			wait_for 'row 1 of 3$' "walk.$size.instances"
		keys Enter
		wait_for 'hops* from' "walk.$size.fields"
		keys Enter
		wait_for 'root sticky-class' "walk.$size.path"
		# Esc back to the fields; typed ahead of the screen, a search
		# for a field and Enter open the String it names, its text.
		keys Escape / mClassName Enter Enter
		wait_for 'text  *"com.example.leakcanary.LeakyService"'
		ok $? "$size: Esc, a field searched, its String's text"
		# e in Dominators: Resources' LongSparseArray[] keeps 98.9%
		# of it, its largest child 4.6% of that: the cursor stops
		# on the array.
		keys 5 g e
		wait_for 'LongSparseArray\[\]@0xb0d4da78 .*row 2 of'
		ok $? "$size: e opens the dominators' hot path"
		keys q
		wait_for 'EXIT:0'
		printf 'instances\t%s\t%s\n' "$tmp/walk.$size.instances" \
			"$tmp/leak.paths" >>"$tmp/checks"
		printf 'cut\t%s\t-\n' "$tmp/walk.$size.fields" >>"$tmp/checks"
		printf 'path\t%s\t%s\tleakAllTheBinders\n' \
			"$tmp/walk.$size.path" "$tmp/leak.paths" >>"$tmp/checks"
	done
fi

python3 -S "$screens" "$tmp/checks" >"$tmp/screens.out" 2>&1
ok $? "$(wc -l <"$tmp/checks") screens equal the batch commands' rows, nothing cut"
head -20 "$tmp/screens.out" | diag

# --heap picks the first heap; a class object's fields are its statics,
# primitive ones too (com.example.Node's `count`, an int 5, and `head`).
start 80 24 "$tmp/art.hprof" '--heap all'
wait_for 'Classes  heap all' && wait_for 'row 1 of'
ok $? "--heap all: the Classes view shows every heap"
keys / 'java.lang.Class$' Enter Enter
wait_for 'Instances  heap all  java.lang.Class'
keys / 'Node@' Enter Enter
wait_for '^count  *int  *5 *$' && wait_for '^head  *object  *null'
ok $? "a class object's fields: its primitive and reference statics"
keys q
wait_for 'EXIT:0'
start 80 24 "$tmp/art.hprof" '--heap nope'
wait_for 'EXIT:2'
ok $? "--heap naming no heap of the dump: a usage error"
"$TRACETUI" --heap app "$tmp/art.report" \
	>/dev/null 2>"$tmp/heap.err"
ok $([ $? -eq 2 ] && grep -q 'heap dumps.*only' "$tmp/heap.err" &&
	echo 0 || echo 1) "--heap on a file that is no heap dump: a usage error"

# The load: its line while it reads (held by TRACETUI_TEST_HOLD_LOAD),
# and q ends the viewer at once, with status 0.
hold=TRACETUI_TEST_HOLD_LOAD=1
start 80 24 "$tmp/art.hprof"
hold=
wait_for 'reading .*art.hprof'
keys q
wait_for 'EXIT:0'
ok $? "the load's line shows, and q ends the viewer during it"

# A class named with terminal controls: shown escaped, the pane's title
# never set by it.
start 80 24 "$tmp/esc.hprof"
wait_for 'c\\x1B\[2J\\x1B\]0;PWNED\\x07der  '
r=$?
ctl "display-message -p -t v '#{pane_title}'"
ok $([ $r -eq 0 ] && [ "$ctl_out" != PWNED ] &&
	echo 0 || echo 1) "a class name's controls are shown escaped"
keys q

# Hostile dumps (written at the start): cut and damaged, never a
# crash; q ends the viewer.
bad=0
for f in "$tmp"/hostile/cut*.hprof "$tmp"/hostile/bad*.hprof; do
	start 80 24 "$f"
	if ! wait_for 'Classes\|EXIT:'; then
		bad=$((bad + 1))
		continue
	fi
	keys Enter Enter Enter Enter 5 l l Enter 6 Enter 7 Enter 1 y y s q
	if ! wait_for 'EXIT:[03]$'; then
		bad=$((bad + 1))
		echo "$f: no clean end" | diag
	fi
done
ok $bad "cut and damaged dumps: every view opens, q ends the viewer"

done_testing
