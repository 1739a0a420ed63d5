#!/bin/sh
# export-pictures.sh: `tracetui export --format dot|html`.
#
# Both outputs are parsed (python3; skipped without it) and their numbers
# checked against `report` for the same scope and clock:
# - dot: every edge joins declared nodes; with --min-pct 0 each method
#   node carries report's incl, excl and calls, and its incoming edges
#   add up to its incl; with --min-pct P nothing under P% is left; names
#   with quotes and backslashes read back whole; `dot -Tsvg` accepts it
#   when graphviz is installed;
# - html: the embedded JSON parses and holds report's rows and total,
#   the links add up to each method's incl, the table has a row per
#   method, the inline SVG parses as XML with the total at its root, and
#   a name holding </script> stays text;
# - a method named <script>alert(1)</script> is only text in the SVG,
#   the page and the DOT graph (and in dot's own SVG with graphviz);
#   neither the SVG nor the page refers to anything on the network;
# - overloads and a method declared twice get labels that differ (the
#   signature, then a number);
# - the page fits a 1400-pixel window whatever the names' length (its
#   width measured by headless Chromium when it is installed).
#
# make check: six fixtures whose calls differ in shape, the options on
# v3-dual, two real traces (Launcher__app, perflib__exception);
# check-long: every fixture both ways, the demo trace, every real trace.
# The python3 checks run in one interpreter (batch_py).
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

# The report's rows by name (duplicate names summed) and its total.
cat >"$tmp/report.py" <<'PY'
def load(tsv, text, wall):
    rows = {}
    for line in open(tsv, encoding="utf-8").read().split("\n")[1:]:
        if not line:
            continue
        c = line.split("\t")
        i, e = (c[5], c[6]) if wall or c[3] == "" else (c[3], c[4])
        was = rows.get(c[0], (0, 0, 0, 0))
        rows[c[0]] = (was[0] + int(c[1]), was[1] + int(c[2]),
                      was[2] + int(i), was[3] + int(e))
    head = open(text, encoding="utf-8").readline()
    total = int(round(float(head.split("total ")[1].split(" ms")[0]) * 1000))
    return rows, total
PY

cat >"$tmp/dot.py" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[5])
import report
dot, tsv, text, mode = sys.argv[1:5]
rows, total = report.load(tsv, text, "wall" in sys.argv[6:])

def fail(msg):
    print(msg)
    sys.exit(1)

value = r'"(?:[^"\\]|\\.)*"|[^,\]\s]+'
attr = re.compile(r'(\w+)=(' + value + ')')
def attrs(s):
    out = {}
    for k, v in attr.findall(s):
        if v.startswith('"'):
            v = re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n"
                       else m.group(1), v[1:-1])
        out[k] = v
    return out
lines = open(dot, encoding="utf-8").read().split("\n")
if lines[0] != "digraph tracetui {" or lines[-2] != "}":
    fail("not one digraph")
nodes, edges, graph = {}, [], {}
for line in lines[1:-2]:
    m = re.match(r'^(\w+) -> (\w+) \[(.*)\];$', line)
    if m:
        edges.append((m.group(1), m.group(2), attrs(m.group(3))))
        continue
    m = re.match(r'^(\w+) \[(.*)\];$', line)
    if not m:
        fail("a line that is neither node nor edge: %r" % line)
    if m.group(1) == "graph":
        graph = attrs(m.group(2))
    elif m.group(1) not in ("node", "edge"):
        nodes[m.group(1)] = attrs(m.group(2))
if int(graph["total_us"]) != total or int(nodes["top"]["incl_us"]) != total:
    fail("total %s, report %d" % (graph["total_us"], total))
into = {}
for a, b, e in edges:
    if a not in nodes or b not in nodes:
        fail("edge %s -> %s between undeclared nodes" % (a, b))
    into[b] = into.get(b, 0) + int(e["incl_us"])
    if mode != "all" and 100.0 * int(e["incl_us"]) / total < float(mode):
        fail("edge %s -> %s under %s%%" % (a, b, mode))
