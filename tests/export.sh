#!/bin/sh
# export.sh: `tracetui export --format speedscope|chrome`.
#
# - Goldens: small exports of v3-dual in tests/golden/export/ (REGENERATE=1
#   rewrites them; check them against the spec's calls by hand).
# - The schemas' essentials, checked with python3 (skipped without it) on
#   every fixture that loads (make check: one format each, in turn) and
#   every real trace in $SHARED_TRACES
#   (skipped when absent): the output parses as JSON; speedscope: frames
#   have names, every event's frame is in range, events are sorted by
#   `at` within [startValue, endValue], every O is closed by a matching C
#   in order; chrome: every X has ts and dur >= 0, events of one tid nest,
#   every tid is named.  Both hold one event per call per clock written.
# - Names with quotes, control characters and invalid UTF-8 come out as
#   valid JSON (U+FFFD for bad bytes).
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
fixtures=$srcdir/tests/fixtures
golden=$srcdir/tests/golden/export
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL
cd "$tmp" || exit 1
fixture_traces "$tmp"


# check.py MANIFEST: each line "FORMAT<tab>FILE<tab>CALLS<tab>NAME" is an
# export to check (valid, with as many calls per profile clock as the
# `calls --format tsv` output in the file CALLS has rows, said after
# NAME); prints "ok<tab>NAME" or "not ok<tab>NAME<tab>why" per line.  A
# line "script<tab>FILE<tab>DIR<tab>NAME" runs the python of FILE with
# DIR as its argument: ok unless it raises.  One interpreter for every
# export and script: starting one costs more than checking a file.
cat >"$tmp/check.py" <<'EOF'
import json, sys

class Invalid(Exception):
    pass

def fail(msg):
    raise Invalid(msg)

def speedscope(doc):
    if doc.get("$schema") != \
            "https://www.speedscope.app/file-format-schema.json":
        fail("no $schema")
    frames = doc["shared"]["frames"]
    for f in frames:
        if not isinstance(f.get("name"), str):
            fail("a frame without a name")
        if "file" in f and not isinstance(f["file"], str):
            fail("a frame's file is not a string")
        if "line" in f and not isinstance(f["line"], int):
            fail("a frame's line is not a number")
    opened = {}
    for p in doc["profiles"]:
        name = p["name"]
        if p["type"] != "evented" or p["unit"] != "microseconds":
            fail("profile %r: not evented in microseconds" % name)
        start, end = p["startValue"], p["endValue"]
        if not start <= end:
            fail("profile %r: startValue > endValue" % name)
        stack, last = [], start
        for e in p["events"]:
            if not isinstance(e["frame"], int) or \
                    not 0 <= e["frame"] < len(frames):
                fail("profile %r: frame %r out of range" % (name, e["frame"]))
            if not last <= e["at"] <= end:
                fail("profile %r: event at %r out of order" % (name, e["at"]))
            last = e["at"]
            if e["type"] == "O":
                stack.append(e["frame"])
                clock = name.endswith(" (cpu)")
                opened[clock] = opened.get(clock, 0) + 1
            elif e["type"] == "C":
                if not stack or stack.pop() != e["frame"]:
                    fail("profile %r: a C at %r does not close the top frame"
                         % (name, e["at"]))
            else:
                fail("profile %r: event type %r" % (name, e["type"]))
        if stack:
            fail("profile %r: %d frames left open" % (name, len(stack)))
    return list(opened.values())

