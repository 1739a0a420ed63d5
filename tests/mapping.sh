#!/bin/sh
# mapping.sh: --mapping FILE (src/model/mapping.c) on the obfuscated trace of
# tests/fixtures/mapping-obf.spec with tests/fixtures/mapping-obf.mapping.txt.
#
# - report --format tsv rows equal the spec's "# expect-mapped:" lines
#   (worked out by hand: overloads picked by signature, inline frames,
#   ambiguous names joined with '|', slashed classes, signatures renamed);
# - tree, calls, folded and dump name exactly the same methods, and the
#   viewer shows the original names (in tmux, when it is installed);
# - an hprof profile (no signatures) gets every real candidate;
# - 200,000 overloads under one obfuscated name, looked up by 20,000
#   methods: each gets its own overload, in hash probes (it took
#   O(methods x overloads));
# - errors: a missing or malformed mapping exits 3 with one line naming the
#   file and the line; --mapping without a value exits 2, and so does
#   --mapping on a command it does not apply to.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL

spec=$srcdir/tests/fixtures/mapping-obf.spec
map=$srcdir/tests/fixtures/mapping-obf.mapping.txt
trace=$tmp/mapping-obf.trace
"$MKTRACE" "$spec" "$trace" || skip_all "mktrace failed on $spec"

same() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" | diag
	fi
}

# same_lines DESCRIPTION WANT GOT rows|set: GOT holds WANT's lines, by
# one awk: as report --format tsv rows (7 cells, GOT's header line
# skipped), as many times each, or as a set.  The sorted lines' diff a
# diagnostic when they differ.
same_lines() {
	awk -F'\t' -v OFS='\t' -v mode="$4" '
	FILENAME == ARGV[2] && mode == "rows" && FNR == 1 { next }
	{
		if (mode == "rows") $7 = $7
		d = FILENAME == ARGV[1] ? 1 : -1
		if (mode == "rows") n[$0] += d
		else if (d > 0) w[$0] = 1
		else g[$0] = 1
	}
	END {
		for (l in n) if (n[l]) exit 1
		for (l in w) if (!(l in g)) exit 1
		for (l in g) if (!(l in w)) exit 1
	}' "$2" "$3"
	sl_rc=$?
	ok $sl_rc "$1"
	[ $sl_rc -eq 0 ] || {
		sort -u "$2" >"$tmp/sl.want"
		sort -u "$3" >"$tmp/sl.got"
		diff -u "$tmp/sl.want" "$tmp/sl.got"
	} | diag
}

# The rows, the method names alone, and those names as folded writes
# them (each ';' as ',').
awk -F'\t' -v e="$tmp/expect" -v m="$tmp/names" -v f="$tmp/folded-names" '
	BEGIN { printf "" >e }
	sub(/^# expect-mapped: /, "") {
		print >e
		print $1 >m
		gsub(/;/, ",", $1)
		print $1 >f
	}' "$spec"

"$TRACETUI" report --format tsv --mapping "$map" "$trace" >"$tmp/got" \
	2>"$tmp/e"
same_lines "report rows equal the expect-mapped: lines" \
	"$tmp/expect" "$tmp/got" rows
ok "$([ ! -s "$tmp/e" ] && echo 0 || echo 1)" "no warnings"

"$TRACETUI" tree --format tsv --min-pct 0 --mapping "$map" "$trace" |
	awk -F'\t' 'NR > 1 && $6 !~ /^\[/ { print $6 }' >"$tmp/got"
same_lines "tree names the mapped methods" "$tmp/names" "$tmp/got" set

"$TRACETUI" calls --format tsv --mapping "$map" "$trace" |
	awk -F'\t' 'NR > 1 { print $8 }' >"$tmp/got"
same_lines "calls names the mapped methods" "$tmp/names" "$tmp/got" set

# folded writes full names, each ';' as ','.
"$TRACETUI" folded --mapping "$map" "$trace" |
	awk '{ sub(/ [0-9]*$/, ""); n = split($0, f, ";")
		for (i = 1; i <= n; i++)
			if (f[i] != "main" && f[i] != "(outside any method)")
				print f[i] }' >"$tmp/got"
same_lines "folded names the mapped methods" "$tmp/folded-names" \
	"$tmp/got" set

"$TRACETUI" dump --mapping "$map" "$trace" |
	sed -n 's/^ *[0-9]* ent *[0-9]* \.*//p' >"$tmp/got"
same_lines "dump names the mapped methods" "$tmp/names" "$tmp/got" set

