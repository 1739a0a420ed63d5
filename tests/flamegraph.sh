#!/bin/sh
# flamegraph.sh: `tracetui flamegraph`, plain, inverted and differential.
#
# Every SVG is parsed with python3's XML parser (the checks skip without
# python3) and its frames are checked against `report` for the same
# scope and clock, an aggregation the flame graph does not share:
# - the root is as wide as report's total, and every frame is as wide as
#   its children together with its own time (frames left out included:
#   --min-width 0 keeps them all);
# - per method, the own time of its frames adds up to report's excl, and
#   the width of its frames with no frame of the same method above them
#   to report's incl;
# - pixel widths follow the times; children lie side by side inside
#   their parent.
# Names holding markup come out as text; --base frames carry BASE's
# numbers of the same path, coloured red when they grew and blue when
# they shrank.
#
# make check: six fixtures whose calls differ in shape, v3-dual under
# each option, a generated fixture for --min-width, two real traces
# (Launcher__app, perflib__exception); check-long: every fixture, the
# demo trace, every real trace.  The python3 checks run in one
# interpreter (batch_py).
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
fixtures=$srcdir/tests/fixtures
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
LC_ALL=C
export LC_ALL
cd "$tmp" || exit 1
fixture_traces "$tmp"

# check.py SVG REPORT_TSV REPORT_TEXT: the frames against the report.
cat >"$tmp/check.py" <<'PY'
import sys, xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg, tsv, text = sys.argv[1:4]
pruned = len(sys.argv) > 4 and sys.argv[4] == "pruned"

def fail(msg):
    print(msg)
    sys.exit(1)

root = ET.parse(svg).getroot()
plot = float(root.get("data-plot"))
pad = float(root.get("data-pad"))
frames = []
for g in root.iter(NS + "g"):
    if g.get("class") != "f":
        continue
    rect = g.find(NS + "rect")
    title = g.find(NS + "title").text
    frames.append(dict(
        name=title.split("\n")[0], x=int(g.get("data-x")),
        incl=int(g.get("data-i")), excl=int(g.get("data-e")),
        depth=int(g.get("data-d")), px=float(rect.get("x")),
        pw=float(rect.get("width")), kids=[], parent=None))
if not frames:
    fail("no frames")
# The report's total: "FILE: CLOCK clock, total 12.345 ms over ...".
head = open(text).readline()
total = int(round(float(head.split("total ")[1].split(" ms")[0]) * 1000))
top = frames[0]
if top["depth"] != 0 or top["incl"] != total:
    fail("root %r is %d wide, the report's total is %d"
         % (top["name"], top["incl"], total))
if int(root.get("data-total")) != total:
    fail("data-total %s, report total %d" % (root.get("data-total"), total))
# Parents: the frames come in pre-order.
path = []
for f in frames:
    while path and path[-1]["depth"] >= f["depth"]:
        path.pop()
    if f["depth"] and (not path or path[-1]["depth"] != f["depth"] - 1):
        fail("frame %r has no parent" % f["name"])
    if path:
        f["parent"] = path[-1]
        path[-1]["kids"].append(f)
    path.append(f)
for f in frames:
    kids = sum(k["incl"] for k in f["kids"])
    if kids > f["incl"]:
        fail("children of %r are %d wide, more than its %d"
             % (f["name"], kids, f["incl"]))
    if not pruned and f["depth"] and kids + f["excl"] != f["incl"]:
        fail("%r: children %d + own %d != %d"
             % (f["name"], kids, f["excl"], f["incl"]))
    at = f["x"]
    for k in f["kids"]:
        if k["x"] < at or k["x"] + k["incl"] > f["x"] + f["incl"]:
            fail("%r lies outside its parent %r" % (k["name"], f["name"]))
        at = k["x"] + k["incl"]
    want = f["incl"] * plot / total if total else plot
    if abs(f["pw"] - want) > 0.011:
        fail("%r is %.2f px wide, not %.2f" % (f["name"], f["pw"], want))
    want = pad + (f["x"] * plot / total if total else 0)
    if abs(f["px"] - want) > 0.011:
        fail("%r is at %.2f px, not %.2f" % (f["name"], f["px"], want))
if pruned:
    sys.exit(0)