def chrome(doc):
    named, by_tid, n = {}, {}, 0
    for i, e in enumerate(doc["traceEvents"]):
        if e["pid"] != 1:
            fail("event %d: pid is not 1" % i)
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                named[e["tid"]] = e["args"]["name"]
            continue
        if e["ph"] != "X" or not isinstance(e["name"], str):
            fail("event %d: not a named X event" % i)
        for key in ("ts", "dur"):
            if not isinstance(e.get(key), int) or e[key] < 0:
                fail("event %d: no %s >= 0" % (i, key))
        if "args" in e and not e["args"]["cpu_dur"] >= 0:
            fail("event %d: cpu_dur < 0" % i)
        by_tid.setdefault(e["tid"], []).append((e["ts"], -e["dur"], i))
        n += 1
    for tid, events in by_tid.items():
        if tid not in named:
            fail("tid %r has no thread_name" % tid)
        events.sort()
        ends = []  # ends of the enclosing events
        for ts, negdur, i in events:
            end = ts - negdur
            while ends and ts >= ends[-1] and not (ts == end == ends[-1]):
                ends.pop()
            if ends and end > ends[-1]:
                fail("tid %r: event %d ends after its parent" % (tid, i))
            ends.append(end)
    return [n]

def check(kind, path, calls):
    if kind == "script":
        sys.argv = [path, calls]
        with open(path, encoding="utf-8") as f:
            exec(compile(f.read(), path, "exec"), {"__name__": "__main__"})
        return
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8"))
    counts = (speedscope if kind == "speedscope" else chrome)(doc)
    if any(c != int(calls) for c in counts):
        fail("%r calls, expected %s" % (counts, calls))

for line in list(open(sys.argv[1], encoding="utf-8")):
    kind, path, calls, name = line.rstrip("\n").split("\t")
    if kind != "script":
        with open(calls, "rb") as f:
            calls = max(sum(1 for _ in f) - 1, 0)
        name = "%s, %d calls" % (name, calls)
    try:
        check(kind, path, calls)
        print("ok\t%s" % name)
    except Exception as e:
        print("not ok\t%s\t%s" % (name, str(e).replace("\n", " ")))
EOF

# valid FORMAT TRACE NAME [THREAD [OPTIONS]]: export with --thread THREAD
# (when not empty) and OPTIONS, and check it.  With $refusable set, a
# trace the program refuses (exit 3) is passed over, no test.
refusable=
valid() {
	v_format=$1
	v_trace=$2
	v_name=$3
	v_thread=${4:+--thread=$4}
	shift 3
	[ $# -gt 0 ] && shift
	v_n=$((v_n + 1))
	"$TRACETUI" export --format "$v_format" $v_thread "$@" "$v_trace" \
		>"$tmp/out.$v_n.json" 2>"$tmp/e"
	v_rc=$?
	[ $v_rc -eq 3 ] && [ -n "$refusable" ] && return
	if [ $v_rc -ne 0 ]; then
		ok 1 "$v_name: export --format $v_format exits 0"
		diag <"$tmp/e"
		return
	fi
	if [ -z "$python" ]; then
		ok 0 "$v_name: $v_format export is valid # SKIP no python3"
		return
	fi
	# The calls, once per trace and thread for both formats: counted
	# by check.py.
	if [ "$v_thread $v_trace" != "$v_counted" ]; then
		v_calls=$tmp/calls.$v_n.tsv
		"$TRACETUI" calls --format tsv $v_thread "$v_trace" \
			>"$v_calls" 2>/dev/null
		v_counted="$v_thread $v_trace"
	fi
	printf '%s\t%s\t%s\t%s\n' "$v_format" "$tmp/out.$v_n.json" \
		"$v_calls" "$v_name: $v_format export is valid" \
		>>"$tmp/manifest"
}
v_n=0
v_counted=
: >"$tmp/manifest"

# The verdicts of check.py on every export valid() collected.
checked() {
	[ -s "$tmp/manifest" ] || return
	"$python" "$tmp/check.py" "$tmp/manifest" >"$tmp/verdicts" 2>&1 ||
		echo "not ok	check.py	$(cat "$tmp/verdicts")" >>"$tmp/verdicts"
	while IFS='	' read -r c_verdict c_name c_why; do
		if [ "$c_verdict" = ok ]; then
			ok 0 "$c_name"
		else
			ok 1 "$c_name"
			echo "$c_why" | diag
		fi
	done <"$tmp/verdicts"
	: >"$tmp/manifest"
}

# Every fixture that loads: in both formats under check-long, in make
# check one of each kind (is_fast_fixture) in one, speedscope and chrome
# in turn from fixture to fixture.
turn=
for spec in "$fixtures"/*.spec; do
	name=${spec##*/}
	name=${name%.spec}
	case $name in broken-* | generated-*) continue ;; esac
	is_fast_fixture "$name" || continue
	[ -e "$name.trace-failed" ] && {
		ok 1 "$name: mktrace failed"
		continue
	}
	formats="speedscope chrome"
	if [ -z "$long" ]; then
		formats=${turn:-speedscope}
		case $formats in speedscope) turn=chrome ;; *) turn=speedscope ;; esac
	fi
	for format in $formats; do
		valid $format "$name.trace" "$name"
	done
