#!/bin/sh
# corpus.sh: the real traces in ../shared/traces, checked against what
# other tools computed from them (their README lists the oracles).
. "${top_srcdir:-.}/tests/lib.sh"

T=$SHARED_TRACES
[ -d "$T" ] || skip_all "no trace corpus at $T"
PERFLIB_TREE=${top_builddir:-.}/tests/perflib-tree

# Every trace loads, except the three damaged ones, which fail cleanly.
# (make check: one trace of each family, through report --format tsv and
# one of the five other commands in turn; check-long: every trace
# through every command.)
turn=0
for f in "$T"/*.trace; do
	name=${f##*/}
	case $name in
	game__mytrace.trace | perflib__basic-special_char.trace | \
		perflib__header.trace)
		run "$TRACETUI" report --format tsv "$f"
		ok $([ $rc -eq 3 ] && echo 0 || echo 1) "$name: exit 3"
		case $err in
		"tracetui: $f: offset "[0-9]*": "*) ok 0 "$name: message names file and offset" ;;
		*) ok 1 "$name: message names file and offset: $err" ;;
		esac
		ok $([ -z "$out" ] && echo 0 || echo 1) "$name: no output"
		;;
	*)
		is_fast_trace "$f" || continue
		turn=$((turn + 1))
		c_i=0
		for cmd in "report --format tsv" info tree calls folded dump; do
			c_i=$((c_i + 1))
			[ -n "$long" ] || [ $c_i -eq 1 ] ||
				[ $(((turn + c_i) % 5)) -eq 0 ] || continue
			run "$TRACETUI" $cmd "$f"
			ok $([ $rc -eq 0 ] && [ -n "$out" ] && echo 0 || echo 1) \
				"$name: $cmd"
		done
		;;
	esac
done

# The damaged files say what is wrong.
run "$TRACETUI" info "$T/game__mytrace.trace"
echo "$err" | grep -q "record size 0" ; ok $? "game__mytrace: record size 0 named"
run "$TRACETUI" info "$T/perflib__basic-special_char.trace"
echo "$err" | grep -q "record size 1186" ; ok $? "special_char: record size 1186 named"
# perflib__header.trace is its key, then 'SLOW' and a line of words where
# the binary part was: info says the data part is missing and still shows
# what the key holds; the other commands refuse it (status 3, above).
run "$TRACETUI" info "$T/perflib__header.trace"
[ $rc -eq 0 ] && ! echo "$err" | grep -q "unsupported data version" &&
	echo "$err" | grep -q "offset 557: warning: the data part is missing: 24 bytes of text follow the data magic 'SLOW'"
ok $? "header: info says the data part is missing at 557 (exit $rc)"
echo "$err" | diag
echo "$out" | grep -q "^format: *V1, version 3 (the key's); the data part is missing$" &&
	echo "$out" | grep -q "^complete: *no (the key only: no data part)$" &&
	echo "$out" | grep -q "^  offset 557: the data part is missing"
ok $? "header: info's lines say so too"
# What the key says, as the file has it: its properties, its two threads
# and its four methods.
grep -a '^[a-z-]*=' "$T/perflib__header.trace" | sed 's/^/  /' >"$tmp/want"
echo "$out" | sed -n '/^properties:/,/^threads:/p' | sed '1d;$d' >"$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"
ok $? "header: info shows the key's properties"
echo "$out" | awk '$1 ~ /^[0-9]+$/ { $2 = $3 = $4 = $5 = ""; print }' |
	tr -s ' ' >"$tmp/got"
printf '1 main\n11 AsyncTask #1\n' | cmp -s - "$tmp/got"
ok $? "header: info shows the key's threads 1 main and 11 AsyncTask #1"
[ "$(echo "$out" | sed -n 's/^methods: *//p')" = \
	"$(grep -ac '^0x' "$T/perflib__header.trace")" ]
ok $? "header: info counts the key's methods"
run "$TRACETUI" report "$T/perflib__header.trace"
[ $rc -eq 3 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
	echo "$err" | grep -q "offset 557: the data part is missing: .*'tracetui info' shows its key$"
ok $? "header: report refuses it in one line, pointing to info (exit $rc)"
# The key alone, the file ending at '*end': the same.
end=$(grep -abo '^\*end$' "$T/perflib__header.trace" | cut -d: -f1)
head -c $((end + 5)) "$T/perflib__header.trace" >"$tmp/key-only.trace"
run "$TRACETUI" info "$tmp/key-only.trace"
[ $rc -eq 0 ] && echo "$err" | grep -q "offset $((end + 5)): warning: the data part is missing: the file ends after '\*end'" &&
	echo "$out" | grep -q "^  clock-call-overhead-nsec=1974$"
ok $? "a key alone: info says the data part is missing, shows the key (exit $rc)"
run "$TRACETUI" tree "$tmp/key-only.trace"
[ $rc -eq 3 ] && echo "$err" | grep -q "the data part is missing"
ok $? "a key alone: tree refuses it (exit $rc)"

# perflib's expected call trees of thread "AsyncTask #1".
for n in basic basic-api10 exception mismatched; do
	"$PERFLIB_TREE" "$T/perflib__$n.trace" "AsyncTask #1" >"$tmp/tree" 2>&1
	cmp -s "$tmp/tree" "$T/perflib__$n.expected-calltree-AsyncTask1.txt"
	ok $? "perflib__$n: call tree equals perflib's"
done

# Perfetto's ten longest complete calls of perflib__streaming.trace: its
# ts is (header start + wall start) in ns, its dur the wall duration in ns.
start=$("$TRACETUI" info "$T/perflib__streaming.trace" 2>/dev/null |
	sed -n 's/^start time: *\([0-9]*\) us$/\1/p')
"$TRACETUI" calls --sort wall --format tsv "$T/perflib__streaming.trace" \
	2>/dev/null | awk -F'\t' -v s="$start" 'NR > 1 && $7 !~ /open/ {
		printf "%d000,%d000,%s\n", s + $3, $4, $1 }' | head -10 \
	>"$tmp/top10"
