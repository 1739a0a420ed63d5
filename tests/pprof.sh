#!/bin/sh
# pprof.sh: pprof profile.proto files (src/read/pprof.c).
#
# The profile tests/unit-pprof encodes by hand and its grown copy (S4 of
# its comment grown by 1024 bytes and 2 objects):
# - `diff` gives alloc +1024 bytes exclusive, main +1024 inclusive, the
#   others unchanged, in TSV as integers and in text as sizes; --fail-if
#   thresholds are in the profile's unit;
# - `report` text shows sizes and counts; export says speedscope's unit;
# - the viewer (in tmux, when installed): y cycles the sample types, the
#   timeline says there is none.
#
# The real profiles in $SHARED_PPROF and the numbers an independent
# decoder gave for them (its README.md), skipped when they are absent:
# - `report -f tsv --sample-type TYPE`: the function names, exclusive
#   (flat) and inclusive (cum) values equal expected/FILE.TYPE.tsv, and
#   the exclusive values add up to its "# total" line;
# - `folded --no-thread --sample-type TYPE` equals expected/FILE.TYPE.folded
#   (stacks worth 0 aside: folded prints only time spent);
# - `tree -f tsv` has report's sampled columns, no calls, and its roots
#   add up to the total;
# - the type chosen by index equals the type chosen by name; without
#   --sample-type the profile's default_sample_type, else its last type;
# - a gzipped profile reads like its gunzipped bytes;
# - an unknown type, every cut of a profile and flipped bytes are refused
#   with a message naming the offset, or loaded: never a crash.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
UNIT_PPROF=${top_builddir:-.}/tests/unit-pprof
[ -x "$UNIT_PPROF" ] || skip_all "no $UNIT_PPROF"
LC_ALL=C
export LC_ALL

same() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" | head -20 | diag
	fi
}

# name, self and total values of report --format tsv rows (method self
# total self_us total_us).
flat_cum() {
	awk -F'\t' -v OFS='\t' 'NR > 1 { print $1, $2, $3 }' | sort
}

# The hand-encoded pair.
"$UNIT_PPROF" --write "$tmp" >/dev/null
old=$tmp/pprof-heap.pb
new=$tmp/pprof-heap-grown.pb
run "$TRACETUI" diff -f tsv "$old" "$new"
printf '%s\n' "$out" | awk -F'\t' -v OFS='\t' 'NR > 1 {
	print $1, $6, $7, $8, $10, $11, $12 }' | sort >"$tmp/got"
cat >"$tmp/expect" <<'END'
0x1234	50	50	0	50	50	0
alloc	130	1154	1024	130	1154	1024
inl	0	0	0	130	1154	1024
main	0	0	0	180	1204	1024
rec	0	0	0	50	50	0
END
same "$tmp/expect" "$tmp/got" "diff: growth per function in bytes"
run "$TRACETUI" diff --sample-type objects -f tsv "$old" "$new"
ok "$(printf '%s\n' "$out" | awk -F'\t' '$1 == "alloc" { print $6, $7 }' |
	grep -qx '4 6' && echo 0 || echo 1)" "diff: growth in objects"
run "$TRACETUI" diff "$old" "$new"
matches "$out" '^ *130 B  *1\.1 KiB  *\+1\.0 KiB .* alloc$' \
	'space/bytes, total 180 B'
ok $? "diff: text in B and KiB"
run "$TRACETUI" diff --fail-if 'excl_wall(alloc) > +1000' "$old" "$new"
ok "$([ $rc -eq 1 ] && echo 0 || echo 1)" \
	"diff: --fail-if holds on 1024 bytes over 1000"
run "$TRACETUI" diff --fail-if 'excl_wall(alloc) > +1025' "$old" "$new"
ok "$rc" "diff: --fail-if does not hold on 1024 bytes over 1025"
run "$TRACETUI" report "$old"
matches "$out" 'Incl size' '130 B .* alloc$' '^sampled: .*never call counts$' \
	'!Calls'
ok $? "report: sizes in the text table, no calls (runs of samples)"
# An unknown sample type is the command line's fault: a usage error
# (status 2) from every command that reads the profile, the viewer too
# (make check: report, diff with runs and the viewer; check-long: every
# command).
cmds='report "diff --"'
[ -z "$long" ] ||
	cmds='report tree calls info dump folded flamegraph "export -f dot" "diff" "diff --"'
