#!/bin/sh
# fixtures.sh: every tests/fixtures/*.spec but render-*.spec, written by
# mktrace and read by each batch command (PRODUCT.md 3).
#
# - Goldens: stdout, exit status and stderr of each command, the temporary
#   directory written @TMP@, in tests/golden/fixtures/NAME.CMD.txt.
#   REGENERATE=1 rewrites them instead of comparing: read every changed one
#   and check its numbers against the spec's hand-worked table before
#   committing it.
# - An oracle that is not a golden: the "# expect:" lines of a spec are its
#   `report --format tsv` rows worked out by hand; they must equal the rows
#   tracetui prints.  Every spec that loads must have them, but the
#   generated ones.
# - broken-*.spec without "# expect:" lines must be refused by every command:
#   exit 3, no output, one line "tracetui: FILE: offset N: ...".
# - make check takes one fixture of each kind (is_fast_fixture in
#   tests/lib.sh, with the generated pair, the split and side-file ones
#   and a refused one) through report --format tsv and one of the seven
#   other commands, in turn; make check-long every fixture through all.
# - Options (format, sort, top, thread, clock, regex, ...) on v3-dual;
#   make check sorts by three of the nine columns.
# - fixture_traces (tests/lib.sh), which gives the suites these traces:
#   make's linked, or mktrace's when make's are not all there.
#
# Known disagreements (see known() below) are TODO tests, so they show as
# XFAIL; their goldens are made by hand (what the spec says tracetui should
# print) and REGENERATE leaves them alone.  Once tracetui agrees they XPASS,
# which fails `make check`: then take them out of known().
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
fixtures=$srcdir/tests/fixtures
golden=$srcdir/tests/golden/fixtures
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL
mkdir "$tmp/got"
fixture_traces "$tmp"

# known NAME [SLUG]: set $why to why, if the fixture (or its command
# SLUG) is a known disagreement, else to nothing (no subshell: this runs
# for every check).
known() {
	why=
	case $1.$2 in
	esac
}

# The report --format tsv rows (or "# expect:" lines) as 7 tab-separated
# cells, sorted: the trailing empty cells of a missing clock made explicit.
rows() {
	awk -F'\t' -v OFS='\t' '{ $7 = $7; print }' | LC_ALL=C sort
}

# tok STATUS DESCRIPTION [TODO]: ok, where a TODO test that fails (XFAIL)
# does not fail the script; one that passes shows as XPASS.
tok() {
	ok "$1" "$2$3"
	if [ "$1" -ne 0 ] && [ -n "$3" ]; then
		tap_failed=$((tap_failed - 1))
	fi
}

# The commands read the traces as @TMP@/NAME.trace, through a link in
# the directory they run in, so that what they print names the
# temporary directory @TMP@ as the goldens do, with no rewriting.
mkdir "$tmp/run" && ln -s "$tmp" "$tmp/run/@TMP@" && cd "$tmp/run" || exit 1
T=@TMP@

# Write $tmp/got/NAME.SLUG.txt: stdout, the exit status, stderr; $c_rc is
# the status, $c_empty "yes" when stdout was empty.
capture() {
	c_file=$tmp/got/$1.$2.txt
	shift 2
	"$TRACETUI" "$@" >"$c_file" 2>"$tmp/e"
	c_rc=$?
	c_empty=
	[ -s "$c_file" ] || c_empty=yes
	echo "=== exit $c_rc" >>"$c_file"
	if [ -s "$tmp/e" ]; then
		echo "=== stderr" >>"$c_file"
		cat "$tmp/e" >>"$c_file"
	fi
}

# Compare $tmp/got/NAME.SLUG.txt with its golden (or regenerate it):
# queued, and compared all at once by check_done (one diff for every
# golden rather than a cmp each).
checks=
check() {
	checks="$checks $1.$2"
}

