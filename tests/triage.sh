#!/bin/sh
# triage.sh: `tracetui triage`.
#
# - A hand-made trace (below) whose findings are worked out by hand: the
#   outermost calls of a rule (a binder proxy holding a transact counts
#   once), idle left out of a no-idle rule, a call open at the end making
#   a lower bound, a matching call that holds Looper.loop left out, the
#   main thread by the key's pid (and by name without one), a rule for
#   other threads; --threshold, --rules (extending, replacing, refused
#   lines), --fail-on, every format, one screen of text; diff's
#   --fail-if on a rule's total and count; the man page's rules against
#   the built-in table; a profile of values refused.
# - Real traces and simpleperf recordings: the acceptance numbers
#   (AndroidMethodTraceParser's main thread and binder calls, Launcher's
#   Thread.sleep, android-methods-profiler's launch phase); every
#   finding's total is the union of the calls its drill command lists
#   (run, and its calls' outermost ones summed here), its count theirs;
#   the frames equal `frames`; no text line is wider than 80 columns and
#   the first screen fits 24 lines.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v python3 >/dev/null || skip_all "no python3"
LC_ALL=C
export LC_ALL
cd "$tmp" || exit 1

# Wall times, microseconds (cpu times are small).  ui (tid 1 = pid):
# Method.invoke > ActivityThread.main > Looper.loop, all open at the end
# (650000); idle 3..100000; a message 100001..400000 holding App.work
# (a binder proxy 110000..160000 holding a transact, a transact
# 200000..230000, Object.wait 230000..290000 holding idle 240000..280000)
# and Thread.sleep 300001..310001; a message open from 400001 to the end
# holding a transact 500000..650000.
#   R6 binder: 50000 + 30000 + 150000 = 230000 in 3 calls, cpu 100 + 50 +
#     100 = 250; the longest 150000 >= 100 ms: error.
#   R7 wait: 60000 + 10000 less 40000 idle = 30000 in 2, cpu 10 + 50;
#     the longest 60000 < 100 ms: warn.
#   R19 message at --threshold R19=200: 299999 + 249999 less 40000 =
#     509998 in 2, a lower bound (open at the end).
#   R14a gc on worker (tid 2): 5000, warn.
cat >h.spec <<'SPEC'
format v1
version 3
clock dual
vm art
property pid=1
thread 1 ui
thread 2 worker
method 0x4 java.lang.reflect.Method invoke (Ljava/lang/Object;)Ljava/lang/Object; Method.java
method 0x8 android.app.ActivityThread main ([Ljava/lang/String;)V ActivityThread.java
method 0xc android.os.Looper loop ()V Looper.java
method 0x10 android.os.Handler dispatchMessage (Landroid/os/Message;)V Handler.java
method 0x14 android.os.BinderProxy transact (I)Z Binder.java
method 0x18 android.app.IFoo$Stub$Proxy get ()V IFoo.java
method 0x1c java.lang.Thread sleep (J)V Thread.java
method 0x20 android.os.MessageQueue nativePollOnce (JI)V MessageQueue.java
method 0x24 java.lang.Object wait ()V Object.java
method 0x28 com.example.App work ()V App.java
method 0x2c java.lang.System gc ()V System.java

call 1 0x4 0 0 - - {
	call 1 0x8 1 1 - - {
		call 1 0xc 2 2 - - {
			call 1 0x20 3 3 3 100000
			call 1 0x10 4 100001 504 400000 {
				call 1 0x28 5 100002 405 300000 {
					call 1 0x18 6 110000 106 160000 {
						call 1 0x14 7 110001 105 159999
					}
					call 1 0x14 107 200000 157 230000
					call 1 0x24 158 230000 168 290000 {
						call 1 0x20 159 240000 159 280000
					}
				}
				call 1 0x1c 406 300001 456 310001
			}
			call 1 0x10 505 400001 - - {
				call 1 0x14 506 500000 606 650000
			}
		}
	}
}
call 2 0x2c 0 0 10 5000
SPEC
"$MKTRACE" h.spec h.trace || skip_all "mktrace failed"
sed -e '/^property pid/d' -e 's/^thread 1 ui/thread 1 main/' h.spec >n.spec
"$MKTRACE" n.spec n.trace || skip_all "mktrace failed"

# A rule matching Method.invoke, which holds Looper.loop: left out.
printf 'U1\treflect\tmain\tcount>=1\twarn\t-\t-\t^java\\.lang\\.reflect\\.Method\\.invoke( |$)\tmine\n' >invoke.rules
"$TRACETUI" triage -f json --threshold R19=200 --rules invoke.rules \
	h.trace >h.json 2>err
ok $? "triage -f json: status 0"
"$TRACETUI" triage -f json n.trace >n.json 2>>err
cat >hand.py <<'PY'
import json, sys
h = json.load(open(sys.argv[1])); n = json.load(open(sys.argv[2]))
f = {x["id"]: x for x in h["findings"]}
bad = []
def check(what, got, want):
    got == want or bad.append(what)
    print(("ok " if got == want else "bad ") + what + ": %r, want %r" % (got, want))
check("main", h["main_thread"], {"tid": 1, "name": "ui", "how": "pid"})
check("main by name", n["main_thread"], {"tid": 1, "name": "main", "how": "named"})
check("ids", sorted(f), ["R14a", "R19", "R20", "R6", "R7"])
r = f["R6"]
check("R6", (r["total_us"], r["cpu_us"], r["count"], r["severity"], r["lower_bound"]),
      (230000, 250, 3, "error", False))
check("R6 worst", (r["worst"]["start_us"], r["worst"]["wall_us"], r["worst"]["path"]),
      (500000, 150000, ["android.os.Handler.dispatchMessage (Landroid/os/Message;)V",
                        "android.os.BinderProxy.transact (I)Z"]))
check("R6 drill", r["drill"], "tracetui calls h.trace '%s' -t 1" % r["pattern"])
r = f["R7"]
check("R7", (r["total_us"], r["idle_us"], r["cpu_us"], r["count"], r["severity"]),
      (30000, 40000, 60, 2, "warn"))
r = f["R19"]
check("R19", (r["total_us"], r["idle_us"], r["count"], r["lower_bound"], r["severity"]),
      (509998, 40000, 2, True, "warn"))
r = f["R14a"]
check("R14a", (r["thread"], r["tid"], r["total_us"], r["severity"]), ("worker", 2, 5000, "warn"))
# R20: exclusive wall less cpu of each call, but of (or inside) the
# cause rules' calls: the first message 90001 - 50, App.work 59998 - 240,
# the open message 99999 - 1 (Object.wait's 20000 is R7's, a cause).
r = f["R20"]
check("R20", (r["kind"], r["total_us"], r["cpu_us"], r["count"], r["lower_bound"],
              r["worst"]["start_us"], r["worst"]["wall_us"]),
      ("blocked", 249707, 291, 3, True, 400001, 99998))
check("R20 drill", r["drill"],
      "tracetui calls h.trace '^(android\\.os\\.Handler\\.dispatchMessage|"
      "com\\.example\\.App\\.work)( |$)' -t 1")
check("order", [x["id"] for x in h["findings"]], ["R6", "R19", "R20", "R7", "R14a"])
check("no R19 at 700 ms", [x["id"] for x in n["findings"]], ["R6", "R20", "R7", "R14a"])
sys.exit(1 if bad else 0)
PY
batch_py "hand-made trace: the findings worked out by hand" hand.py h.json n.json

# Frames' causes (Sentry's rule: the deepest application call lasting at
# least half the frame and starting in its first fifth) and R21's hot
# spots (an application method's exclusive cpu in one frame >= 16 ms),
# R21s's in the startup window (>= 100 ms).  Wall and cpu, microseconds:
#   frame 1 1000..101000: A.outer 6000..86000 (80 %, at 5 %) > A.deep
#     11000..71000 (60 %, at 10 %) > View.measure 12000..67000 (55 %,
#     the platform's) > A.inner 31000..66000 (35 %, at 30 %): the cause is
#     A.deep, 0.6; hot: A.deep 68000 - 37000 = 31000 cpu, A.inner 26000.
#   frame 2 200000..290000: A.early (10 %), A.late 222500..285500 (70 %,
#     at 25 %): no cause; hot: A.late 39700.
#   frame 3 300000..380000: A.edge 316000..356000 (exactly 50 %, at
#     exactly 20 %) > A.edgechild 316000..355999: the cause is A.edge,
#     0.5; hot: A.edgechild 18900 (A.edge's own 1000 is not).
#   launch 400000..600000 > A.onCreate 400100..599000, 148900 cpu: R21s.
cat >f.spec <<'SPEC'
format v1
version 3
clock dual
vm art
property pid=1
thread 1 main
method 0x4 android.view.Choreographer doFrame (J)V Choreographer.java
method 0x8 com.example.A outer ()V A.java
method 0xc com.example.A deep ()V A.java
method 0x10 android.view.View measure (II)V View.java
method 0x14 com.example.A inner ()V A.java
method 0x18 com.example.A late ()V A.java
method 0x1c com.example.A edge ()V A.java
method 0x20 com.example.A edgechild ()V A.java
method 0x24 com.example.A early ()V A.java
method 0x28 android.app.ActivityThread handleLaunchActivity ()V ActivityThread.java
method 0x2c com.example.A onCreate ()V A.java

call 1 0x4 0 1000 90000 101000 {
	call 1 0x8 1000 6000 80000 86000 {
		call 1 0xc 2000 11000 70000 71000 {
			call 1 0x10 3000 12000 40000 67000 {
				call 1 0x14 4000 31000 30000 66000
			}
		}
	}
}
call 1 0x4 100000 200000 150000 290000 {
	call 1 0x24 100100 201000 100200 210000
	call 1 0x18 100300 222500 140000 285500
}
call 1 0x4 200000 300000 230000 380000 {
	call 1 0x1c 200100 316000 220000 356000 {
		call 1 0x20 200100 316000 219000 355999
	}
}
call 1 0x28 300000 400000 450000 600000 {
	call 1 0x2c 300100 400100 449000 599000
}
SPEC
"$MKTRACE" f.spec f.trace || skip_all "mktrace failed"
"$TRACETUI" triage -f json f.trace >f.json 2>err
cat >causes.py <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
bad = []
def check(what, got, want):
    got == want or bad.append(what)
    print(("ok " if got == want else "bad ") + what + ": %r, want %r" % (got, want))
w = [(x["start_us"], x["wall_us"], x["cause"] and (x["cause"]["method"], x["cause"]["share"]))
     for x in j["frames"]["worst"]]
check("causes", w, [(1000, 100000, ("com.example.A.deep ()V", 0.6)),
                    (200000, 90000, None),
                    (300000, 80000, ("com.example.A.edge ()V", 0.5))])
f = {x["id"]: x for x in j["findings"]}
r = f.get("R21", {})
check("R21", (r.get("kind"), r.get("count"), r.get("cpu_us"), r.get("total_us"),
              r.get("worst", {}).get("method"), r.get("worst", {}).get("start_us"),
              r.get("worst", {}).get("cpu_us")),
      ("hot-frame", 4, 115600, 142999, "com.example.A.late ()V", 222500, 39700))
r = f.get("R21s", {})
check("R21s", (r.get("kind"), r.get("count"), r.get("cpu_us"),
               r.get("worst", {}).get("method")),
      ("hot-startup", 1, 148900, "com.example.A.onCreate ()V"))
sys.exit(1 if bad else 0)
PY
batch_py "frames' causes by Sentry's rule; R21's hot spots in frames and startup" \
	causes.py f.json

# The gate.
"$TRACETUI" triage h.trace >/dev/null 2>&1
ok $? "no --fail-on: status 0"
"$TRACETUI" triage --fail-on error h.trace >/dev/null 2>&1
ok $(($? != 1)) "--fail-on error with an error finding: status 1"
"$TRACETUI" triage --fail-on error --threshold R6=200 h.trace >/dev/null 2>&1
ok $? "--fail-on error, the error moved away: status 0"
"$TRACETUI" triage --fail-on warn --threshold R6=200 h.trace >/dev/null 2>&1
ok $(($? != 1)) "--fail-on warn with a warning: status 1"

# --rules: replacing the table, refused lines.
printf 'clear\nX1\tbinder\tany\ttotal>=1ms\terror\t-\t-\tBinderProxy\n' >only.rules
"$TRACETUI" triage -f tsv --rules only.rules h.trace >only.tsv 2>err
ok $? "--rules with clear: status 0"
awk -F'\t' 'NR > 1 { print $1, $4, $6, $8 }' only.tsv >got
printf 'X1 ui 229998 3\n' >want
cmp -s got want
ok $? "--rules with clear: only its rule, the three transacts"
# A cause rule hides blocked time only on the threads it looks at:
# Object.wait's exclusive 20000 us less its 10 of cpu are B1's unless
# C1 applies on the main thread.
blocked='B1\tblocked\tany\tcall>=1ms\twarn\t-\tblocked\t.\tmine\n'
cause='C1\twait\t%s\tcount>=1\twarn\t-\tcause\t^java\\.lang\\.Object\\.wait( |$)\tmine\n'
for on in none other main; do
	printf "clear\n$blocked" >cause-$on.rules
	[ "$on" = none ] || printf "$cause" "$on" >>cause-$on.rules
	"$TRACETUI" triage -f tsv --rules cause-$on.rules h.trace 2>err |
		awk -F'\t' '$1 == "B1" { print $4, $6, $8 }' >cause-$on.got
done
printf 'ui 509397 8\nworker 4990 1\n' >want
cmp -s cause-none.got want && cmp -s cause-other.got want &&
	printf 'ui 489407 7\nworker 4990 1\n' | cmp -s cause-main.got -
ok $? "a cause rule hides blocked time only on its threads"
cat cause-none.got cause-other.got cause-main.got | diag
printf 'X1\tbinder\tmain\ttotal>=1ms\n' >short.rules
printf 'X1\tbinder\tmain\tsome>=1\twarn\t-\t-\tBinder\n' >when.rules
printf 'X1\tbinder\tmain\ttotal>=1\twarn\t-\t-\t(((\n' >re.rules
for r in short when re; do
	"$TRACETUI" triage --rules $r.rules h.trace >/dev/null 2>err
	[ $? -eq 2 ] && grep -q "$r.rules: line 1: " err
	ok $? "--rules $r.rules: refused with status 2 and its line"
done
# The viewer reads --rules and --threshold as triage does, and refuses
# them before it asks for a terminal (tests/render.sh shows them apply).
"$TRACETUI" --rules re.rules h.trace </dev/null >/dev/null 2>err
[ $? -eq 2 ] && grep -q "viewer: re.rules: line 1: " err
ok $? "viewer --rules re.rules: refused with status 2 and its line"
"$TRACETUI" h.trace --threshold R99=5 </dev/null >/dev/null 2>err
[ $? -eq 2 ] && grep -q "viewer: --threshold: no rule" err
ok $? "viewer --threshold of an unknown rule: status 2"
"$TRACETUI" --rules invoke.rules --threshold R6=5 h.trace </dev/null \
	>/dev/null 2>err
[ $? -eq 2 ] && grep -q "needs a terminal" err
ok $? "viewer --rules FILE --threshold ID=MS: read, then the terminal asked"
"$TRACETUI" triage --threshold R99=5 h.trace >/dev/null 2>err
[ $? -eq 2 ] && grep -q 'no rule' err
ok $? "--threshold of an unknown rule: status 2"
"$TRACETUI" triage --fail-on sometimes h.trace >/dev/null 2>err
ok $(($? != 2)) "--fail-on sometimes: status 2"

# diff --fail-if on a rule's numbers: the last transact 50 ms longer.
sed 's/606 650000/606 700000/' h.spec >slow.spec
"$MKTRACE" slow.spec slow.trace || skip_all "mktrace failed"
"$TRACETUI" diff --fail-if 'finding_total(R6) > +40ms' h.trace slow.trace \
	>/dev/null 2>err
[ $? -eq 1 ] &&
	grep -q "finding_total(R6) > +40ms: base 230.000 ms, new 280.000 ms (+50.000 ms)" err
ok $? "diff --fail-if finding_total(R6): 230 to 280 ms holds"
cat err | diag
"$TRACETUI" diff --fail-if 'finding_total(R6) > +60ms' \
	--fail-if 'finding_count(R6) > +0' h.trace slow.trace >/dev/null 2>err
ok $? "diff --fail-if: 50 ms is not over 60, the count unchanged"
"$TRACETUI" diff --fail-if 'finding_total(R99) > +1ms' h.trace slow.trace \
	>/dev/null 2>err
[ $? -eq 2 ] && grep -q "no triage rule has the id 'R99'" err
ok $? "diff --fail-if of an unknown rule: status 2"
"$TRACETUI" diff --fail-if 'finding_count(R6) > +1ms' h.trace slow.trace \
	>/dev/null 2>err
ok $(($? != 2)) "diff --fail-if finding_count with a time unit: status 2"
"$TRACETUI" diff --fail-if 'finding_total(R6) > +1ms' h.trace h.trace -- \
	slow.trace slow.trace >/dev/null 2>err
[ $? -eq 2 ] && grep -q "one trace per side" err
ok $? "diff over runs refuses finding numbers"

# The man page lists every built-in rule, with its WHEN.
cat >man.py <<'PY'
import re, sys
src = open(sys.argv[1]).read(); man = open(sys.argv[2]).read()
rules = re.findall(r'^"([A-Z][0-9a-z]*)\\t[^\\]*\\t[a-z]+\\t([a-z]+>=?[0-9.]+m?s?)\\t', src, re.M)
listed = re.findall(r'^\.TP\n\.B ([A-Z][0-9a-z]*)\n[^\n]*? when ([a-z]+>=?[0-9.]+m?s?)[,.]', man, re.M)
print("ok" if rules and rules == listed else "bad %r\n%r" % (rules, listed))
sys.exit(0 if rules and rules == listed else 1)
PY
batch_py "the man page lists every built-in rule and its WHEN, in order" \
	man.py "$abs_srcdir/src/query/triage-rules.c" "$abs_srcdir/doc/tracetui.1.in"

# A profile of values has no calls in time.
"$TRACETUI" triage "$abs_srcdir/tests/fixtures/hprof-samples.txt" >/dev/null 2>err
[ $? -eq 2 ] && grep -q 'a profile of values' err
ok $? "triage of an hprof profile: refused with status 2"

# Real recordings (make check: those with acceptance numbers below and
# one simpleperf recording, one finding of each kind drilled, the
# frames, the screen and the drill commands' text of the small app's and
# the simpleperf recording; check-long: every one, every finding, every
# check).
# The smaller recordings first: a kind of finding is drilled in the
# first recording that has one, and AndroidMethodTraceParser's drills
# list thousands of calls.
set --
for f in aosp__display_bitmaps.trace \
	${long:+firefox-profiler__simpleperf-cpu-clock.trace.gz}; do
	[ -f "$SHARED_SIMPLEPERF/$f" ] && set -- "$@" "$SHARED_SIMPLEPERF/$f"
done
for f in Launcher__app android-methods-profiler__legacy \
	AndroidMethodTraceParser__cpu_trace ${long:+perflib__streaming \
	firefox-profiler__art-trace-regular AppMethodOrder__oldVersion}; do
	[ -f "$SHARED_TRACES/$f.trace" ] && set -- "$@" "$SHARED_TRACES/$f.trace"
done
if [ $# -eq 0 ]; then
	ok 0 "# SKIP no shared traces"
	batch_py_done
	done_testing
	exit
fi
# The python3 checks run in one interpreter (batch_py), which reads
# these from its environment.
LONG=$long
export TRACETUI LONG
cat >real.py <<'PY'
import json, os, re, shlex, subprocess, sys
tt = os.environ["TRACETUI"]
# make check drills one finding of each kind (union, blocked, hot...)
# over all the recordings, a `calls` run each; check-long every finding.
drill_all = bool(os.environ.get("LONG"))
drilled = set()
def run(args):
    return subprocess.run([tt] + args, capture_output=True, text=True)
bad = []
def say(good, what):
    good or bad.append(what)
    print(("ok " if good else "bad ") + what)
for path in sys.argv[1:]:
    name = os.path.basename(path)
    j = json.loads(run(["triage", "-f", "json", path]).stdout)
    k = "wall_us"
    for f in j["findings"]:
        if not drill_all and f["kind"] in drilled:
            continue
        drilled.add(f["kind"])
        args = shlex.split(f["drill"])
        assert args[:2] == ["tracetui", "calls"]
        out = run(["calls", "-f", "tsv"] + args[2:]).stdout.splitlines()
        head = out[0].split("\t")
        wi, si, di = head.index("wall_us"), head.index("start_us"), head.index("depth")
        calls = sorted(((int(r[si]), int(r[di]), int(r[wi] or 0))
                        for r in (l.split("\t") for l in out[1:])))
        if f["kind"] != "union":
            # Blocked and hot findings sum exclusive times: their drill
            # lists every call of their methods, the worst among them.
            mi = head.index("method")
            rows = [l.split("\t") for l in out[1:]]
            say(any(int(r[si]) == f["worst"]["start_us"] and r[mi] == f["worst"]["method"]
                    for r in rows) and f["count"] >= 1,
                "%s %s on %d: the worst call among the drill's %d calls"
                % (name, f["id"], f["tid"], len(rows)))
            continue
        total = count = 0
        end = -1; depth = -1
        for s, d, w in calls:
            if s < end and d > depth or (s == end == s + w and d > depth):
                continue  # inside the last outermost call
            total += w; count += 1; end = s + w; depth = d
        want = f["total_us"] + f["idle_us"]
        say(total == want and count == f["count"] and f["enclosing"] == 0,
            "%s %s on %d: drill's calls %d in %d, finding %d in %d"
            % (name, f["id"], f["tid"], total, count, want, f["count"]))
    f = {(x["id"], x["tid"]): x for x in j["findings"]}
    if name.startswith("AndroidMethodTraceParser"):
        say(j["main_thread"] == {"tid": 3001, "name": "LauncherApplication-framethread", "how": "pid"},
            "AndroidMethodTraceParser: main is 3001 LauncherApplication-framethread, by pid")
        b = f.get(("R6", 3001))
        say(b is not None and round(b["total_us"] / 100) == 10736 and b["count"] == 133,
            "AndroidMethodTraceParser: binder on main, 1073.6 ms in 133 calls")
    if name.startswith("Launcher__app"):
        w = f.get(("R7", j["main_thread"]["tid"]))
        say(w is not None and w["worst"]["method"].startswith("java.lang.Thread.sleep ")
            and round(w["worst"]["wall_us"] / 100) == 25016,
            "Launcher__app: 2501.6 ms of Thread.sleep on main")
    if name.startswith("android-methods-profiler"):
        p = {x["id"]: x for x in j["startup"]["phases"]}
        say("P3" in p and round(p["P3"]["wall_us"] / 100) == 30499 and p["P3"]["name"] == "activity launch",
            "android-methods-profiler__legacy: launch phase 3049.9 ms")
    # The frames, the screen and the drill commands' text: of the small
    # app's and a simpleperf recording in make check, every one in
    # check-long.
    if not drill_all and not name.startswith(("Launcher__app", "aosp__")):
        continue
    # Frames: each thread's summary as `frames` prints it.
    lines = run(["frames", path]).stdout.splitlines()
    got = {}
    for l in lines:
        m = re.match(r".* \((\d+)\): (\d+) frames?, (\d+) slow, (\d+) frozen; p50 (\S+) p90 (\S+) p95 (\S+) p99 (\S+) max (\S+) ms$", l)
        if m:
            v = m.groups()
            got[int(v[0])] = [int(x) for x in v[1:4]] + [round(float(x) * 1000) for x in v[4:]]
    mine = {t["tid"]: [t["frames"], t["slow"], t["frozen"], t["p50_us"], t["p90_us"],
                       t["p95_us"], t["p99_us"], t["max_us"]] for t in j["frames"]["threads"]}
    say(got == mine, "%s: frames equal `frames` (%d threads)" % (name, len(got)))
    # Text: 80 columns, one screen.
    text = subprocess.run([tt, "triage", path], capture_output=True, text=True,
                          env=dict(os.environ, COLUMNS="80", LC_ALL="C.UTF-8")).stdout
    rows = text.splitlines()
    say(max(len(r) for r in rows) <= 80 and len(rows) <= 23,
        "%s: text in 80 columns and 23 lines (%d, %d)" % (name, max(len(r) for r in rows), len(rows)))
    # Only names give way (from the left); no sentence is cut at its end.
    cut = [r for r in rows if r.endswith("\u2026")]
    say(not cut, "%s: no line of the text cut at its end at 80 columns %r" % (name, cut[:1]))
    # Every drill command of --all's text, at 80 and 40 columns, never
    # cut: its lines pasted into sh run the JSON's drill.
    for cols in ("80", "40"):
        text = subprocess.run([tt, "triage", "--all", path], capture_output=True, text=True,
                              env=dict(os.environ, COLUMNS=cols, LC_ALL="C.UTF-8")).stdout
        rows = text.splitlines()
        cmds, cur = [], None
        for r in rows:
            if cur is None and r.startswith("  $ "):
                cur = r[4:]
            elif cur is not None:
                cur += "\n" + r
            else:
                continue
            if not r.endswith("\\"):
                cmds.append(cur)
                cur = None
        drills = [x["drill"] for x in j["findings"]]
        same = len(cmds) == len(drills)
        # Every command pasted into one sh, each one's words then a
        # line of its own between them: one sh a width, not one a
        # command.
        sep = "--- next command ---"
        script = "set -f\n" + "".join(
            "set -- " + c + "\nprintf '%s\\n' \"$@\" '" + sep + "'\n"
            for c in cmds)
        ran = subprocess.run(["sh", "-c", script], capture_output=True,
                             text=True).stdout.split(sep + "\n")
        same = same and len(ran) == len(cmds) + 1
        for c, d, got in zip(cmds, drills, ran):
            want = "".join(a + "\n" for a in shlex.split(d))
            if same and (got != want or "…" in c):
                print("drill %r ran as %r" % (c, got))
            same = same and got == want and "…" not in c
        say(same and max(len(r) for r in rows) <= int(cols),
            "%s: %d drill commands (of %d) in %s columns (widest %d), never cut, run as the JSON's"
            % (name, len(cmds), len(drills), cols, max(len(r) for r in rows)))
sys.exit(1 if bad else 0)
PY
batch_py "real recordings: drill commands, frames, screen, acceptance" \
	real.py "$@"
batch_py_done

done_testing