done
valid speedscope v3-dual.trace "v3-dual --clock cpu" "" --clock cpu
valid chrome v3-dual.trace "v3-dual --thread main" main
valid speedscope v3-dual.trace "v3-dual --thread 2" 2
valid chrome v3-dual.trace "v3-dual --clock cpu" "" --clock cpu

# What the formats say about threads and clocks.
if [ -n "$python" ]; then
	"$TRACETUI" export -f speedscope v3-dual.trace >"$tmp/s.json"
	"$TRACETUI" export -f speedscope --clock wall v3-dual.trace \
		>"$tmp/sw.json"
	"$TRACETUI" export -f speedscope v1-cpu.trace >"$tmp/s1.json"
	"$TRACETUI" export -f chrome v1-cpu.trace >"$tmp/c1.json"
	"$TRACETUI" export -f speedscope open-frames.trace >"$tmp/so.json"
	printf 'script\t%s\t%s\t%s\n' "$tmp/threads.py" "$tmp" \
		"profile names per thread and clock; cpu-only chrome; open frames" \
		>>"$tmp/manifest"
	cat >"$tmp/threads.py" <<'EOF'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(d + "/" + n))
names = [p["name"] for p in load("s.json")["profiles"]]
assert names == ["main (wall)", "main (cpu)", "AsyncTask #1 (wall)",
                 "AsyncTask #1 (cpu)"], names
names = [p["name"] for p in load("sw.json")["profiles"]]
assert names == ["main", "AsyncTask #1"], names
s1 = load("s1.json")["profiles"]
assert all(not p["name"].endswith(")") for p in s1), s1
c1 = [e for e in load("c1.json")["traceEvents"] if e["ph"] == "X"]
assert c1 and all("tts" not in e and e["args"]["cpu_dur"] == e["dur"]
                  for e in c1), c1
# open-frames: main's three open frames close at main's last wall time.
p = load("so.json")["profiles"][0]
assert p["name"] == "main (wall)" and p["endValue"] == 120, p
assert [e["type"] for e in p["events"][-3:]] == ["C", "C", "C"], p
assert all(e["at"] == 120 for e in p["events"][-3:]), p
EOF
else
	ok 0 "profile names per thread and clock # SKIP no python3"
fi

# Names that need escaping: a quote, a backslash, control characters,
# invalid UTF-8, and valid non-ASCII.
"$MKTRACE" - names.trace <<'EOF'
clock dual
thread 1 "tab\there \x01 \xff end"
method 0x4 "com.ex\"ample" "na\\me\x1f" "(\xc3\xa9\xfe)V" "F\xc0.java"
call 1 0x4 0 0 10 20
EOF
for format in speedscope chrome; do
	valid $format names.trace "escaping"
done
if [ -n "$python" ]; then
	"$TRACETUI" export -f speedscope names.trace >"$tmp/n.json"
	"$TRACETUI" export -f chrome names.trace >"$tmp/c.json"
	printf 'script\t%s\t%s\t%s\n' "$tmp/names.py" "$tmp" \
		"escaping: quotes, control bytes, U+FFFD for invalid UTF-8" \
		>>"$tmp/manifest"
	cat >"$tmp/names.py" <<'EOF'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/n.json", encoding="utf-8"))