check_done() {
	differ=$(diff -rq "$golden" "$tmp/got" 2>/dev/null |
		sed -n 's|^Files .* and .*/\([^/]*\) differ$|\1|p' | tr '\n' ' ')
	for c_slug in $checks; do
		c_name=$c_slug.txt
		known "${c_slug%%.*}" "${c_slug#*.}"
		c_todo=$why
		if [ -n "$REGENERATE" ] && [ -z "$c_todo" ]; then
			mkdir -p "$golden"
			cp "$tmp/got/$c_name" "$golden/$c_name"
			ok 0 "$c_name (regenerated)"
		elif [ ! -f "$golden/$c_name" ]; then
			tok 1 "$c_name: no golden (run with REGENERATE=1)" "$c_todo"
		else
			case " $differ " in
			*" $c_name "*)
				tok 1 "$c_name differs from its golden" "$c_todo"
				diff -u "$golden/$c_name" "$tmp/got/$c_name" | diag
				;;
			*) tok 0 "$c_name" "$c_todo" ;;
			esac
		fi
	done
	checks=
}

# Two outputs that must be the same.
same() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" | diag
	fi
}

# SLUG|command: the batch commands every fixture goes through.
commands="report-tsv|report --format tsv
report|report
info|info
tree|tree
tree-tsv|tree --format tsv --min-pct 0
calls|calls
dump|dump
folded|folded"

# make check: one fixture of each kind through report --format tsv (the
# oracle of the expect: lines) and one of the seven other commands, in
# turn, so that each command meets two or three of them (the generated
# pair through report --format tsv, info, calls and folded, compared
# below); check-long: every fixture through every command.
turn=0
for spec in "$fixtures"/*.spec; do
	name=${spec##*/}
	name=${name%.spec}
	case $name in
	render-*) continue ;;
	generated-* | split | stream-sec | broken-bad-magic) ;;
	*) is_fast_fixture "$name" || continue ;;
	esac
	turn=$((turn + 1))
	# Split specs write NAME.trace.key and NAME.trace.data: tracetui takes
	# the base name.  Side-file specs also write NAME.trace.sec.
	if [ -e "$tmp/$name.trace-failed" ]; then
		ok 1 "$name: mktrace failed"
		diag <"$tmp/$name.trace-failed"
		continue
	fi
	known "$name"
	todo=$why
	# Whether the spec has "# expect:" lines (read by the shell: no
	# process per spec).
	has_expect=
	while IFS= read -r s_line; do
		case $s_line in "# expect: "*) has_expect=yes; break ;; esac
	done <"$spec"
	refused=
	case $name in broken-*) [ -n "$has_expect" ] || refused=yes ;; esac

	set -f # no globbing of the commands' words
	old_ifs=$IFS
	IFS='
'
	c_i=0
	for line in $commands; do
		IFS=$old_ifs
		c_i=$((c_i + 1))
		case $long.$name.$c_i in
		yes.* | *.generated-v1.[1368] | *.generated-stream.[1368]) ;;
		*) [ $c_i -eq 1 ] || [ $(((turn + c_i) % 7)) -eq 0 ] || continue ;;
		esac
		# Word splitting of the command is wanted: no word has blanks.
		# shellcheck disable=SC2086
		capture "$name" "${line%%|*}" ${line#*|} "$T/$name.trace"
		rc=$c_rc
		# generated-stream is compared with generated-v1 below.
		case $name in generated-stream) ;; *) check "$name" "${line%%|*}" ;; esac

		if [ -n "$refused" ]; then
			# A broken trace: refused with one line naming file and offset.
			known "$name" "${line%%|*}"
			# One line "tracetui: FILE: offset N: ...", read by the
			# shell itself (this runs for every command).
			e_lines=0
			e_first=
			while IFS= read -r e_line; do
				e_lines=$((e_lines + 1))
				[ $e_lines -eq 1 ] && e_first=$e_line
			done <"$tmp/e"
			e_rest=${e_first#"tracetui: $T/$name.trace: offset "}
			e_num=${e_rest%%:*}
			e_ok=1
			if [ "$e_rest" != "$e_first" ]; then
				case $e_num in
				'' | *[!0-9]*) ;;
				*) case $e_rest in "$e_num: "*) e_ok=0 ;; esac ;;
				esac
			fi
			tok "$([ $rc -eq 3 ] && [ -n "$c_empty" ] &&
				[ $e_lines -eq 1 ] && [ $e_ok -eq 0 ] &&
				echo 0 || echo 1)" \
				"$name: ${line#*|} exits 3 with one line naming file and offset" \
				"$why"
		fi
	done
	IFS=$old_ifs
	set +f

	# The hand-worked rows, against the rows of report --format tsv
	# captured above: every spec's in one awk after the loop.
	if [ -n "$has_expect" ]; then
		printf '%s\t%s\t%s\n' "$name" "$spec" \
			"$tmp/got/$name.report-tsv.txt" >>"$tmp/expects"
	else
		case $name in
		generated-* | broken-*) ;;
		*) ok 1 "$name: the spec has no expect: lines" ;;
		esac
	fi