seen = {}
for n, a in nodes.items():
    if n == "top":
        continue
    name = a["tooltip"]
    # A name that two methods share is numbered: " #1", " #2".
    if not name.startswith(re.sub(r" #\d+$", "", a["label"].split("\n")[0])):
        fail("label %r for %r" % (a["label"], name))
    got = seen.get(name, (0, 0, 0, 0))
    seen[name] = (got[0] + int(a["calls"]), got[1] + int(a["rcalls"]),
                  got[2] + int(a["incl_us"]), got[3] + int(a["excl_us"]))
    if mode == "all" and into.get(n, 0) != int(a["incl_us"]):
        fail("%s: edges in add up to %d, incl %s"
             % (name, into.get(n, 0), a["incl_us"]))
    if mode != "all" and 100.0 * int(a["incl_us"]) / total < float(mode):
        fail("%s under %s%%" % (name, mode))
for name, r in seen.items():
    if rows.get(name) != r:
        fail("%s: dot %r, report %r" % (name, r, rows.get(name)))
if mode == "all" and set(seen) != set(rows):
    fail("methods missing: %r" % (set(rows) ^ set(seen)))
PY

cat >"$tmp/page.py" <<'PY'
import json, sys, html.parser, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[4])
import report
page, tsv, text = sys.argv[1:4]
rows, total = report.load(tsv, text, "wall" in sys.argv[5:])

def fail(msg):
    print(msg)
    sys.exit(1)

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.cells, self.stack = [], [], []
        self.data_json = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a))
        if tag == "script":
            self.scripts.append(a)
        if tag == "td" and a.get("class") == "name":
            self.cells.append("")
    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass
    def handle_data(self, d):
        if not self.stack:
            return
        tag, a = self.stack[-1]
        if tag == "script" and a.get("id") == "tt-data":
            self.data_json = (self.data_json or "") + d
        if tag == "td" and a.get("class") == "name":
            self.cells[-1] += d
raw = open(page, encoding="utf-8").read()
p = Page()
p.feed(raw)
if len(p.scripts) != 3:
    fail("%d script elements, not 3" % len(p.scripts))
data = json.loads(p.data_json)
if data["total"] != total:
    fail("total %d, report %d" % (data["total"], total))
seen = {}
for m in data["methods"]:
    got = seen.get(m["name"], (0, 0, 0, 0))
    seen[m["name"]] = (got[0] + m["calls"], got[1] + m["rcalls"],
                       got[2] + m["incl"], got[3] + m["excl"])
if seen != rows:
    bad = [n for n in set(seen) | set(rows) if seen.get(n) != rows.get(n)]
    fail("methods differ from report: %r" % bad[:5])
into = {}
for l in data["links"]:
    if not l["child_recursive"]:
        into[l["child"]] = into.get(l["child"], 0) + l["incl"]
for m in data["methods"]:
    if into.get(m["id"], 0) != m["incl"]:
        fail("%s: links add up to %d, incl %d"
             % (m["name"], into.get(m["id"], 0), m["incl"]))
if sorted(p.cells) != sorted(m["name"] for m in data["methods"]):
    fail("table rows differ from the methods")
svg = raw[raw.index("<svg "):raw.index("</svg>") + 6]
root = ET.fromstring(svg)
ns = "{http://www.w3.org/2000/svg}"
top = [g for g in root.iter(ns + "g") if g.get("class") == "f"][0]
if int(top.get("data-i")) != total:
    fail("flame root %s, total %d" % (top.get("data-i"), total))
PY

