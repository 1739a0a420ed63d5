#!/bin/sh
# escape.sh: the one output door.  Every name field, option value and
# thread name of every reader (V1 key, streaming packets, V2 packets)
# carries every C0 control byte a field can hold, DEL, raw bytes
# 0x80-0x9f, the C1 controls as UTF-8, bidi controls and zero-width
# characters; every command's output in every format, its stderr, and
# the headless viewer's every view must show none of them raw.  make
# check: each command on one of the three readers, the viewer's views
# on one and its w on another, half the commands and formats on one of
# the three files of every_output; check-long: all of them on all.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
RENDER=${top_builddir:-.}/tests/render
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"

# The hostile text as mktrace \xHH escapes: C0 but NUL, LF and CR (which
# end a key line before any reader sees them), DEL, raw C1 bytes, C1 as
# UTF-8, then LRE RLE PDF LRO RLO, LRI RLI FSI PDI, ZWSP ZWNJ ZWJ LRM RLM,
# word joiner, BOM, soft hyphen, line separator.
hostile=""
for b in 01 02 03 04 05 06 07 08 0b 0c 0e 0f 10 11 12 13 14 15 16 17 \
	18 19 1a 1b 1c 1d 1e 1f 7f 80 85 9b 9f; do
	hostile="$hostile\\x$b"
done
for b in 80 81 85 8d 90 9b 9c 9d 9e 9f; do
	hostile="$hostile\\xc2\\x$b"
done
for c in 80aa 80ab 80ac 80ad 80ae 81a6 81a7 81a8 81a9 808b 808c 808d \
	808e 808f 81a0; do
	hostile="$hostile\\xe2\\x${c%??}\\x${c#??}"
done
hostile="$hostile\\xef\\xbb\\xbf\\xc2\\xad\\xe2\\x80\\xa8"
# Terminal escapes as a writer of a hostile file would use them.
osc="\\x1b]52;c;aGk=\\x07\\x1b]0;title\\x07\\x1b[2J\\x9b31m"
# A tab ends a method field, so method fields get the text without it.
field="$hostile$osc"
thread="\\x09$hostile$osc"

# raw TEXT: TEXT with its \xHH escapes turned into the bytes.
raw() {
	printf '%s' "$1" | LC_ALL=C awk '
	function hex(h,   i, v) {
		v = 0
		for (i = 1; i <= 2; i++)
			v = v * 16 + index("0123456789abcdef",
				tolower(substr(h, i, 1))) - 1
		return v
	}
	{
		s = $0
		out = ""
		while (match(s, /\\x[0-9a-fA-F][0-9a-fA-F]/)) {
			out = out substr(s, 1, RSTART - 1) \
				sprintf("%c", hex(substr(s, RSTART + 2, 2)))
			s = substr(s, RSTART + 4)
		}
		printf "%s", out s
	}'
}

# check FILE DESCRIPTION: one test, passed when FILE holds no byte or
# character that should have been escaped (tab and newline are layout).
# FILE must stay as it is until check_done, which reads every FILE
# queued in one od and one awk (decoding UTF-8 in awk, so that it needs
# nothing but POSIX tools) and reports them in order.
check() {
	printf '%s\t%s\n' "$1" "$2" >>"$tmp/checks"
}