done

# Each spec's "# expect:" rows against its report --format tsv rows (up
# to the "=== exit" line), as 7 cells: one line "NAME STATUS" a spec,
# the rows that differ in $tmp/rows-diff as "NAME\t< ROW" or "> ROW".
[ -f "$tmp/expects" ] && awk -F'\t' -v OFS='\t' -v out="$tmp/rows-diff" '
	{
		name = $1; spec = $2; got = $3
		split("", e); split("", g)
		while ((getline <spec) > 0)
			if (sub(/^# expect: /, "")) { $7 = $7; e[$0]++ }
		close(spec)
		first = 1
		while ((getline <got) > 0) {
			if (first) { first = 0; continue }
			if (/^=== exit /) break
			$7 = $7; g[$0]++
		}
		close(got)
		bad = 0
		for (k in e) if (e[k] != g[k]) { print name, "< " k >out; bad = 1 }
		for (k in g) if (e[k] != g[k]) { print name, "> " k >out; bad = 1 }
		print name " " bad
	}' "$tmp/expects" >"$tmp/expect-status"
while read -r name bad; do
	known "$name"
	tok "$bad" "$name: report --format tsv rows equal the spec's expect: lines" "$why"
	[ "$bad" -eq 0 ] ||
		sed -n "s/^$name	//p" "$tmp/rows-diff" | diag
done <"$tmp/expect-status"

# generated-stream.spec writes the records of generated-v1.spec as 0xF3
# streaming: every report must be the same.  Only what names the file or
# the layout differs.  (make check: report --format tsv, info, calls and
# folded; check-long: every command.)
slugs="report-tsv calls folded"
if [ -n "$long" ]; then
	check generated-stream report
	slugs="report-tsv tree tree-tsv calls dump folded"
fi
check generated-stream info
for slug in $slugs; do
	same "$tmp/got/generated-v1.$slug.txt" "$tmp/got/generated-stream.$slug.txt" \
		"generated-stream: $slug equals generated-v1's"
done

# The two-file form by either of its paths.
for ext in key data; do
	capture split "report-tsv-$ext" report --format tsv "$T/split.trace.$ext"
	same "$tmp/got/split.report-tsv.txt" "$tmp/got/split.report-tsv-$ext.txt" \
		"split: the .$ext path reads as the base name"
done

# stream-sec without its .sec side file: a warning, the same numbers.
cp "$tmp/stream-sec.trace" "$tmp/nosec.trace"
"$TRACETUI" report --format tsv "$tmp/nosec.trace" 2>"$tmp/e" | tail -n +2 |
	rows >"$tmp/tsv"
sed -n 's/^# expect: //p' "$fixtures/stream-sec.spec" | rows >"$tmp/expect"
same "$tmp/expect" "$tmp/tsv" "stream-sec: without OUT.sec, the same rows"
ok "$(grep -q "^tracetui: $tmp/nosec.trace: offset [0-9]*: warning: " "$tmp/e" &&
	echo 0 || echo 1)" "stream-sec: without OUT.sec, a warning"

# The options, on v3-dual (two threads, both clocks).
f=$T/v3-dual.trace
capture v3-dual report-csv report --format csv "$f"
check v3-dual report-csv
capture v3-dual report-json report --format json "$f"
check v3-dual report-json
if [ -n "$python" ]; then
	"$TRACETUI" report --format json "$f" 2>/dev/null |
		"$python" -m json.tool >/dev/null 2>&1
	ok $? "v3-dual: report --format json parses"
else
	ok 0 "v3-dual: report --format json parses # SKIP no python3"
fi
cols="incl name excl_wall"
[ -z "$long" ] ||
	cols="incl excl calls percall name incl_cpu excl_cpu incl_wall excl_wall"
for col in $cols; do
	capture v3-dual "report-sort-$col" report --sort "$col" "$f"
	check v3-dual "report-sort-$col"
done
capture v3-dual report-top-2 report --top 2 "$f"
check v3-dual report-top-2
capture v3-dual report-thread-name report --thread "AsyncTask #1" "$f"
check v3-dual report-thread-name
capture v3-dual report-thread-id report --thread 1 "$f"
check v3-dual report-thread-id
capture v3-dual report-clock-wall report --clock wall "$f"
check v3-dual report-clock-wall
capture v3-dual calls-regex calls "$f" 'HashMap\.get'
check v3-dual calls-regex
capture v3-dual calls-sort-wall-top-1 calls --sort wall --top 1 "$f"
check v3-dual calls-sort-wall-top-1
capture v3-dual folded-no-thread folded --no-thread "$f"
check v3-dual folded-no-thread
capture v3-dual tree-min-pct-50 tree --min-pct 50 "$f"
check v3-dual tree-min-pct-50
check_done

# fixture_traces itself (tests/lib.sh), on two specs of its own, one that
# mktrace refuses: each written here while make's are not all there,
# linked once they are.
d=$tmp/ft
mkdir "$d" "$d/specs" "$d/a" "$d/b" "$d/c"
printf 'format split\nthread 1 main\nmethod 0x4 a.B c ()V\n%s\n' \
	'call 1 0x4 0 0 30 40' >"$d/specs/good.spec"
printf 'format v1\nbogus\n' >"$d/specs/bad.spec"
ft_specs=$f_specs ft_built=$f_built
f_specs=$d/specs f_built=$d/none
fixture_traces "$d/a"
ft_msg=
[ -f "$d/a/bad.trace-failed" ] && read -r ft_msg <"$d/a/bad.trace-failed"
ok "$([ -f "$d/a/good.trace.key" ] && [ ! -L "$d/a/good.trace.key" ] &&
	[ -f "$d/a/good.trace.data" ] && [ ! -e "$d/a/good.trace-failed" ] &&
	[ "$ft_msg" = "mktrace: $d/specs/bad.spec:2: unknown directive 'bogus'" ] &&
	[ ! -e "$d/a/bad.trace" ] && echo 0 || echo 1)" \
	"fixture_traces: without make's, mktrace's traces, and a refusal's message"
# $d/a as make's directory, with its stamps: one missing, then none.
: >"$d/a/good.made"
f_built=$d/a
fixture_traces "$d/c"
ok "$([ -f "$d/c/good.trace.key" ] && [ ! -L "$d/c/good.trace.key" ] &&
	[ -f "$d/c/bad.trace-failed" ] && [ ! -L "$d/c/bad.trace-failed" ] &&
	echo 0 || echo 1)" \
	"fixture_traces: one of make's missing, all written again"
: >"$d/a/bad.made"
fixture_traces "$d/b"
ok "$([ -L "$d/b/good.trace.key" ] && [ -L "$d/b/good.trace.data" ] &&
	[ -L "$d/b/bad.trace-failed" ] && [ ! -e "$d/b/good.made" ] &&
	[ ! -e "$d/b/bad.trace" ] && echo 0 || echo 1)" \
	"fixture_traces: make's all there, linked"
f_specs=$ft_specs f_built=$ft_built

done_testing