# Per method against the report.
excl, incl = {}, {}
for f in frames:
    if f["depth"] == 0 or f["name"].startswith("thread ") or \
            f["name"] == "(outside any method)":
        continue
    excl[f["name"]] = excl.get(f["name"], 0) + f["excl"]
    up = f["parent"]
    while up and up["name"] != f["name"]:
        up = up["parent"]
    if not up:
        incl[f["name"]] = incl.get(f["name"], 0) + f["incl"]
# Methods of one name (a trace may define one twice) add up, as frames
# of one name do.
rows = {}
for line in open(tsv).read().split("\n")[1:]:
    if not line:
        continue
    c = line.split("\t")
    i, e = (c[3], c[4]) if c[3] != "" and "wall" not in sys.argv \
        else (c[5], c[6])
    was = rows.get(c[0], (0, 0))
    rows[c[0]] = (was[0] + int(i), was[1] + int(e))
for m, (i, e) in rows.items():
    if excl.get(m, 0) != e or incl.get(m, 0) != i:
        fail("%s: frames give incl %d excl %d, report %d %d"
             % (m, incl.get(m, 0), excl.get(m, 0), i, e))
for m in excl:
    if m not in rows:
        fail("%s is in the graph, not in the report" % m)
PY

# agree NAME TRACE [OPTIONS...]: flamegraph --min-width 0 against report
# with the same options (checked by batch_py_done); with $a_refused_ok
# set, a trace refused with exit 3 is skipped.
a_n=0
a_refused_ok=
agree() {
	a_name=$1
	a_trace=$2
	shift 2
	a_wall=
	case " $* " in *" wall "*) a_wall=wall ;; esac
	a_n=$((a_n + 1))
	"$TRACETUI" flamegraph --min-width 0 "$@" "$a_trace" \
		>"$tmp/f.$a_n.svg" 2>"$tmp/err"
	a_rc=$?
	# A trace every command refuses (exit 3) has no frames to check.
	[ $a_rc -eq 3 ] && [ -n "$a_refused_ok" ] && return 1
	if [ $a_rc -ne 0 ]; then
		ok 1 "$a_name: flamegraph fails"
		diag <"$tmp/err"
		return 1
	fi
	a_noth=
	for a in "$@"; do
		[ "$a" = --no-thread ] || a_noth="$a_noth $a"
	done
	# shellcheck disable=SC2086
	"$TRACETUI" report -f tsv $a_noth "$a_trace" >"$tmp/r.$a_n.tsv" \
		2>/dev/null
	# shellcheck disable=SC2086
	"$TRACETUI" report $a_noth "$a_trace" >"$tmp/r.$a_n.txt" 2>/dev/null
	# shellcheck disable=SC2086
	batch_py "$a_name: frames agree with report $*" "$tmp/check.py" \
		"$tmp/f.$a_n.svg" "$tmp/r.$a_n.tsv" "$tmp/r.$a_n.txt" $a_wall
}

# Every fixture in make check-long; in make check those whose calls
# differ in shape (a streaming trace, unbalanced exits, unwinding,
# recursion, a clock that goes back); v3-dual comes below on each
# option.
for spec in "$fixtures"/*.spec; do
	name=${spec##*/}
	name=${name%.spec}
	case $name in broken-* | generated-*) continue ;; esac
	[ -n "$long" ] || case $name in
	stream-f2 | orphan-exits | mismatched-exit | unwind | \
		recursion-indirect | time-backwards) ;;
	*) continue ;;
	esac
	[ -e "$name.trace-failed" ] && {
		ok 1 "$name: mktrace failed"
		continue
	}
	a_refused_ok=yes
	agree "$name" "$name.trace"
done
a_refused_ok=
agree "v3-dual wall" v3-dual.trace --clock wall
agree "v3-dual one thread" v3-dual.trace --thread main
agree "v3-dual merged" v3-dual.trace --no-thread
agree "v3-dual range" v3-dual.trace --range 0.005..0.02 --clock wall
agree "diff-new merged wall" diff-new.trace --no-thread --clock wall
agree "recursion merged" recursion-indirect.trace --no-thread
agree "open frames" open-frames.trace --clock wall