tail -n +2 "$T/perflib__streaming.expected-perfetto-top10-slices.csv" |
	sed 's/^\([0-9]*\),\([0-9]*\),"[^"]*","\([^"]*\)".*/\1,\2,\3/' \
	>"$tmp/perfetto"
cmp -s "$tmp/top10" "$tmp/perfetto"
ok $? "perflib__streaming: ten longest calls equal Perfetto's"
diff "$tmp/top10" "$tmp/perfetto" | diag

# dmtracedump's numbers, on the traces without orphan or mismatched exits
# (make check: the three smallest, instrumented and sampled).
grep -v '^#' "${top_srcdir:-.}/tests/corpus/dmtracedump.digest" |
while read -r file rows sum; do
	case $long$file in
	yes* | Launcher__app.trace | android-methods-profiler__legacy.trace | \
		StudentInformationManagementSystem__profile.trace) ;;
	*) continue ;;
	esac
	"$TRACETUI" report --format tsv "$T/$file" 2>/dev/null |
		normalize_tsv >"$tmp/norm"
	got_rows=$(wc -l <"$tmp/norm")
	got_sum=$(sha256sum <"$tmp/norm" | cut -c1-64)
	[ "$got_rows" -eq "$rows" ] && [ "$got_sum" = "$sum" ]
	echo $? >"$tmp/status.$file"
done
for s in "$tmp"/status.*; do
	ok "$(cat "$s")" "${s##*/status.}: per-method numbers equal dmtracedump's"
done

# Facts the perflib tests assert.
"$TRACETUI" report --format tsv "$T/perflib__char_2_bytes.trace" 2>/dev/null |
	grep -q "$(printf '\tˊ\t')\|\.ˊ " ; ok $? "char_2_bytes: method named U+02CA"
run "$TRACETUI" info "$T/perflib__streaming.trace"
echo "$out" | grep -q " 15362 .* main$" ; ok $? "streaming: main is 15362"
echo "$out" | grep -q " 18089 .* OkHttp ConnectionPool$" ; ok $? "streaming: OkHttp ConnectionPool is 18089"
echo "$out" | grep -q "clock-call-overhead-nsec=10934" ; ok $? "streaming: clock-call-overhead-nsec"

# Sampled or instrumented, as the corpus README labels them (make
# check: the smaller ones of each kind, V1 and streaming).
sampled="perflib__streaming firefox-profiler__art-trace-regular \
	android-methods-profiler__legacy AppMethodOrder__studioVersion"
instrumented="AndroidPerformance__App perflib__basic"
intervals=firefox-profiler__art-trace-regular
if [ -n "$long" ]; then
	sampled="$sampled firefox-profiler__art-trace-streaming \
		AndroidMethodTraceParser__cpu_trace"
	instrumented="$instrumented AppMethodOrder__oldVersion \
		game__mytrace.earlier-revision"
	intervals="$intervals firefox-profiler__art-trace-streaming"
fi
for n in $sampled; do
	"$TRACETUI" info "$T/$n.trace" 2>/dev/null | grep -q "^recording: *sampled"
	ok $? "$n: detected as sampled"
done
for n in $instrumented; do
	"$TRACETUI" info "$T/$n.trace" 2>/dev/null | grep -q "^recording: *instrumented"
	ok $? "$n: detected as instrumented"
done

# The sampling interval against the one Firefox Profiler infers (its
# snapshot's "interval", in ms, to one decimal).
for n in $intervals; do
	want=$(sed -n 's/.*"interval": \([0-9.]*\),.*/\1/p' \
		"$T/$n.expected-profile-snapshot.txt" | head -1)
	got=$("$TRACETUI" info "$T/$n.trace" 2>/dev/null |
		sed -n 's/^recording: *sampled about every \([0-9.]*\) ms.*/\1/p')
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w;
		exit !(g != "" && w != "" && d < 0.05 && d > -0.05) }'
	ok $? "$n: sampled every $got ms, Firefox Profiler says $want ms"
done

done_testing