# check FORMAT MODE NAME TRACE [OPTIONS...] (checked by batch_py_done);
# with $c_refused_ok set, a trace refused with exit 3 is skipped (the
# status is 1).
c_n=0
r_key=
c_refused_ok=
check() {
	c_format=$1
	c_mode=$2
	c_name=$3
	c_trace=$4
	shift 4
	c_wall=
	case " $* " in *" wall "*) c_wall=wall ;; esac
	c_pct=
	[ "$c_format" = dot ] && [ "$c_mode" = all ] && c_pct="--min-pct 0"
	[ "$c_format" = dot ] && [ "$c_mode" != all ] &&
		c_pct="--min-pct $c_mode"
	c_n=$((c_n + 1))
	# shellcheck disable=SC2086
	"$TRACETUI" export -f "$c_format" $c_pct "$@" "$c_trace" \
		>"$tmp/out.$c_n" 2>"$tmp/err"
	c_rc=$?
	# A trace every command refuses (exit 3) is no export's to check.
	[ $c_rc -eq 3 ] && [ -n "$c_refused_ok" ] && return 1
	if [ $c_rc -ne 0 ]; then
		ok 1 "$c_name: export -f $c_format fails"
		diag <"$tmp/err"
		return 1
	fi
	c_opts=
	for a in "$@"; do
		[ "$a" = --no-thread ] || c_opts="$c_opts $a"
	done
	# The reports of a trace and options made once, for dot and html.
	if [ "$c_opts|$c_trace" != "$r_key" ]; then
		r_key="$c_opts|$c_trace"
		c_r=$tmp/r.$c_n
		# shellcheck disable=SC2086
		"$TRACETUI" report -f tsv $c_opts "$c_trace" >"$c_r.tsv" 2>/dev/null
		# shellcheck disable=SC2086
		"$TRACETUI" report $c_opts "$c_trace" >"$c_r.txt" 2>/dev/null
	fi
	c_desc="$c_name: export -f $c_format $c_pct $* agrees with report"
	# shellcheck disable=SC2086
	if [ "$c_format" = dot ]; then
		batch_py "$c_desc" "$tmp/dot.py" "$tmp/out.$c_n" "$c_r.tsv" \
			"$c_r.txt" "$c_mode" "$tmp" $c_wall
	else
		batch_py "$c_desc" "$tmp/page.py" "$tmp/out.$c_n" "$c_r.tsv" \
			"$c_r.txt" "$tmp" $c_wall
	fi
}

# Every fixture both ways in make check-long; in make check those whose
# calls differ in shape (a streaming trace, unbalanced exits, unwinding,
# recursion, a clock that goes back), dot and html in turn.
turn=0
for spec in "$fixtures"/*.spec; do
	name=${spec##*/}
	name=${name%.spec}
	case $name in broken-* | generated-*) continue ;; esac
	[ -n "$long" ] || case $name in
	stream-f2 | orphan-exits | mismatched-exit | unwind | \
		recursion-indirect | time-backwards) ;;
	*) continue ;;
	esac
	turn=$((turn + 1))
	[ -e "$name.trace-failed" ] && {
		ok 1 "$name: mktrace failed"
		continue
	}
	c_refused_ok=yes
	if [ -n "$long" ] || [ $((turn % 2)) -eq 0 ]; then
		check dot all "$name" "$name.trace" || continue
		c_refused_ok=
	fi
	[ -z "$long" ] && [ $((turn % 2)) -eq 0 ] ||
		check html - "$name" "$name.trace"
done
c_refused_ok=
demo_trace demo.trace
# --min-pct 1 on the demo trace under check-long, on a small app's
# recording in make check; the options on the demo trace under
# check-long, make check gives them the small v3-dual.
if [ -n "$long" ]; then
	check dot 1 demo demo.trace
elif [ -f "$SHARED_TRACES/Launcher__app.trace" ]; then
	check dot 1 Launcher__app "$SHARED_TRACES/Launcher__app.trace"