check_done() {
	[ -s "$tmp/checks" ] || return 0
	set --
	while IFS='	' read -r c_file c_what; do
		set -- "$@" "$c_file"
	done <"$tmp/checks"
	wc -c "$@" >"$tmp/sizes"
	od -An -v -tu1 "$@" | awk -v sizes="$tmp/sizes" -v list="$tmp/checks" '
	function bad(what) { if (why == "") why = what }
	function done_file() {
		if (need > 0) bad("invalid sequence at " start)
		printf "%d\t%s\t%s\n", why != "", what[fi], why
		fi++; left = size[fi]; at = 0; need = 0; why = ""
	}
	function next_file() { while (fi < nf && left == 0) done_file() }
	BEGIN {
		FS = "\t"
		while ((getline line <list) > 0) {
			split(line, part, "\t"); what[nf++] = part[2]
		}
		for (i = 0; i < nf && (getline line <sizes) > 0; i++) {
			split(line, part, " "); size[i] = part[1] + 0
		}
		FS = " "; fi = 0; left = size[0]; at = 0
		next_file()
	}
	{
		for (k = 1; k <= NF; k++) {
			c = $k + 0
			if (need > 0) {
				if (c < 128 || c > 191) { bad("invalid sequence at " start); need = 0 }
				else {
					cp = cp * 64 + c - 128
					if (--need == 0) {
						if (cp >= 128 && cp < 160) bad("C1 control " cp)
						if ((cp >= 8203 && cp <= 8207) || (cp >= 8234 && cp <= 8238) ||
						    (cp >= 8288 && cp <= 8303) || cp == 65279 || cp == 173 ||
						    cp == 8232 || cp == 8233 || cp == 1564)
							bad("invisible character " cp)
					}
				}
			} else if (c == 9 || c == 10) ;
			else if (c < 32 || c == 127) bad("control byte " c " at " at)
			else if (c < 128) ;
			else if (c >= 194 && c <= 223) { need = 1; cp = c - 192; start = at }
			else if (c >= 224 && c <= 239) { need = 2; cp = c - 224; start = at }
			else if (c >= 240 && c <= 244) { need = 3; cp = c - 240; start = at }
			else bad("invalid byte " c " at " at)
			at++
			if (--left == 0) { done_file(); next_file() }
		}
	}
	END { while (fi < nf) done_file() }' >"$tmp/checked"
	while IFS='	' read -r c_rc c_what c_why; do
		ok "$c_rc" "$c_what"
		[ "$c_rc" -eq 0 ] || echo "$c_why" | diag
	done <"$tmp/checked"
	: >"$tmp/checks"
}

# make check-long: every command on every format; make check: each
# command on one of them, in turn.
fi=0
for format in v1 stream v2; do
	fi=$((fi + 1))
	{
		echo "format $format"
		echo "clock dual"
		echo "vm art"
		# Option lines are written as they stand: raw bytes.
		echo "property clock=$(raw "$osc")"
		echo "property $(raw "$osc")=$(raw "$field")"
		echo "thread 1 \"$thread\""
		echo "thread 2 main"
		echo "method 0x4 \"a$field.B\" \"c$field\" \"()V$field\" \"B$field.java\""
		echo "method 0x8 a.B d ()V B.java"
		echo "call 1 0x4 0 0 100 100 {"
		echo " call 1 0x8 10 10 50 50"
		echo "}"
		echo "call 2 0x8 0 0 30 30"
	} >"$tmp/$format.spec"
	if ! "$MKTRACE" "$tmp/$format.spec" "$tmp/$format.trace" 2>"$tmp/err"; then
		ok 1 "$format: mktrace writes the hostile trace"
		diag <"$tmp/err"
		continue
	fi
	f=$tmp/$format.trace
	# The file must hold what it claims to, or the test proves nothing.
	LC_ALL=C grep -q "$(printf 'title\007')" "$f"
	ok $? "$format: the trace holds raw escapes"
	for cmd in "report" "report -f tsv" "report -f csv" "report -f json" \
		"tree" "tree -f json" "calls" "calls -f csv" "calls -f json" \
		"frames --frame-method ." "frames -f csv --frame-method ." \
		"frames -f json --frame-method ." \
		"info" "dump" "folded" "export -f speedscope" \
		"export -f chrome" "diff $f"; do
		ci=$((${ci:-0} + 1))
		[ -n "$long" ] || [ $((ci % 3 + 1)) -eq $fi ] || continue
		# shellcheck disable=SC2086
		o=$tmp/$format-$ci
		"$TRACETUI" $cmd "$f" >"$o.out" 2>"$o.err"
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 1 ]
		ok $? "$format: $cmd runs (exit $rc)"
		check "$o.out" "$format: $cmd: output escaped"
		check "$o.err" "$format: $cmd: stderr escaped"
	done
	# The clock option is quoted in a warning: escaped there too.
	"$TRACETUI" report "$f" 2>&1 >/dev/null | grep -q 'x1B]52;c;aGk=\\x07'
	ok $? "$format: the clock warning shows the escape as \\x1B text"
	if [ -x "$RENDER" ] && { [ -n "$long" ] || [ $fi -eq 1 ]; }; then
		"$RENDER" "$f" 100x30 VIEW_PROFILE ENTER size:100x30 \
			VIEW_TIMELINE size:100x30 VIEW_ICICLE size:100x30 \
			INVERT size:100x30 VIEW_THREADS size:100x30 \
			VIEW_INFO >"$tmp/view-$format" 2>&1
		ok $? "$format: the viewer draws every view"
		check "$tmp/view-$format" "$format: the viewer's views escaped"
	fi
	if [ -x "$RENDER" ] && { [ -n "$long" ] || [ $fi -eq 2 ]; }; then
		# w writes each view's rows: names escaped in text and TSV.
		render=$(cd "${RENDER%/*}" && pwd)/render
		mkdir "$tmp/w-$format"
		(cd "$tmp/w-$format" && "$render" "$f" 100x30 ENTER key:w key:Enter \
			key:w key:C-u type:p.tsv key:Enter VIEW_TIMELINE \
			key:w key:Enter VIEW_ICICLE key:w key:C-u type:i.tsv \
			key:Enter VIEW_THREADS key:w key:Enter VIEW_CALLTREE \
			key:e key:w key:C-u type:c.tsv key:Enter VIEW_INFO \
			key:w key:Enter >/dev/null 2>&1)
		ok $? "$format: w writes every view"
		for w in tracetui-profile.txt p.tsv tracetui-timeline.txt \
			i.tsv tracetui-threads.txt c.tsv tracetui-info.txt; do
			if [ -f "$tmp/w-$format/$w" ]; then
				check "$tmp/w-$format/$w" "$format: w's $w escaped"
			else
				ok 1 "$format: w wrote $w"
			fi
		done
	fi