f = s["shared"]["frames"][0]
assert f["name"] == 'com.ex"ample.na\\me\x1f (\u00e9\ufffd)V', f
assert f["file"] == "F\ufffd.java", f
assert s["profiles"][0]["name"] == "tab\there \x01 \ufffd end (wall)", s
c = json.load(open(d + "/c.json", encoding="utf-8"))["traceEvents"]
assert c[1]["args"]["name"] == "tab\there \x01 \ufffd end", c
assert c[2]["name"] == f["name"], c
EOF
else
	ok 0 "escaping # SKIP no python3"
fi

# Goldens.
golden_check() {
	# golden_check NAME ARGS...
	g_name=$1
	shift
	"$TRACETUI" export "$@" >"$tmp/$g_name" 2>&1
	echo "=== exit $?" >>"$tmp/$g_name"
	if [ -n "$REGENERATE" ]; then
		mkdir -p "$golden"
		cp "$tmp/$g_name" "$golden/$g_name"
		ok 0 "golden $g_name (regenerated)"
	elif cmp -s "$golden/$g_name" "$tmp/$g_name"; then
		ok 0 "golden $g_name"
	else
		ok 1 "golden $g_name"
		diff -u "$golden/$g_name" "$tmp/$g_name" | diag
	fi
}
golden_check v3-dual.speedscope.json --format speedscope v3-dual.trace
golden_check v3-dual.chrome.json --format chrome v3-dual.trace
golden_check recursion-direct.speedscope.json --format speedscope \
	--clock cpu recursion-direct.trace

# Usage.
nl='
'
run "$TRACETUI" export v3-dual.trace
case $rc$out$nl$err in "2$nl"*--format*) r=0 ;; *) r=1 ;; esac
ok $r "export without --format: exit 2"
# Options that need no trace are checked before one is read: a missing
# file is not what the message is about.
run "$TRACETUI" export missing.trace
case $rc$nl$err in "2$nl"*--format*) r=0 ;; *) r=1 ;; esac
ok $r "export without --format: refused before the load"
run "$TRACETUI" export --format chrome --range 1..2 missing.trace
case $rc$nl$err in "2$nl"*"apply to dot and html only"*) r=0 ;; *) r=1 ;; esac
ok $r "export --format chrome --range: refused before the load"
run "$TRACETUI" export --format csv v3-dual.trace
case $rc$nl$err in "2$nl"*"unknown format 'csv'"*) r=0 ;; *) r=1 ;; esac
ok $r "export --format csv: exit 2"
run "$TRACETUI" export --format chrome --clock cpu v3-wall.trace
[ $rc -eq 2 ] && [ -z "$out" ]
ok $? "export --clock the trace lacks: exit 2"
run "$TRACETUI" export --format chrome missing.trace
[ $rc -eq 3 ] && [ -z "$out" ]
ok $? "export of a missing file: exit 3"
run "$TRACETUI" export --help
case $rc$nl$out in "0$nl"*"speedscope, chrome"*) r=0 ;; *) r=1 ;; esac
ok $r "export --help lists the formats"

# The real traces.
if [ -d "$SHARED_TRACES" ]; then
	# (Those the program refuses are passed over: valid's export
	# says so by its status 3.)
	refusable=yes
	for f in "$SHARED_TRACES"/*.trace; do
		is_fast_trace "$f" || continue
		# make check: one format a trace, in turn; check-long: both.
		formats="speedscope chrome"
		if [ -z "$long" ]; then
			formats=${turn:-speedscope}
			case $formats in speedscope) turn=chrome ;; *) turn=speedscope ;; esac
		fi
		for format in $formats; do
			valid $format "$f" "${f##*/}"
		done
	done
else
	ok 0 "real traces # SKIP no $SHARED_TRACES"
fi

checked

done_testing
