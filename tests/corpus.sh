#!/bin/sh
# corpus.sh: the real traces in ../shared/traces, checked against what
# other tools computed from them (their README lists the oracles).
# make check: one trace of each family, two dmtracedump oracles, the
# smaller traces of each recording kind; check-long: every trace.
. "${top_srcdir:-.}/tests/lib.sh"

nl='
'
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
		[ $rc -eq 3 ]
		ok $? "$name: exit 3"
		case $err in
		"tracetui: $f: offset "[0-9]*": "*) ok 0 "$name: message names file and offset" ;;
		*) ok 1 "$name: message names file and offset: $err" ;;
		esac
		[ -z "$out" ]
		ok $? "$name: no output"
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
			[ $rc -eq 0 ] && [ -n "$out" ]
			ok $? "$name: $cmd"
		done
		;;
	esac
done

# The damaged files say what is wrong.
run "$TRACETUI" info "$T/game__mytrace.trace"
case $err in *"record size 0"*) r=0 ;; *) r=1 ;; esac
ok $r "game__mytrace: record size 0 named"
run "$TRACETUI" info "$T/perflib__basic-special_char.trace"
case $err in *"record size 1186"*) r=0 ;; *) r=1 ;; esac
ok $r "special_char: record size 1186 named"
# perflib__header.trace is its key, then 'SLOW' and a line of words where
# the binary part was: info says the data part is missing and still shows
# what the key holds; the other commands refuse it (status 3, above).
run "$TRACETUI" info "$T/perflib__header.trace"
r=1
case $rc$nl$err in
*"unsupported data version"*) ;;
"0$nl"*"offset 557: warning: the data part is missing: 24 bytes of text follow the data magic 'SLOW'"*) r=0 ;;
esac
ok $r "header: info says the data part is missing at 557 (exit $rc)"
printf '%s\n' "$err" | diag
# The lines of info's output, matched in one awk.
printf '%s\n' "$out" | awk '
	/^format: *V1, version 3 \(the key.s\); the data part is missing$/ { a = 1 }
	/^complete: *no \(the key only: no data part\)$/ { b = 1 }
	/^  offset 557: the data part is missing/ { c = 1 }
	END { exit !(a && b && c) }'
ok $? "header: info's lines say so too"
# What the key says, as the file has it: its properties, its two threads
# and its four methods.  One awk reads the file's key and info's lines:
# "PROPS THREADS METHODS", each 1 where they agree, and END, the offset
# of the key's '*end' line.
printf '%s\n' "$out" >"$tmp/info-header"
set -- $(LC_ALL=C awk '
	FNR == 1 { f++ }
	f == 1 && /^[a-z-]*=/ { want = want "  " $0 "\n" }
	f == 1 && /^0x/ { nm++ }
	f == 1 && end == "" { if ($0 == "*end") end = off; off += length($0) + 1 }
	f == 2 && /^threads:/ { inp = 0 }
	f == 2 && inp { got = got $0 "\n" }
	f == 2 && /^properties:/ { inp = 1 }
	f == 2 && $1 ~ /^[0-9]+$/ { $2 = $3 = $4 = $5 = ""; l = $0
		gsub(/ +/, " ", l); th = th l "\n" }
	f == 2 && /^methods: */ { sub(/^methods: */, ""); meth = $0 }
	END { print (want != "" && want == got) ? 1 : 0,
		th == "1 main\n11 AsyncTask #1\n" ? 1 : 0, meth == nm "" ? 1 : 0, end }
	' "$T/perflib__header.trace" "$tmp/info-header")
[ "$1" = 1 ]
ok $? "header: info shows the key's properties"
[ "$2" = 1 ]
ok $? "header: info shows the key's threads 1 main and 11 AsyncTask #1"
[ "$3" = 1 ]
ok $? "header: info counts the key's methods"
run "$TRACETUI" report "$T/perflib__header.trace"
case $rc$nl$err in
*"$nl"*"$nl"*) r=1 ;;
"3$nl"*"offset 557: the data part is missing: "*"'tracetui info' shows its key") r=0 ;;
*) r=1 ;;
esac
ok $r "header: report refuses it in one line, pointing to info (exit $rc)"
# The key alone, the file ending at '*end'.
end=$4
head -c $((end + 5)) "$T/perflib__header.trace" >"$tmp/key-only.trace"
run "$TRACETUI" info "$tmp/key-only.trace"
r=1
case $rc$nl$err in
"0$nl"*"offset $((end + 5)): warning: the data part is missing: the file ends after '*end'"*)
	case $nl$out$nl in *"$nl  clock-call-overhead-nsec=1974$nl"*) r=0 ;; esac ;;
esac
ok $r "a key alone: info says the data part is missing, shows the key (exit $rc)"
run "$TRACETUI" tree "$tmp/key-only.trace"
case $rc$nl$err in "3$nl"*"the data part is missing"*) r=0 ;; *) r=1 ;; esac
ok $r "a key alone: tree refuses it (exit $rc)"

# perflib's expected call trees of thread "AsyncTask #1".
for n in basic basic-api10 exception mismatched; do
	"$PERFLIB_TREE" "$T/perflib__$n.trace" "AsyncTask #1" >"$tmp/tree" 2>&1
	cmp -s "$tmp/tree" "$T/perflib__$n.expected-calltree-AsyncTask1.txt"
	ok $? "perflib__$n: call tree equals perflib's"
done