# Text from the trace is text: markup in names, control bytes, invalid
# UTF-8.
"$MKTRACE" - names.trace <<'SPEC'
clock dual
thread 1 <b>"T&'</b> \x01
method 0x4 "<script>alert(1)</script>" "a&b\"c'd\x1f\xff" "()V" F.java
call 1 0x4 0 0 10 20
SPEC
"$TRACETUI" flamegraph names.trace >names.svg 2>"$tmp/err"
cat >names.py <<'PY'
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
raw = open(sys.argv[1], encoding="utf-8").read()
assert "<script>alert" not in raw, "a raw <script> element"
root = ET.fromstring(raw)
assert len(list(root.iter(NS + "script"))) == 1, "more than one script"
f = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
names = [g.find(NS + "title").text.split("\n")[0] for g in f]
want = "<script>alert(1)</script>.a&b\"c'd\\x1F\\xFF ()V"
assert names[2] == want, names
assert names[1] == "thread <b>\"T&'</b> \\x01", names
labels = [g.find(NS + "text").text for g in f]
assert labels[2] == "<script>alert(1)</script>.a&b\"c'd\\x1F\\xFF", labels
PY
batch_py "markup, quotes, control bytes and bad UTF-8 in names show as text" \
	names.py names.svg

# --inverted: the root on top; the same frames.
"$TRACETUI" flamegraph v3-dual.trace >plain.svg
"$TRACETUI" flamegraph --inverted v3-dual.trace >icicle.svg
cat >inverted.py <<'PY'
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def frames(p):
    r = ET.parse(p).getroot()
    return [(g.get("data-i"), int(g.get("data-d")),
             float(g.find(NS + "rect").get("y")))
            for g in r.iter(NS + "g") if g.get("class") == "f"]
a, b = frames(sys.argv[1]), frames(sys.argv[2])
assert [x[:2] for x in a] == [x[:2] for x in b], "different frames"
assert all(x[2] < a[0][2] for x in a[1:]), "flame: the root is not lowest"
assert all(x[2] < y[2] for x, y in zip(b, b[1:]) if x[1] < y[1]), \
    "icicle: a child above its parent"
assert "Icicle graph" in open(sys.argv[2]).read()
PY
batch_py "--inverted draws the same frames root first" inverted.py \
	plain.svg icicle.svg

# --min-width: frames narrower are left out, the rest still agree (on
# the demo's 140,000 calls in check-long, a generated fixture of a few
# threads in make check).
if [ -n "$long" ]; then
	demo_trace demo.trace
	trace=demo.trace
else
	trace=render-gen.trace
fi
"$TRACETUI" flamegraph --min-width 0 "$trace" >all.svg
"$TRACETUI" flamegraph --min-width 5 --width 800 "$trace" >some.svg
"$TRACETUI" report -f tsv "$trace" >"$tmp/r.tsv"
"$TRACETUI" report "$trace" >"$tmp/r.txt"
batch_py "--min-width 5: the frames left agree with report" "$tmp/check.py" \
	some.svg "$tmp/r.tsv" "$tmp/r.txt" pruned
cat >minwidth.py <<'PY'
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def rects(p):
    r = ET.parse(p).getroot()
    return [float(g.find(NS + "rect").get("width"))
            for g in r.iter(NS + "g") if g.get("class") == "f"], r
a, _ = rects(sys.argv[1])
b, r = rects(sys.argv[2])
assert r.get("width") == "800", r.get("width")
assert min(b) >= 5 - 0.01, min(b)
assert min(a) < 5 and len(b) < len(a), (len(a), len(b))
PY
batch_py "--min-width 5 leaves out narrower frames, --width 800" \
	minwidth.py all.svg some.svg

# --base: each frame carries BASE's numbers of the same path (read from
# BASE's own graph), its colour says whether its own time grew, and the
# title holds both totals as report prints them.
d_n=0
diff_check() {
	d_name=$1
	shift
	d_n=$((d_n + 1))
	"$TRACETUI" flamegraph --min-width 0 "$@" diff-base.trace \
		>base.$d_n.svg 2>"$tmp/err" &&
		"$TRACETUI" flamegraph --min-width 0 "$@" \
			--base diff-base.trace diff-new.trace >d.$d_n.svg \
			2>>"$tmp/err"
	s=$?
	d_opts=
	for a in "$@"; do
		[ "$a" = --no-thread ] || d_opts="$d_opts $a"
	done
	# shellcheck disable=SC2086
	"$TRACETUI" report $d_opts diff-base.trace >"$tmp/tb.$d_n"
	# shellcheck disable=SC2086
	"$TRACETUI" report $d_opts diff-new.trace >"$tmp/tn.$d_n"
	if [ $s -ne 0 ]; then
		ok 1 "--base $d_name: flamegraph fails"
		diag <"$tmp/err"
		return
	fi
	batch_py "--base $d_name: BASE's numbers per path, red and blue, totals" \
		diffcheck.py base.$d_n.svg d.$d_n.svg "$tmp/tb.$d_n" \
		"$tmp/tn.$d_n" "$d_name"
}
cat >diffcheck.py <<'PY'
import re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
def key(name):
    head, _, sig = name.partition(" ")
    return head.replace("/", ".") + " " + sig