eval "set -- $cmds"
for cmd; do
	case $cmd in
	diff) set -- diff --sample-type nosuch "$old" "$old" ;;
	"diff --") set -- diff --sample-type nosuch "$old" -- "$old" ;;
	*) set -- $cmd --sample-type nosuch "$old" ;;
	esac
	run "$TRACETUI" "$@"
	ok "$([ $rc -eq 2 ] && printf '%s\n' "$err" |
		grep -q "no sample type 'nosuch'; the profile has objects, space" &&
		echo 0 || echo 1)" "$cmd --sample-type nosuch: exit 2 (got $rc)"
done
run "$TRACETUI" --sample-type nosuch "$old" </dev/null
ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" \
	"the viewer, --sample-type nosuch: exit 2 (got $rc)"
run "$TRACETUI" report --sample-type objects "$old"
matches "$out" 'Incl count' ' 4  .* alloc$'
ok $? "report: counts in the text table"
# tree: a profile's values, no calls (they are only runs of samples).
run "$TRACETUI" tree "$old"
case $out in
"Incl %  Incl size  Excl size  Method
"*) matches "$out" '^ *72\.2% *130 B *130 B *alloc$' ;;
*) false ;;
esac
ok $? "tree: sizes, and no calls column"
run "$TRACETUI" export -f speedscope "$old"
case $out in *'"unit":"bytes"'*) true ;; *) false ;; esac
ok $? "export: speedscope's unit is bytes"

# The flame graph of a profile speaks its unit: tooltips give total and
# self in bytes (main 180 B, alloc 130 B self), or objects, and no calls
# (a profile's calls are only runs of samples), the subtitle names the
# sample type and the script formats sums in the same unit.
run "$TRACETUI" flamegraph "$old"
matches "$out" '^total 180 B \(100\.00%\), self 0 B</title>' \
	'^total 130 B \(72\.22%\), self 130 B</title>' \
	'space/bytes, total 180 B</text>' 'data-unit="B"' \
	'!^(total|base).* ms|calls [0-9]'
ok $? "flamegraph: sizes, total and self, no calls, no ms"
run "$TRACETUI" flamegraph --sample-type objects "$old"
matches "$out" '^total 4 \(66\.67%\), self 4</title>' \
	'objects/count, total 6</text>' 'data-unit="count"'
ok $? "flamegraph --sample-type objects: counts"
run "$TRACETUI" flamegraph --base "$old" "$new"
matches "$out" \
	'^base total 130 B: total \+1\.0 KiB, self \+1\.0 KiB</title>' \
	'space/bytes: base 180 B, new 1\.2 KiB'
ok $? "flamegraph --base: growth in bytes"

# The HTML page of a profile: Total and Self in bytes, no calls columns,
# the unit in its JSON for the drill-down's script.
run "$TRACETUI" export -f html "$old"
matches "$out" \
	'<th>Total %</th><th>Total</th><th>Self %</th><th>Self</th></tr>' \
	'>alloc</td><td data-v="72.2222">72.2%</td><td data-v="130">130 B</td><td data-v="72.2222">72.2%</td><td data-v="130">130 B</td></tr>' \
	'space/bytes, total 180 B</p>' '"unit": "B"' \
	'!<th>Calls</th>|<th>[^<]* ms</th>'
ok $? "export html: total and self in bytes, no calls"

# The viewer in a detached tmux server of our own: the title names the
# sample type, y loads the next one (the objects of the hand-made
# profile: main 6 in total), the timeline says there is none, q quits.
if command -v tmux >/dev/null 2>&1; then
	sock=tracetui-pprof-$$
	if tm new-session -d -s p -x 100 -y 20 \
		"env TERM=screen LC_ALL=C '$TRACETUI' '$old'; echo EXIT \$?; sleep 10" \
		>/dev/null 2>&1; then
		pane_wait 'type: space/bytes'
		ok $? "viewer: the title names the sample type"
		ok "$(pane_wait '180 B .* main$' && echo 0 || echo 1)" \
			"viewer: sizes in the profile"
		tm send-keys -t p y
		pane_wait 'type: objects/count'
		ok $? "viewer: y loads the next sample type"
		ok "$(pane_wait '  6 .* main$' && echo 0 || echo 1)" \
			"viewer: counts after y"
		tm send-keys -t p y
		pane_wait 'type: space/bytes'
		ok $? "viewer: y comes back to the first type"
		tm send-keys -t p 2
		pane_wait 'No timeline: pprof samples carry no time'
		ok $? "viewer: the timeline says there is none"
		tm send-keys -t p q
		pane_wait 'EXIT 0'
		ok $? "viewer: q quits with status 0"
		tm kill-server >/dev/null 2>&1
	fi