# dmtracedump's numbers, on the traces without orphan or mismatched exits
# (make check: the two smallest, one instrumented and one sampled).
while read -r file rows sum; do
	case $file in "#"*) continue ;; esac
	case $long$file in
	yes* | Launcher__app.trace | android-methods-profiler__legacy.trace) ;;
	*) continue ;;
	esac
	"$TRACETUI" report --format tsv "$T/$file" 2>/dev/null |
		normalize_tsv >"$tmp/norm"
	got_rows=$(wc -l <"$tmp/norm")
	got_sum=$(sha256sum <"$tmp/norm")
	[ "$got_rows" -eq "$rows" ] && [ "${got_sum%% *}" = "$sum" ]
	ok $? "$file: per-method numbers equal dmtracedump's"
done <"${top_srcdir:-.}/tests/corpus/dmtracedump.digest"

# info of a trace NAME, read once into $tmp/info.NAME.
info_of() {
	[ -f "$tmp/info.$1" ] ||
		"$TRACETUI" info "$T/$1.trace" >"$tmp/info.$1" 2>/dev/null
}

# Perfetto's ten longest complete calls of perflib__streaming.trace: its
# ts is (header start + wall start) in ns, its dur the wall duration in ns.
info_of perflib__streaming
start=
while IFS= read -r line; do
	case $line in
	"start time: "*" us") start=${line#start time:}; start=${start% us}
		start=${start##* } ;;
	esac
done <"$tmp/info.perflib__streaming"
"$TRACETUI" calls --sort wall --format tsv "$T/perflib__streaming.trace" \
	2>/dev/null | awk -F'\t' -v s="$start" 'NR > 1 && $7 !~ /open/ {
		printf "%d000,%d000,%s\n", s + $3, $4, $1; if (++n == 10) exit }' \
	>"$tmp/top10"
sed '1d; s/^\([0-9]*\),\([0-9]*\),"[^"]*","\([^"]*\)".*/\1,\2,\3/' \
	"$T/perflib__streaming.expected-perfetto-top10-slices.csv" \
	>"$tmp/perfetto"
if cmp -s "$tmp/top10" "$tmp/perfetto"; then
	ok 0 "perflib__streaming: ten longest calls equal Perfetto's"
else
	ok 1 "perflib__streaming: ten longest calls equal Perfetto's"
	diff "$tmp/top10" "$tmp/perfetto" | diag
fi

# Facts the perflib tests assert.
"$TRACETUI" report --format tsv "$T/perflib__char_2_bytes.trace" 2>/dev/null |
	grep -q "$(printf '\tˊ\t')\|\.ˊ " ; ok $? "char_2_bytes: method named U+02CA"
set -- $(awk '/ 15362 .* main$/ { a = 1 }
	/ 18089 .* OkHttp ConnectionPool$/ { b = 1 }
	/clock-call-overhead-nsec=10934/ { c = 1 }
	END { print a + 0, b + 0, c + 0 }' "$tmp/info.perflib__streaming")
[ "$1" = 1 ] ; ok $? "streaming: main is 15362"
[ "$2" = 1 ] ; ok $? "streaming: OkHttp ConnectionPool is 18089"
[ "$3" = 1 ] ; ok $? "streaming: clock-call-overhead-nsec"

# Sampled or instrumented, as the corpus README labels them (make
# check: the smaller ones of each kind, V1 and streaming; the infos read
# once, matched in one awk).
sampled="perflib__streaming firefox-profiler__art-trace-regular \
	AppMethodOrder__studioVersion"
instrumented="AndroidPerformance__App perflib__basic"
intervals=firefox-profiler__art-trace-regular
if [ -n "$long" ]; then
	sampled="$sampled android-methods-profiler__legacy \
		firefox-profiler__art-trace-streaming \
		AndroidMethodTraceParser__cpu_trace"
	instrumented="$instrumented AppMethodOrder__oldVersion \
		game__mytrace.earlier-revision"
	intervals="$intervals firefox-profiler__art-trace-streaming"
fi
set --
for n in $sampled $instrumented; do
	info_of "$n"
	set -- "$@" "$tmp/info.$n"
done
awk '/^recording: *sampled/ { s[FILENAME] = 1 }
	/^recording: *instrumented/ { i[FILENAME] = 1 }
	END { for (f in s) print "s", f; for (f in i) print "i", f }' "$@" \
	>"$tmp/recording"
for n in $sampled; do
	r=1
	while read -r k f; do
		[ "$k $f" = "s $tmp/info.$n" ] && r=0
	done <"$tmp/recording"
	ok $r "$n: detected as sampled"
done
for n in $instrumented; do
	r=1
	while read -r k f; do
		[ "$k $f" = "i $tmp/info.$n" ] && r=0
	done <"$tmp/recording"
	ok $r "$n: detected as instrumented"
done

# The sampling interval against the one Firefox Profiler infers (its
# snapshot's "interval", in ms, to one decimal): "GOT WANT STATUS".
for n in $intervals; do
	info_of "$n"
	set -- $(awk '
		FNR == 1 { f++ }
		f == 1 && w == "" && match($0, /"interval": [0-9.]*,/) {
			w = substr($0, RSTART + 12, RLENGTH - 13) }
		f == 2 && sub(/^recording: *sampled about every /, "") {
			sub(/ ms.*/, ""); g = $0 }
		END { d = g - w
			print (g == "" ? "?" : g), (w == "" ? "?" : w),
				!(g != "" && w != "" && d < 0.05 && d > -0.05) }
		' "$T/$n.expected-profile-snapshot.txt" "$tmp/info.$n")
	ok "$3" "$n: sampled every $1 ms, Firefox Profiler says $2 ms"
done

done_testing