def frames(p):
    root = ET.parse(p).getroot()
    out, path = [], []
    for g in root.iter(NS + "g"):
        if g.get("class") != "f":
            continue
        d = int(g.get("data-d"))
        del path[d:]
        path.append(key(g.find(NS + "title").text.split("\n")[0]))
        fill = g.find(NS + "rect").get("fill")
        out.append((tuple(path[1:]), g, [int(c) for c in
                                         re.findall(r"\d+", fill)]))
    return root, out
_, base = frames(sys.argv[1])
root, new = frames(sys.argv[2])
was = {p: (int(g.get("data-i")), int(g.get("data-e"))) for p, g, _ in base}
grew = shrank = 0
for p, g, rgb in new:
    if p in was:
        assert (int(g.get("data-b")), int(g.get("data-be"))) == was[p], p
        delta = int(g.get("data-e")) - was[p][1]
    else:
        assert g.get("data-b") is None, p
        delta = int(g.get("data-e"))
    if delta > 0:
        assert rgb[0] == 255 and rgb[2] < 255, (p, rgb)
        grew += 1
    elif delta < 0:
        assert rgb[2] == 255 and rgb[0] < 255, (p, rgb)
        shrank += 1
    else:
        assert rgb == [245, 245, 245], (p, rgb)
# On the cpu clock only growth is visible; on the wall clock App.main's
# own time shrank.
assert grew and (shrank or "wall" not in sys.argv[5]), (grew, shrank)
total = lambda f: open(f).readline().split("total ")[1].split(" over")[0]
sub = [t for t in root.iter(NS + "text") if t.get("id") == "fl-subtitle"][0]
assert "base %s, new %s" % (total(sys.argv[3]), total(sys.argv[4])) \
    in sub.text, sub.text
PY
diff_check "by thread"
diff_check "merged, wall clock" --no-thread --clock wall
diff_check "thread main" --thread main

# Usage and input errors.
run "$TRACETUI" flamegraph --width 10 v3-dual.trace
ok "$([ $rc -eq 2 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"--width 10: exit 2"
run "$TRACETUI" flamegraph --min-width x v3-dual.trace
ok "$([ $rc -eq 2 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"--min-width x: exit 2"
run "$TRACETUI" flamegraph --clock cpu v3-wall.trace
ok "$([ $rc -eq 2 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"a clock the trace lacks: exit 2"
run "$TRACETUI" flamegraph missing.trace
ok "$([ $rc -eq 3 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"a missing file: exit 3"
run "$TRACETUI" flamegraph --base missing.trace v3-dual.trace
ok "$([ $rc -eq 3 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"a missing --base: exit 3"
run "$TRACETUI" flamegraph --help
ok "$([ $rc -eq 0 ] && echo "$out" | grep -q -- '--min-width' &&
	echo "$out" | grep -q -- '--inverted' && echo 0 || echo 1)" \
	"--help lists --min-width and --inverted"

# Real traces: every one in check-long; in make check a small app's
# recording and an exception's unwinding.
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		[ -n "$long" ] || case ${f##*/} in
		Launcher__app.trace | perflib__exception.trace) ;;
		*) continue ;;
		esac
		a_refused_ok=yes
		agree "${f##*/}" "$f"
	done
	a_refused_ok=
	f=$SHARED_TRACES/AppMethodOrder__oldVersion.trace
	[ -n "$long" ] || f=$SHARED_TRACES/Launcher__app.trace
	[ -f "$f" ] && agree "${f##*/} merged wall" "$f" --no-thread \
		--clock wall
else
	ok 0 "real traces # SKIP no $SHARED_TRACES"
fi
batch_py_done

done_testing