fi

P=${SHARED_PPROF:-${top_srcdir:-.}/../shared/pprof}
if ! [ -d "$P/expected" ]; then
	echo "# no $P/expected: the real profiles are skipped"
	done_testing
	exit
fi

# Every type of every profile against pprof's numbers (make check: each
# profile's first); its folded stacks and tree, and the type by index,
# of every type in make check-long, of the first profile's first type
# in make check (they print what the reader gave, whatever wrote it).
# make check leaves out parca's fgprof and fib profiles: parca's writer
# is met in its alloc_objects profile.
deep=yes
for f in "$P"/*; do
	[ -f "$f" ] || continue
	base=${f##*/}
	[ -n "$long" ] || case $base in
	parca__fgprof.pb.gz | parca__fib.pb.gz) continue ;;
	esac
	types=
	for e in "$P/expected/$base".*.tsv; do
		[ -f "$e" ] || continue
		type=${e#"$P/expected/$base."}
		type=${type%.tsv}
		[ -n "$long" ] || [ -z "$types" ] || continue
		types="$types $type"
		tail -n +2 "$e" | sort >"$tmp/expect"
		total=$(sed -n 's/^# total\t//p' "$e")

		run "$TRACETUI" report -f tsv --sample-type "$type" "$f"
		printf '%s\n' "$out" | flat_cum >"$tmp/got"
		ok "$rc" "$base $type: report exits 0"
		same "$tmp/expect" "$tmp/got" \
			"$base $type: flat and cum per function equal pprof's"
		sum=$(awk -F'\t' '{ s += $2 } END { printf "%.0f", s }' \
			"$tmp/got")
		ok "$([ "$sum" = "$total" ] && echo 0 || echo 1)" \
			"$base $type: flat values add up to the total $total"
		[ -n "$long" ] || { [ "$types" = " $type" ] && [ -n "$deep" ]; } ||
			continue

		grep -v ' 0$' "$P/expected/$base.$type.folded" |
			sort >"$tmp/expect-folded"
		"$TRACETUI" folded --no-thread --sample-type "$type" "$f" \
			2>/dev/null | sort >"$tmp/got-folded"
		same "$tmp/expect-folded" "$tmp/got-folded" \
			"$base $type: folded stacks equal pprof's"

		# tree: report's sampled columns, no calls; its roots
		# hold the whole.
		"$TRACETUI" tree -f tsv --min-pct 0 --sample-type "$type" \
			"$f" >"$tmp/tree" 2>/dev/null
		sum=$(awk -F'\t' 'NR > 1 && $6 == 0 { s += $2 }
			END { printf "%.0f", s }' "$tmp/tree")
		ok "$(head -1 "$tmp/tree" | grep -qx 'total_pct	total	self	total_us	self_us	depth	method' &&
			[ "$sum" = "$total" ] && echo 0 || echo 1)" \
			"$base $type: tree's columns are report's, its roots add up to $total"
	done
	[ -n "$types" ] || continue
	[ -n "$long" ] || [ -n "$deep" ] || continue
	deep=

	# Types by index: the order info lists them in.
	run "$TRACETUI" info "$f"
	list=$(printf '%s\n' "$out" | sed -n 's/^ *pprof-sample-types=//p')
	ok "$([ $rc -eq 0 ] && [ -n "$list" ] && echo 0 || echo 1)" \
		"$base: info lists the sample types"
	i=0
	printf '%s\n' "$list" | tr ',' '\n' | sed 's/^ //; s|/.*||' \
		>"$tmp/types"
	while read -r type; do
		"$TRACETUI" report -f tsv --sample-type "$type" "$f" \
			>"$tmp/by-name" 2>/dev/null
		"$TRACETUI" report -f tsv --sample-type "$i" "$f" \
			>"$tmp/by-index" 2>/dev/null
		same "$tmp/by-name" "$tmp/by-index" \
			"$base: type $i is $type"
		i=$((i + 1))
		[ -n "$long" ] || break
	done <"$tmp/types"
done

# The default type: default_sample_type, else the last (make check: one
# profile of each).
for pair in parca__alloc_objects.pb.gz:alloc_space \
	${long:+parca__fib.pb.gz:cpu} pprof__go.nomappings.crash:inuse_space; do
	f=$P/${pair%%:*}
	[ -f "$f" ] || continue
	"$TRACETUI" report -f tsv "$f" >"$tmp/default" 2>/dev/null
	"$TRACETUI" report -f tsv --sample-type "${pair#*:}" "$f" \
		>"$tmp/named" 2>/dev/null
	same "$tmp/named" "$tmp/default" \
		"${pair%%:*}: the default sample type is ${pair#*:}"
done

f=$P/pprof__sample.cpu
if [ -f "$f" ]; then
	gzip -dc <"$f" >"$tmp/plain.pb"
	"$TRACETUI" report -f tsv "$f" >"$tmp/gz" 2>/dev/null
	"$TRACETUI" report -f tsv "$tmp/plain.pb" >"$tmp/plain" 2>/dev/null
	ok "$([ -s "$tmp/gz" ] && cmp -s "$tmp/gz" "$tmp/plain" &&
		echo 0 || echo 1)" "the gunzipped profile reads the same"

	run "$TRACETUI" report --sample-type nosuch "$f"
	ok "$([ $rc -eq 2 ] &&
		printf '%s\n' "$err" | grep -q "no sample type 'nosuch'" &&
		printf '%s\n' "$err" | grep -q 'samples, cpu' &&
		echo 0 || echo 1)" "an unknown sample type: exit 2, the types listed"

	# Every 37th cut of the profile (1, 38, 75, ... bytes, and none;
	# make check: every 101st): the fuzz target's invariants hold,
	# all in one process (tests/fuzz-replay); and report refuses it with
	# an offset or loads it (two processes a cut, the message read by the
	# shell: make check takes every 613th cut, check-long every 37th).
	size=$(wc -c <"$tmp/plain.pb")
	replay_stride=101
	[ -z "$long" ] || replay_stride=37
	replay_cuts 1 $replay_stride "$tmp/plain.pb" \
		"every ${replay_stride}th cut of the profile"
	cut_stride=37
	[ -n "$long" ] || cut_stride=613
	bad=0
	n=1
	while [ $n -lt "$size" ]; do
		head -c $n "$tmp/plain.pb" >"$tmp/cut.pb"
		"$TRACETUI" report -f tsv "$tmp/cut.pb" >/dev/null 2>"$tmp/err"
		rc=$?
		err=
		IFS= read -r err <"$tmp/err"
		case $rc in
		0) ;;
		3) case $err in *"offset "[0-9]*": "*) ;; *) bad=$((bad + 1)) ;; esac ;;
		*) bad=$((bad + 1)); echo "cut at $n: exit $rc" | diag ;;
		esac
		n=$((n + cut_stride))
	done
	ok "$bad" "every ${cut_stride}th cut of the profile is refused with an offset or read"

	# Bytes flipped one at a time, every 131st (make check: every 917th).
	stride=1
	[ -n "$long" ] || stride=7
	bad=0
	n=0
	# The profile's bytes as numbers, a line each, once.
	od -An -v -tu1 "$tmp/plain.pb" | tr -s ' ' '\n' | sed '/^$/d' \
		>"$tmp/bytes"
	while [ $n -lt "$size" ]; do
		awk -v n=$n 'NR - 1 == n { $0 = ($0 + 128) % 256 }
			{ printf "%c", $0 + 0 }' "$tmp/bytes" >"$tmp/flip.pb" 2>/dev/null
		run "$TRACETUI" report -f tsv "$tmp/flip.pb"
		case $rc in
		0|3) ;;
		*) bad=$((bad + 1)); echo "flip at $n: exit $rc" | diag ;;
		esac
		n=$((n + 131 * stride))
	done
	ok "$bad" "flipped bytes are refused or read, never a crash"
fi

done_testing