done

# Bidi and zero-width characters are named on terminals, C1 controls
# escaped in JSON.
"$TRACETUI" report "$tmp/v1.trace" >"$tmp/out" 2>/dev/null
grep -q 'u202E' "$tmp/out"
ok $? "the right-to-left override is shown as \\u202E"
grep -q 'u200B' "$tmp/out"
ok $? "the zero-width space is shown as \\u200B"
"$TRACETUI" report -f json "$tmp/v1.trace" >"$tmp/out" 2>/dev/null
grep -q '\\u0085' "$tmp/out" && grep -q '\\u202e' "$tmp/out"
ok $? "JSON escapes C1 controls and bidi overrides as \\u escapes"
if command -v python3 >/dev/null 2>&1; then
	# One python3 for the three: "STATUS" a line, in order.
	set --
	for cmd in "report -f json" "export -f speedscope" "export -f chrome"; do
		# shellcheck disable=SC2086
		"$TRACETUI" $cmd "$tmp/v2.trace" >"$tmp/json.$#" 2>/dev/null
		set -- "$@" "$tmp/json.$#"
	done
	python3 -c '
import json, sys
for name in sys.argv[1:]:
    try:
        json.load(open(name, encoding="utf-8"))
        print(0)
    except Exception:
        print(1)' "$@" >"$tmp/json.ok" 2>&1
	for cmd in "report -f json" "export -f speedscope" "export -f chrome"; do
		read -r r || r=1
		case $r in 0) ;; *) r=1 ;; esac
		ok $r "$cmd: valid JSON"
	done <"$tmp/json.ok"
fi

# Options and file names that reach stderr are escaped as well.
"$TRACETUI" report -c "$(printf 'x\033]0;t\007')" "$tmp/v1.trace" \
	>/dev/null 2>"$tmp/clock.err"