fi
if [ -n "$long" ]; then
	check dot 5 "demo wall" demo.trace --clock wall
	check dot all "demo main" demo.trace --thread main
	check html - "demo range" demo.trace --range 100..900
	check html - "demo wall merged" demo.trace --clock wall --no-thread
else
	check dot 5 "v3-dual wall" v3-dual.trace --clock wall
	check dot all "v3-dual main" v3-dual.trace --thread main
	check html - "v3-dual wall merged" v3-dual.trace --clock wall \
		--no-thread
fi
check dot all "v3-dual range" v3-dual.trace --range 0.005..0.02 --clock wall

# Names that would be markup, DOT syntax or a script's end.
"$MKTRACE" - names.trace <<'SPEC'
clock dual
thread 1 main
method 0x4 "</script><script>alert(1)</script>" "a&b\"c\\d\x1f" "()V" F.java
call 1 0x4 0 0 10 20
SPEC
check html - "markup in names" names.trace
check dot all "quotes in names" names.trace
"$TRACETUI" export -f html names.trace >names.html
cat >names.py <<'PY'
import sys
raw = open(sys.argv[1], encoding="utf-8").read()
assert "<script>alert" not in raw and "</script><script>" not in raw
assert raw.count("<script") == 3, raw.count("<script")
PY
batch_py "html: a name holding </script> never closes a script" names.py \
	names.html

# A method named <script>alert(1)</script>, called by one whose class is
# markup too: in the SVG, the HTML page and the DOT graph its name is
# only ever text.  The SVG and the page parse (XML; HTML with the JSON
# inside it) and give the name back whole, with no script element but
# their own; the DOT graph holds it only inside quoted strings, and has
# no HTML-like label (<...>) that graphviz would read as markup.
"$MKTRACE" - script.trace <<'SPEC'
clock dual
thread 1 main
method 0x4 "<b>Outer</b>" "run" "()V" F.java
method 0x8 "com.example.X" "<script>alert(1)</script>" "()V" F.java
call 1 0x4 0 0 10 20 {
call 1 0x8 0 0 12 18
}
SPEC
"$TRACETUI" flamegraph script.trace >script.svg &&
	"$TRACETUI" export -f html script.trace >script.html &&
	"$TRACETUI" export -f dot script.trace >script.dot
ok $? "the name <script>alert(1)</script>: svg, html and dot written"
cat >script.py <<'PY'
import json, re, sys, html.parser, xml.etree.ElementTree as ET
svg, page, dot = (open(f, encoding="utf-8").read() for f in sys.argv[1:4])
name = "<script>alert(1)</script>"
full = "com.example.X." + name + " ()V"
NS = "{http://www.w3.org/2000/svg}"

for what, raw in (("svg", svg), ("html", page), ("dot", dot)):
    assert "<script>alert" not in raw or what == "dot", what + ": raw name"
    assert "<b>Outer" not in raw or what == "dot", what + ": raw class"

root = ET.fromstring(svg)
assert len(list(root.iter(NS + "script"))) == 1, "svg: scripts"
titles = [t.text for t in root.iter(NS + "title")]
assert any(t.split("\n")[0] == full for t in titles), titles
assert any(t.split("\n")[0] == "<b>Outer</b>.run ()V" for t in titles)

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts, self.in_data, self.data, self.text = 0, False, "", []
    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
            self.in_data = dict(attrs).get("id") == "tt-data"
        assert tag not in ("b",), "html: a <b> element from a name"
    def handle_endtag(self, tag):
        if tag == "script":
            self.in_data = False
    def handle_data(self, d):
        if self.in_data:
            self.data += d
        else:
            self.text.append(d)
p = Page()
p.feed(page)
assert p.scripts == 3, "html: %d scripts" % p.scripts
data = json.dumps(json.loads(p.data))
assert json.dumps(name)[1:-1] in data, "html: the JSON lost the name"
assert any(full in t for t in p.text), "html: the name is not text"