# The calls regex sees the original names.
run "$TRACETUI" calls --format tsv --mapping "$map" "$trace" 'alpha\|beta'
# Two lines (run drops the last newline): one newline left in it.
case $out in
*"
"*"
"*) lines=more ;;
*"
"*) lines=2 ;;
*) lines=less ;;
esac
[ $rc -eq 0 ] && [ $lines = 2 ]
ok $? "calls REGEX matches an original name"

# CRLF line ends in the mapping: the same rows.
sed 's/$/\r/' "$map" >"$tmp/crlf.txt"
"$TRACETUI" report --format tsv --mapping "$tmp/crlf.txt" "$trace" \
	>"$tmp/got"
same_lines "a CRLF mapping gives the same rows" "$tmp/expect" "$tmp/got" rows

# hprof frames carry no signature: every real method of the name.
printf '%s\n' 'JAVA PROFILE 1.0.1, created today' \
	'TRACE 1:' '	a.b.a(SourceFile:3)' '	a.b.c(SourceFile:1)' \
	'	a.a.onCreate(SourceFile:2)' \
	'CPU SAMPLES BEGIN (total = 4) today' \
	'rank   self  accum   count trace method' \
	'   1 100.00% 100.00%       4     1 a.b.a' 'CPU SAMPLES END' \
	>"$tmp/obf.hprof.txt"
"$TRACETUI" folded --mapping "$map" "$tmp/obf.hprof.txt" >"$tmp/got"
app=com.example.app
repo=$app.data.Repository
echo "hprof;$app.MainActivity.onCreate;$repo.run;$repo.load|format 4" \
	>"$tmp/want"
same "$tmp/want" "$tmp/got" "hprof: no signature, every real candidate"

# Errors.  expect_error STATUS REGEX DESCRIPTION COMMAND...
expect_error() {
	e_status=$1 e_re=$2 e_desc=$3
	shift 3
	run "$@"
	# One line (run drops the last newline): no newline left in it.
	case $err in
	*"
"* | "") e_lines=no ;;
	*) e_lines= ;;
	esac
	[ $rc -eq "$e_status" ] && [ -z "$out" ] && [ -z "$e_lines" ] &&
		printf '%s\n' "$err" | grep -Eq -e "$e_re"
	ok $? "$e_desc"
	[ $rc -eq "$e_status" ] || echo "exit $rc: $err" | diag
}

expect_error 3 "^tracetui: $tmp/none.txt: cannot open the mapping" \
	"a missing mapping: exit 3" \
	"$TRACETUI" report --mapping "$tmp/none.txt" "$trace"
expect_error 3 "^tracetui: $tmp: not a mapping file" \
	"a directory as mapping: exit 3" \
	"$TRACETUI" report --mapping "$tmp" "$trace"
printf 'com.example.A -> a:\n    void f() -> a\ncom.example.B -> b\n' \
	>"$tmp/bad1.txt"
expect_error 3 "^tracetui: $tmp/bad1.txt: line 3: expected 'original.Class" \
	"a class line without its colon: exit 3, line 3" \
	"$TRACETUI" tree --mapping "$tmp/bad1.txt" "$trace"
printf '# header\n    int x -> a\n' >"$tmp/bad2.txt"
expect_error 3 "^tracetui: $tmp/bad2.txt: line 2: a member line before" \
	"a member before any class: exit 3, line 2" \
	"$TRACETUI" folded --mapping "$tmp/bad2.txt" "$trace"
printf 'a.B -> c:\n    1:2:void f(int -> a\n' >"$tmp/bad3.txt"
expect_error 3 "^tracetui: $tmp/bad3.txt: line 2: expected '\[A:B:\]TYPE NAME" \
	"a method line that does not parse: exit 3, line 2" \
	"$TRACETUI" calls --mapping "$tmp/bad3.txt" "$trace"
printf 'a.B -> c:\n    void f() a\n' >"$tmp/bad4.txt"
expect_error 3 "^tracetui: $tmp/bad4.txt: line 2: expected ' -> '" \
	"a member line without ' -> ': exit 3, line 2" \
	"$TRACETUI" dump --mapping "$tmp/bad4.txt" "$trace"
expect_error 3 "^tracetui: $tmp/mapping-obf.trace: line 1: " \
	"a trace given as the mapping: exit 3" \
	"$TRACETUI" report --mapping "$trace" "$trace"
expect_error 2 "--mapping' needs a value" "--mapping without a value: exit 2" \
	"$TRACETUI" report --mapping
expect_error 2 "does not apply" "info does not take --mapping: exit 2" \
	"$TRACETUI" info --mapping "$map" "$trace"

# Every prefix of the mapping parses or is refused, never crashes (make
# check: every 46th of them).
size=$(wc -c <"$map")
stride=5
[ -n "$long" ] || stride=230
bad=
n=0
while [ "$n" -lt "$size" ]; do
	head -c "$n" "$map" >"$tmp/cut.txt"
	"$TRACETUI" report --mapping "$tmp/cut.txt" "$trace" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || bad="$bad $n:$rc"
	n=$((n + stride))