check "$tmp/clock.err" "an unknown --clock value is escaped on stderr"
"$TRACETUI" report "$tmp/$(printf 'no\033[2Jfile')" >/dev/null \
	2>"$tmp/name.err"
check "$tmp/name.err" "a file name with escapes is escaped on stderr"

# every_output FILE WHAT K: every command in every format on FILE (diff
# against itself, one run a side and two), stdout and stderr clean; in
# make check only the commands whose place in the list is K modulo 6,
# so that the three files take half of them, every command and format
# among them (folded and the speedscope and chrome exports are the
# readers' above).
every_output() {
	f=$1
	what=$2
	eo_k=$3
	eo_i=0
	for cmd in "report" "report -f tsv" "report -f csv" "report -f json" \
		"tree" "tree -f tsv" "tree -f csv" "tree -f json" \
		"calls" "calls -f tsv" "calls -f csv" "calls -f json" \
		"info" "dump" "folded" "export -f speedscope" \
		"export -f chrome" "export -f dot" "export -f html" \
		"flamegraph" "diff" "diff -f tsv" "diff -f csv" "diff -f json" \
		"runs" "runs -f tsv" "runs -f csv" "runs -f json"; do
		eo_i=$((eo_i + 1))
		[ -n "$long" ] || [ $((eo_i % 6)) -eq "$eo_k" ] || continue
		case $cmd in
		diff*) set -- $cmd "$f" "$f" ;;
		runs*) set -- diff ${cmd#runs} "$f" "$f" -- "$f" "$f" ;;
		*) set -- $cmd "$f" ;;
		esac
		o=$tmp/$eo_k-$eo_i
		"$TRACETUI" "$@" >"$o.out" 2>"$o.err"
		rc=$?
		[ $rc -lt 128 ]
		ok $? "$what: $cmd ends without a signal (exit $rc)"
		check "$o.out" "$what: $cmd: output escaped"
		check "$o.err" "$what: $cmd: stderr escaped"
	done
}

# A pprof sample type and function names carrying the hostile text
# (the text headers of report and diff print the sample type).
UNIT_PPROF=${top_builddir:-.}/tests/unit-pprof
if [ -x "$UNIT_PPROF" ]; then
	"$UNIT_PPROF" --write-hostile "$tmp/hostile.pb" \
		"cpu$(raw "$field")"
	LC_ALL=C grep -q "$(printf 'title\007')" "$tmp/hostile.pb"
	ok $? "pprof: the profile holds raw escapes"
	every_output "$tmp/hostile.pb" "pprof" 0
fi

# File names are the user's, yet they reach the terminal as well: every
# command's headers and messages quote them escaped.  A file name holds
# any byte but / and NUL.
hostile_name=$tmp/$(raw "n$field")
if cp "$tmp/v1.trace" "$hostile_name" 2>/dev/null; then
	every_output "$hostile_name" "file name" 1
	if [ -x "$UNIT_PPROF" ]; then
		cp "$tmp/hostile.pb" "$hostile_name.pb"
		every_output "$hostile_name.pb" "pprof file name" 2
	fi
	if [ -x "$RENDER" ]; then
		"$RENDER" "$hostile_name" 100x30 VIEW_INFO >"$tmp/view-name" 2>&1
		check "$tmp/view-name" "file name: the viewer's info escaped"
	fi
else
	diag "the file system refuses the hostile name: not tried"
fi

# The --fail-if expression is the user's, and shown with a caret under
# the column of its error: escaped, the caret under the escaped text.
"$TRACETUI" diff --fail-if "$(printf 'excl_wall(\033]0;t\007) >')" \
	"$tmp/v1.trace" "$tmp/v1.trace" >/dev/null 2>"$tmp/fail-if.err"
check "$tmp/fail-if.err" "a malformed --fail-if is escaped on stderr"
awk 'NR == 2 { text = $0 } NR == 3 { caret = index($0, "^") }
	END { exit !(caret == length(text) + 1 || caret == length(text)) }' \
	"$tmp/fail-if.err"
ok $? "the caret stands under the escaped expression's end"

check_done
done_testing