# DOT: outside quoted strings, no '<' at all; inside, the name whole.
outside, strings, i = [], [], 0
while i < len(dot):
    if dot[i] == '"':
        j, buf = i + 1, ""
        while dot[j] != '"':
            if dot[j] == "\\":
                buf += dot[j:j + 2]
                j += 2
            else:
                buf += dot[j]
                j += 1
        strings.append(buf)
        i = j + 1
    else:
        outside.append(dot[i])
        i += 1
assert "<" not in "".join(outside), "dot: an HTML-like label"
assert any(s.startswith("com.example.X." + name) for s in strings), strings
PY
batch_py "the name <script>alert(1)</script> stays text in svg, html and dot" \
	script.py script.svg script.html script.dot

# Nothing to fetch: no src, href or url() reaching the network, no
# http:// or https:// at all but the SVG namespace's name.
cat >network.py <<'PY'
import re, sys, html.parser
for f in sys.argv[1:]:
    raw = open(f, encoding="utf-8").read()
    class Refs(html.parser.HTMLParser):
        def handle_starttag(self, tag, attrs):
            for k, v in attrs:
                if k in ("src", "href", "xlink:href", "action", "data",
                         "poster", "srcset", "formaction") and v:
                    assert not re.match(r"\s*([a-z]+:)?//", v, re.I), \
                        "%s: <%s %s=%r>" % (f, tag, k, v)
                    assert not re.match(r"\s*https?:", v, re.I), (f, v)
    Refs().feed(raw)
    assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//", raw, re.I), f
    assert "@import" not in raw, f + ": @import"
    rest = re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/[^"]*"', "", raw)
    m = re.search(r"https?://", rest)
    assert not m, "%s: %r" % (f, rest[max(0, m.start() - 40):m.end() + 40])
PY
batch_py "html and svg: no network reference" network.py script.svg \
	script.html

if command -v dot >/dev/null 2>&1; then
	dot -Tsvg script.dot >script-dot.svg 2>"$tmp/err"
	ok $? "dot -Tsvg reads the graph of the name <script>alert(1)</script>"
	diag <"$tmp/err"
	cat >dot-svg.py <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
tags = [e.tag.split("}")[-1] for e in root.iter()]
assert "script" not in tags, "dot's svg has a script element"
texts = " ".join(e.text or "" for e in root.iter())
assert "<script>alert(1)</script>" in texts, "the name is not text"
PY
	batch_py "dot -Tsvg: the name <script>alert(1)</script> is text" \
		dot-svg.py script-dot.svg
	# The demo's call graph in check-long, a generated fixture's of a
	# few threads in make check.
	g=render-gen.trace
	[ -z "$long" ] || g=demo.trace
	"$TRACETUI" export -f dot "$g" | dot -Tsvg >demo.svg 2>"$tmp/err"
	ok $? "dot -Tsvg reads the call graph ($g)"
	diag <"$tmp/err"
	"$TRACETUI" export -f dot names.trace | dot -Tsvg >names.svg \
		2>"$tmp/err"
	ok $? "dot -Tsvg reads names with quotes and backslashes"
else
	ok 0 "dot -Tsvg # SKIP no graphviz"
	ok 0 "dot -Tsvg reads the name # SKIP no graphviz"
	ok 0 "dot -Tsvg: the name as text # SKIP no graphviz"
fi

run "$TRACETUI" export -f chrome --range 1..2 v3-dual.trace
ok "$([ $rc -eq 2 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"--range with a JSON format: exit 2"
run "$TRACETUI" export -f dot --min-pct 200 v3-dual.trace
ok "$([ $rc -eq 2 ] && [ -z "$out" ] && echo 0 || echo 1)" \
	"--min-pct 200: exit 2"

# Real traces: every one in check-long; in make check a small app's
# recording and an exception's unwinding.
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		[ -n "$long" ] || case ${f##*/} in
		Launcher__app.trace | perflib__exception.trace) ;;
		*) continue ;;
		esac
		c_refused_ok=yes
		check dot all "${f##*/}" "$f" || continue
		c_refused_ok=
		check html - "${f##*/}" "$f"
	done