done
ok "$([ -z "$bad" ] && echo 0 || echo 1)" \
	"every cut-off prefix of the mapping is used or refused"

# The viewer, in a tmux server of its own.
if command -v tmux >/dev/null 2>&1; then
	unset TMUX
	sock=tracetui-mapping-$$
	trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
	if tm new-session -d -s t -x 120 -y 30 \
		"env TERM=screen '$TRACETUI' --mapping '$map' '$trace'" \
		>/dev/null 2>&1; then
		# The screen matched by the shell: a grep less per poll.
		i=0
		while [ $i -lt 200 ]; do
			case $(tm capture-pane -p -t t 2>/dev/null) in
			*com.example.app.MainActivity.onCreate*) break ;;
			esac
			poll_nap $i
			i=$((i + 1))
		done
		ok "$([ $i -lt 200 ] && echo 0 || echo 1)" \
			"the viewer shows the original names"
		# Let it exit before the server goes: a hangup in the middle
		# of its exit (a sanitizer's leak check) can leave it stuck.
		tm send-keys -t t q >/dev/null 2>&1
		i=0
		while [ $i -lt 200 ] && tm has-session -t t 2>/dev/null; do
			poll_nap $i
			i=$((i + 1))
		done
		ok "$([ $i -lt 200 ] && echo 0 || echo 1)" "q quits the viewer"
	else
		ok 0 "the viewer shows the original names # SKIP no tmux server"
	fi
else
	ok 0 "the viewer shows the original names # SKIP no tmux"
fi

# 200,000 overloads obfuscated to one name, and a trace of 20,000 of
# them: each lookup used to walk every overload (twice when the
# signature matched none), 23 s for far fewer methods; now the groups
# are settled once as the file is read, and the lookups are hash
# probes.  The timeout is a hang's, not a benchmark: a second or so is
# expected.  Each overload has its own name, so the result checks that
# the signature picks the right one; a signature the mapping lacks gets
# the first eight real names.  (make check: 20,000 overloads and 2,000
# of them, the same checks; check-long: the sizes above.)
overloads=20000 methods=2000
[ -z "$long" ] || overloads=200000 methods=20000
awk -v n=$overloads 'BEGIN {
	print "com.example.Orig -> a:"
	for (i = 0; i < n; i++)
		printf "    void m%d(com.T%d) -> a\n", i, i
}' >"$tmp/many.mapping"
awk -v n=$overloads -v m=$methods 'BEGIN {
	print "format v1"; print "version 3"; print "clock dual"
	print "thread 1 main"
	for (i = 0; i < m; i++)
		printf "method 0x%x a a (Lcom/T%d;)V A.java\n", 4 * (i + 1),
			n - 1 - 10 * i
	printf "method 0x%x a a (Lcom/Nowhere;)V A.java\n", 4 * (m + 1)
	for (i = 0; i <= m; i++)
		printf "call 1 0x%x %d %d %d %d\n", 4 * (i + 1), 10 * i,
			10 * i, 10 * i + 5, 10 * i + 5
}' >"$tmp/many.spec"
if "$MKTRACE" "$tmp/many.spec" "$tmp/many.trace"; then
	timeout 120 "$TRACETUI" report -f tsv --mapping "$tmp/many.mapping" \
		"$tmp/many.trace" >"$tmp/many.tsv" 2>"$tmp/many.err"
	rc=$?
	ok $rc "$overloads overloads, $methods methods: report ends (exit $rc)"
	awk -F'\t' -v m=$methods 'NR > 1 && $1 ~ /^com\.example\.Orig\.m[0-9]+ \(/ {
		split($1, a, /[m (;]/); n = a[4] + 0
		if ($1 != sprintf("com.example.Orig.m%d (Lcom/example/T%d;)V", n, n) &&
		    $1 != sprintf("com.example.Orig.m%d (Lcom/T%d;)V", n, n))
			bad = bad " " $1
		count++
	} END { if (bad) print bad; exit !(count == m && bad == "") }' \
		"$tmp/many.tsv" >"$tmp/many.bad"
	ok $? "each of the $methods gets the overload of its signature"
	head -c 300 "$tmp/many.bad" | diag
	grep -q '^com\.example\.Orig\.m0|m1|m2|m3|m4|m5|m6|m7|\.\.\. ' \
		"$tmp/many.tsv"
	ok $? "a signature the mapping lacks: the first eight names, then ..."
else
	ok 1 "mktrace wrote the trace of $methods overloads"
fi

done_testing