else
	ok 0 "real traces # SKIP no $SHARED_TRACES"
fi

# Overloads and a method declared twice: every box's label differs (the
# signature for overloads, then #1, #2), and each still starts its
# method's full name.
cat >"$tmp/overloads.spec" <<'SPEC'
format v1
version 3
clock dual
thread 1 main
method 0x4 a.B run (I)V B.java
method 0x8 a.B run (J)V B.java
method 0xc a.B run (J)V B.java
method 0x10 a.C go ()V C.java
call 1 0x10 0 0 100 100 {
 call 1 0x4 10 10 20 20
 call 1 0x8 20 20 40 40
 call 1 0xc 40 40 60 60
}
SPEC
"$MKTRACE" "$tmp/overloads.spec" "$tmp/overloads.trace" &&
	"$TRACETUI" export -f dot --min-pct 0 "$tmp/overloads.trace" \
		>"$tmp/overloads.dot"
ok $? "overloads: export -f dot"
labels=$(sed -n 's/^m[0-9]* \[label="\([^\\]*\)\\n.*/\1/p' "$tmp/overloads.dot")
[ "$(printf '%s\n' "$labels" | wc -l)" -eq 4 ] &&
	[ "$(printf '%s\n' "$labels" | sort -u | wc -l)" -eq 4 ]
ok $? "overloads: four boxes, four labels"
printf '%s\n' "$labels" | diag
printf '%s\n' "$labels" | grep -qx 'a.B.run (I)V' &&
	printf '%s\n' "$labels" | grep -qx 'a.B.run (J)V #2' &&
	printf '%s\n' "$labels" | grep -qx 'a.C.go'
ok $? "overloads: the signature, then a number; a lone name as it was"
check dot all overloads "$tmp/overloads.trace"

# The page fits a window 1400 pixels wide however long the names: a
# name of 600 characters without a space (a Kotlin lambda's signature)
# made the table 3,500 pixels wide.  The style lets such a name wrap
# anywhere; headless Chromium, when installed, measures the page.
long=$(awk 'BEGIN { for (i = 0; i < 60; i++) printf "Lcom/example/Ab%d;", i }')
printf '%s\n' 'format v1' 'version 3' 'clock dual' 'thread 1 main' \
	"method 0x4 com.example.Outer\$inner\$1 invokeSuspend ($long)V A.java" \
	'method 0x8 a.B run ()V B.java' 'call 1 0x8 0 0 100 100 {' \
	' call 1 0x4 10 10 90 90' '}' >"$tmp/long.spec"
"$MKTRACE" "$tmp/long.spec" "$tmp/long.trace" &&
	"$TRACETUI" export -f html "$tmp/long.trace" >"$tmp/long.html"
ok $? "a name of $((${#long} + 40)) characters: export -f html"
grep -q 'max-width: 100%' "$tmp/long.html" &&
	grep -q 'td.name { overflow-wrap: anywhere; }' "$tmp/long.html"
ok $? "the style lets a long name wrap and the table fit"
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
if [ -n "$browser" ]; then
	cp "$tmp/long.html" "$tmp/measure.html"
	printf '%s\n' '<script>document.body.setAttribute("data-width",' \
		'document.documentElement.scrollWidth)</script>' \
		>>"$tmp/measure.html"
	width=$(timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
		--window-size=1400,900 --virtual-time-budget=2000 \
		--dump-dom "file://$tmp/measure.html" 2>/dev/null |
		sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' | head -1)
	[ -n "$width" ] && [ "$width" -le 1400 ]
	ok $? "in a 1400-pixel window the page is ${width:-?} pixels wide"
else
	ok 0 "the page's width in a browser # SKIP no chromium"
fi
batch_py_done

done_testing
