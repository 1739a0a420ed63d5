#!/bin/sh
# render.sh: golden renders of the viewer, drawn headless by tests/render
# from traces written by mktrace from tests/fixtures/*.spec.  One TAP test
# per golden in tests/golden/render/NAME.txt; REGENERATE=1 rewrites the
# goldens instead of comparing (read every changed one before committing).
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
RENDER=${RENDER:-$builddir/tests/render}
golden=$srcdir/tests/golden/render
[ -x "$RENDER" ] || skip_all "no $RENDER"

# The traces, named after their specs so the title line is stable.
for spec in calls wide gen icicle timeline frames drawer triage; do
	"$MKTRACE" "$srcdir/tests/fixtures/render-$spec.spec" \
		"$tmp/$spec.trace" || skip_all "mktrace failed on render-$spec"
done
# pprof profiles, found by their content whatever their names: the one
# tests/unit-pprof encodes, whose comment works out its numbers (space:
# main 180 B total, alloc 130 B self, 0x1234 50 B in libc.so), and its
# grown copy (alloc 1024 B more: 1154 B, main 1204 B).
"$builddir/tests/unit-pprof" --write "$tmp" >/dev/null &&
	mv "$tmp/pprof-heap.pb" "$tmp/heap.trace" &&
	mv "$tmp/pprof-heap-grown.pb" "$tmp/grown.trace" ||
	skip_all "unit-pprof --write failed"
for spec in diff-base diff-new; do
	"$MKTRACE" "$srcdir/tests/fixtures/$spec.spec" "$tmp/$spec.trace" ||
		skip_all "mktrace failed on $spec"
done
# An hprof profile of samples, whose comment works its counts out by
# hand (App.main 57 of 100 samples, App.compute 42 of them its own):
# every view shows counts (type: samples), no time and no timeline, and
# the calls column says its calls are estimates.
cp "$srcdir/tests/fixtures/hprof-samples.txt" "$tmp/sampled.trace"
# A simpleperf recording, the one tests/unit-simpleperf encodes, whose
# comment works out its numbers: Foo.main 4 cpu-clock samples of 1 ms,
# thread main's samples one call of Foo.main from 0 to 3 ms on the
# chart, two of Foo.work and one of libc.so+0x1a2b between them.
"$builddir/tests/unit-simpleperf" --write "$tmp" >/dev/null &&
	mv "$tmp/simpleperf.trace" "$tmp/callstack.trace" ||
	skip_all "unit-simpleperf --write failed"
# long.trace: a call of over an hour (Worker.run, 4000 s on both
# clocks: 4000000.000 ms, so its columns switch to seconds, 4000.000),
# a method called 11163 times from it (a drill-down row's 11163/11163),
# a chart scale of seconds a column (at 50 columns "105.268s", whole,
# without "/col"), and two overloads of a method of a deep class (names
# cut from the left at 80 columns: packages go before the parameters).
awk 'BEGIN {
	print "format v1\nversion 3\nclock dual\nvm art\nthread 1 main"
	print "method 0x4 com.example.app.App main ()V App.java"
	print "method 0x8 com.example.app.sync.Worker run ()V Worker.java"
	print "method 0xc com.example.app.cache.Cache get (I)Ljava/lang/Object; Cache.java"
	print "method 0x10 com.example.app.feature.onboarding.UserViewModel remove (I)V U.java"
	print "method 0x14 com.example.app.feature.onboarding.UserViewModel remove (Ljava/lang/String;)V U.java"
	print "call 1 0x4 0 0 4000200000 4000200000 {"
	print "call 1 0x8 10 10 4000000010 4000000010 {"
	for (i = 0; i < 11163; i++)
		printf "call 1 0xc %d %d %d %d\n", 100 + i * 20, 100 + i * 20, 110 + i * 20, 110 + i * 20
	print "}"
	print "call 1 0x10 4000000100 4000000100 4000100100 4000100100"
	print "call 1 0x14 4000100200 4000100200 4000100300 4000100300"
	print "}"
}' >"$tmp/long.spec" && "$MKTRACE" "$tmp/long.spec" "$tmp/long.trace" ||
	skip_all "mktrace failed on long.spec"
# A trace in a folder, under a long name: the title shows the file's
# name, not the path, cut from the left before the view, scope, clock
# and range are.
mkdir -p "$tmp/recordings/field" &&
	cp "$tmp/calls.trace" \
		"$tmp/recordings/field/com.example.launcher-cold-start-2026-11-28.trace" ||
	skip_all "cannot copy calls.trace"
demo_trace "$tmp/demo.trace" || skip_all "mktrace failed on data/demo.spec"
"$MKTRACE" "$srcdir/tests/fixtures/v1-wall.spec" "$tmp/wall.trace" &&
	"$MKTRACE" "$srcdir/tests/fixtures/v2-cpu.spec" "$tmp/cpu.trace" ||
	skip_all "mktrace failed"

# The base-* cases open diff-new against diff-base (their specs' tables,
# cpu microseconds; the title says "vs diff-base.trace").  Profile deltas,
# NEW minus BASE per method by full name with the class dotted:
#   App.main      excl 40-40 = 0.000   incl 130-100 = +0.030
#   Foo.bar       excl 40-30 = +0.010  incl  60-40  = +0.020
#   j/u/HashMap   excl 30-40 = -0.010  incl  30-40  = -0.010 (main's)
#   j.u.HashMap   excl 20-40 = -0.020  incl  20-40  = -0.020 (worker's)
#   New.added     "new" (both); Old.gone is BASE's only: no row.
# Sorted by ΔExcl (SORT_NEXT*5), an absent method counts from zero:
# New.added +20, Foo.bar +10, App.main 0, j/u -10, j.u -20.  On the
# wall clock (CLOCK): App.main excl 60-80 = -0.020, incl 220-200 =
# +0.020; Foo.bar 0.000, +0.020; j/u -0.020, -0.020; j.u -0.040, -0.040.
# Icicle top-down, threads merged, base -> new inclusive cpu, >5% marks:
#   App.main 100 -> 130 slower; worker's HashMap.get 20 -> 20 as is;
#   App.main/Foo.bar 40 -> 60 slower; App.main/HashMap.get 10 -> 10 as
#   is; App.main/New.added absent, slower; App.main/Foo.bar/HashMap.get
#   10 -> 20 slower.
# Bottom-up (self times): App.main 40 -> 40 as is; Foo.bar 30 -> 40
# slower; j/u/HashMap.get 40 -> 30 and j.u/HashMap.get 40 -> 20 faster;
# New.added slower; HashMap.get<-Foo.bar 10 -> 20 slower,
# HashMap.get<-App.main 10 -> 10 as is.
# NAME | render options | trace | size | steps
cases() {
	cat <<'CASES'
start-80x24||calls|80x24|
start-120x40||calls|120x40|
start-wide-60x20|--roles|wide|60x20|
start-gen-80x24||gen|80x24|
columns-key-80x24||gen|80x24|key:m
columns-key-back-80x24||gen|80x24|key:m key:m
wide-expand-80x24||wide|80x24|ENTER
wide-threads-80x24||wide|80x24|VIEW_THREADS
wide-threads-44x12||wide|44x12|VIEW_THREADS
wide-scope-escaped-thread||wide|80x12|VIEW_THREADS MOVE_LAST ENTER
sort-excl||calls|100x16|SORT_NEXT SORT_NEXT
sort-calls-reverse||calls|100x16|SORT_NEXT SORT_NEXT SORT_NEXT SORT_REVERSE
sort-name||calls|100x16|SORT_PREV SORT_PREV
sort-keys||calls|100x16|key:s key:S
expand-recursive|--roles|calls|120x30|MOVE_LAST MOVE_UP ENTER
expand-callers|--roles|calls|120x30|MOVE_DOWN MOVE_DOWN MOVE_DOWN ENTER
expand-gen-recursive||gen|120x40|search:View\.draw ENTER
jump-to-child|--roles|calls|120x40|key:G key:k ENTER MOVE_DOWN*6 ENTER
jump-back|--roles|calls|120x40|key:G key:k ENTER MOVE_DOWN*6 ENTER key:[
jump-forward||calls|120x40|key:G key:k ENTER MOVE_DOWN*6 ENTER key:[ key:]
history-empty||calls|80x12|HISTORY_BACK
collapse-from-child|--roles|calls|120x30|key:G key:k ENTER MOVE_DOWN*3 COLLAPSE
back-out-closes-all|--roles|calls|80x24|ENTER MOVE_LAST BACK_OUT
clock-wall||calls|120x16|CLOCK
clock-both||calls|120x16|CLOCK CLOCK
clock-both-80x24||calls|80x24|CLOCK CLOCK
clock-cycle-back||calls|100x16|key:c key:c key:c
clock-wall-expanded||calls|120x30|MOVE_LAST MOVE_UP ENTER CLOCK
clock-single-wall||wall|80x12|CLOCK
clock-single-cpu||cpu|80x12|CLOCK
threads||calls|80x12|VIEW_THREADS
threads-sort-name||calls|80x12|VIEW_THREADS SORT_PREV SORT_PREV SORT_PREV
threads-sort-cpu||calls|80x12|VIEW_THREADS SORT_NEXT
threads-scope-one||calls|100x16|VIEW_THREADS MOVE_DOWN ENTER
threads-scope-title||calls|100x12|VIEW_THREADS MOVE_DOWN ENTER VIEW_THREADS
threads-tagged|--roles|calls|80x12|VIEW_THREADS TAG TAG
threads-tagged-scope||calls|100x16|VIEW_THREADS TAG TAG ENTER
threads-scope-all||calls|80x12|key:t MOVE_DOWN ENTER key:t SCOPE_ALL
info||calls|80x24|VIEW_INFO
info-wide||wide|80x24|key:i
help||calls|80x50|VIEW_HELP
frames||frames|100x16|VIEW_FRAMES
frames-roles|--roles|frames|100x16|VIEW_FRAMES
frames-gen-80x24||gen|80x24|key:J
frames-by-start||frames|100x16|VIEW_FRAMES SORT_NEXT
frames-key-8||frames|100x16|key:8 MOVE_DOWN
frames-enter-chart||frames|100x24|VIEW_FRAMES MOVE_DOWN ENTER
frames-hot|--roles|frames|100x16|VIEW_FRAMES EXPAND
frames-hot-calltree||frames|100x24|VIEW_FRAMES EXPAND ENTER
frames-mouse-hot||frames|100x16|VIEW_FRAMES mouse:0;80;5M mouse:0;80;5m mouse:0;80;5M@100
frames-filter||frames|100x16|VIEW_FRAMES filter:Render
frames-search||frames|100x16|VIEW_FRAMES search:measure
frames-none||calls|80x12|VIEW_FRAMES
frames-drop-measure||frames|100x16|VIEW_FRAMES EXPAND TRANSFORM_DROP
frames-back||frames|100x16|VIEW_FRAMES MOVE_DOWN ENTER HISTORY_BACK
calls-selected||frames|100x16|search:measure VIEW_CALLS
calls-by-start||frames|100x16|search:doFrame VIEW_CALLS SORT_NEXT SORT_NEXT
calls-enter-chart||frames|100x24|search:measure VIEW_CALLS MOVE_DOWN ENTER
calls-from-chart||frames|100x16|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN key:9
calls-filter||gen|100x16|search:doCallbacks VIEW_CALLS filter:Frame
calls-tab||frames|100x16|VIEW_FRAMES key:Tab
findings||triage|100x16|VIEW_FINDINGS
findings-roles|--roles|triage|100x16|key:! MOVE_DOWN
findings-enter-calls||triage|100x16|VIEW_FINDINGS ENTER
findings-enter-chart||triage|100x24|VIEW_FINDINGS ENTER ENTER
findings-calls-back||triage|100x16|VIEW_FINDINGS MOVE_DOWN ENTER BACK_OUT
findings-calls-wait||triage|100x16|VIEW_FINDINGS MOVE_DOWN ENTER
findings-tab||triage|100x16|VIEW_CALLS key:Tab
findings-filter||triage|100x16|VIEW_FINDINGS filter:worker
findings-none||calls|80x12|VIEW_FINDINGS
findings-threshold|--threshold R19=1 --threshold R6=200|triage|100x16|VIEW_FINDINGS
findings-enter-80||triage|80x24|VIEW_FINDINGS ENTER
findings-chart-back||triage|100x16|VIEW_FINDINGS ENTER ENTER BACK_OUT BACK_OUT
findings-calls-key||triage|100x16|VIEW_FINDINGS ENTER key:9
calls-mouse||frames|100x16|search:doFrame VIEW_CALLS mouse:0;10;4M mouse:0;10;4m mouse:0;10;4M@100
help-page-down||calls|80x24|key:? PAGE_DOWN
help-end||calls|80x24|key:? key:G
help-back-out||calls|80x12|VIEW_HELP BACK_OUT
view-cycle||calls|80x12|key:Tab key:Tab
search-match|--roles|calls|100x16|search:Lexer
search-prompt||calls|100x16|key:/ key:A key:p key:p
search-next|--roles|calls|80x16|key:/ key:A key:p key:p key:Enter key:n
search-none||calls|100x16|search:nomatch
search-bad||calls|100x16|search:(
search-anchor-name||calls|100x16|search:Lexer.next$
search-anchor-signature||calls|100x16|search:next.[(]\)I$
search-anchor-group||calls|100x16|search:(Lex)er\.next$
search-threads||calls|80x12|VIEW_THREADS search:pool
search-smart-case|--roles|calls|100x16|search:lexer
search-smart-case-upper||calls|100x16|search:lEXER
filter-profile||calls|100x16|filter:parse
filter-sort||calls|100x16|filter:app SORT_NEXT SORT_NEXT MOVE_DOWN
filter-expand|--roles|calls|120x30|filter:cache ENTER
filter-esc||calls|100x16|filter:app key:Esc
filter-empty||calls|100x16|filter:app filter:
filter-none||calls|100x16|filter:zzz
filter-search||calls|100x16|filter:app search:main|init key:n
filter-calltree||calls|100x16|VIEW_CALLTREE filter:parse
filter-threads||calls|80x12|VIEW_THREADS filter:pool
filter-threads-sort||calls|80x12|VIEW_THREADS filter:pool SORT_PREV*3
filter-frames-sort||frames|100x12|VIEW_FRAMES filter:Render SORT_NEXT
filter-help||calls|100x16|VIEW_HELP filter:sea
filter-icicle||calls|100x16|VIEW_ICICLE key:&
filter-help-headings||calls|100x16|VIEW_HELP filter:clock
title-path-80x24||recordings/field/com.example.launcher-cold-start-2026-11-28|80x24|
title-path-160x50||recordings/field/com.example.launcher-cold-start-2026-11-28|160x50|
title-transforms-80x24||calls|80x24|key:Z key:Z key:M
title-transforms-100x30||recordings/field/com.example.launcher-cold-start-2026-11-28|100x30|key:Z
title-transforms-160x50||calls|160x50|key:Z key:Z key:M
title-transforms-info||calls|100x40|key:Z key:Z key:M key:i
filter-prompt||calls|100x16|key:& key:a
long-profile-80x24||long|80x24|MOVE_DOWN ENTER
long-profile-100x30||long|100x30|MOVE_DOWN ENTER
long-profile-160x50||long|160x50|MOVE_DOWN ENTER
long-profile-cpu-80x24||long|80x24|key:c MOVE_DOWN ENTER
long-profile-names-80x24||long|80x24|key:c MOVE_LAST
long-calltree-80x24||long|80x24|key:C key:g key:E
long-calltree-160x50||long|160x50|key:C key:g key:E
long-icicle-80x24||long|80x24|key:f
long-chart-100x30||long|100x30|VIEW_TIMELINE MOVE_DOWN*3 ZOOM_CALL
long-chart-scale-50x10||long|50x10|key:T
full-names-key||calls|100x16|key:A
full-names-back||calls|100x16|key:A key:A
full-names-calltree||calls|120x16|key:A VIEW_CALLTREE
unbound-key||calls|80x12|key:x
transform-merge||calls|100x16|MOVE_DOWN key:M
transform-focus-drop||calls|100x16|MOVE_DOWN key:F MOVE_DOWN key:D
transform-group-twice||calls|100x16|key:Z key:Z
transform-undo-redo||calls|100x16|MOVE_DOWN key:M key:Z key:[ key:[ key:]
transform-merge-selects-caller||demo|120x20|VIEW_TIMELINE search:Choreographer\.doFrame key:M key:C
transform-merge-caller-profile||demo|120x20|search:Choreographer\.doFrame key:M
transform-drop-twice||demo|120x20|VIEW_TIMELINE search:Choreographer\.doFrame key:D key:D
transform-recursion-refused||demo|120x20|search:Choreographer\.doFrame key:R
transform-undo-keys||calls|100x16|MOVE_DOWN key:M key:Z key:U key:U
transform-redo-keys||calls|100x16|MOVE_DOWN key:M key:Z key:U key:U key:C-r
transform-undo-none||calls|100x16|key:U
chart-drawer-first||drawer|100x20|VIEW_TIMELINE
chart-drawer-reverse||drawer|100x20|VIEW_TIMELINE key:S
chart-idle-shown||drawer|100x20|VIEW_TIMELINE key:H
chart-idle-range||drawer|100x20|VIEW_TIMELINE MOVE_DOWN key:v key:V
chart-idle-range-shown||drawer|100x20|VIEW_TIMELINE MOVE_DOWN key:v key:V key:H
chart-fold-all||drawer|100x20|VIEW_TIMELINE key:O
chart-unfold-all||drawer|100x20|VIEW_TIMELINE key:O key:O
calltree-both-clocks||demo|130x16|key:c key:c key:C
calltree-both-clocks-bottom-up||demo|130x16|key:c key:c key:C key:b
calltree-studio-bottom-up||demo|120x24|search:Choreographer\.doFrame key:C key:b
calltree-hot-80||demo|120x30|key:C key:g key:j key:j key:e
calltree-hot-root-splits||demo|120x30|key:C key:g key:e
icicle-invert-keeps-zoom||demo|100x14|search:Choreographer\.doFrame key:f key:Enter key:b
icicle-invert-back-keeps-zoom||demo|100x14|search:Choreographer\.doFrame key:f key:Enter key:b key:b
list-position-filter||demo|100x12|filter:Choreographer MOVE_DOWN
transform-drop-everything||cpu|100x12|key:D key:D
transform-focus-threads||demo|100x12|search:ViewRootImpl\.performMeasure key:F VIEW_THREADS
transform-focus-title||demo|170x10|search:ViewRootImpl\.performMeasure key:F key:c
transform-list||demo|100x10|search:ViewRootImpl\.performMeasure key:F MOVE_DOWN*2 key:D
transform-focus-path||calls|100x14|VIEW_ICICLE MOVE_DOWN*3 key:F VIEW_PROFILE
page-down||gen|80x24|PAGE_DOWN PAGE_DOWN MOVE_DOWN
resize-larger||gen|80x24|PAGE_DOWN PAGE_DOWN MOVE_DOWN size:120x40
resize-smaller||gen|120x40|MOVE_LAST size:80x24
resize-too-small||calls|80x24|ENTER size:39x24
resize-and-back||calls|80x24|ENTER size:30x6 size:80x24
too-narrow||calls|39x24|
too-short||calls|80x7|
minimum-40x8||calls|40x8|
ascii|--ascii|calls|80x24|MOVE_LAST MOVE_UP ENTER
ascii-wide|--ascii|wide|60x20|ENTER
ascii-threads|--ascii|wide|80x12|VIEW_THREADS
icicle-100x24|--roles|icicle|100x24|VIEW_ICICLE
icicle-80x24|--roles|icicle|80x24|key:f
icicle-120x40||icicle|120x40|key:f
icicle-move|--roles|icicle|100x16|key:f key:j key:j key:l
icicle-move-back||icicle|100x16|key:f key:j key:j key:l key:h key:k
icicle-move-last||icicle|100x16|key:f key:G
icicle-scroll|--roles|icicle|80x8|key:f key:j key:j key:j key:l key:j
icicle-zoom|--roles|icicle|100x16|key:f key:j key:Enter
icicle-zoom-deeper||icicle|80x16|key:f key:j key:j key:Enter
icicle-zoom-out||icicle|80x16|key:f key:j key:j key:Enter key:u
icicle-zoom-home||icicle|80x16|key:f key:j key:j key:Enter key:u key:u key:u
icicle-back-to-profile||icicle|80x16|key:f key:u
icicle-inverted|--roles|icicle|100x16|key:f key:b
icicle-inverted-80x24||icicle|80x24|key:f key:b
icicle-inverted-zoom||icicle|100x16|key:f key:b key:g key:l key:j key:Enter
icicle-inverted-back||icicle|100x16|key:f key:b key:b
icicle-search|--roles|icicle|100x16|key:f search:Lexer|Parser
icicle-search-next|--roles|icicle|100x16|key:f search:Lexer|Parser key:n key:n
icicle-search-prev||icicle|100x16|key:f search:Lexer|Parser key:N
icicle-search-zoom||icicle|100x16|key:f search:Lexer|Parser key:k key:Enter
icicle-search-inverted|--roles|icicle|100x16|key:f key:b search:Parser
icicle-ascii|--ascii|icicle|80x24|key:f key:j key:j
icicle-ascii-inverted|--ascii|icicle|80x24|key:f key:b search:Lexer
icicle-clock-wall||icicle|100x16|key:f key:c
icicle-from-profile||icicle|100x16|MOVE_DOWN*4 key:f
icicle-to-profile||icicle|100x16|key:f key:j key:j key:p
icicle-scope-one-thread||icicle|100x16|key:t MOVE_DOWN ENTER key:f
icicle-resize||icicle|100x16|key:f key:j key:j size:80x24
icicle-two-roots||cpu|80x12|key:f
timeline-80x24|--roles|timeline|80x24|VIEW_TIMELINE
timeline-60x16||timeline|60x16|key:T
timeline-130x16||timeline|130x16|key:2
timeline-from-tab||timeline|80x12|key:Tab
timeline-ascii|--ascii|timeline|80x12|VIEW_TIMELINE
timeline-ascii-roles|--ascii --roles|timeline|80x12|VIEW_TIMELINE ZOOM_IN
timeline-minimum-40x8||timeline|40x8|VIEW_TIMELINE
timeline-zoom-in|--roles|timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN
timeline-zoom-1us||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*4
timeline-zoom-limit||timeline|80x12|VIEW_TIMELINE EXPAND*15 key:+ key:+ key:+ key:+ key:=
timeline-zoom-out||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*3 key:-
timeline-zoom-out-all||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*3 ZOOM_OUT*3
timeline-zoom-out-limit||timeline|80x12|VIEW_TIMELINE ZOOM_OUT
timeline-fit||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*3 key:0
timeline-move||timeline|80x12|VIEW_TIMELINE key:l key:l key:l key:h
timeline-move-scrolls||timeline|80x12|VIEW_TIMELINE ZOOM_IN*2 EXPAND*75
timeline-pan|--roles|timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*2 PAGE_DOWN
timeline-pan-back||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN*2 PAGE_DOWN PAGE_UP
timeline-pan-call||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN ZOOM_IN*3 PAGE_DOWN
timeline-last||timeline|80x12|VIEW_TIMELINE ZOOM_IN*2 MOVE_LAST
timeline-first||timeline|80x12|VIEW_TIMELINE ZOOM_IN*2 MOVE_LAST MOVE_FIRST
timeline-scroll||timeline|80x9|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN
timeline-sort-name||timeline|80x12|VIEW_TIMELINE SORT_NEXT
timeline-sort-reverse||timeline|80x12|VIEW_TIMELINE MOVE_DOWN SORT_REVERSE
chart-demo-fit||demo|120x40|VIEW_TIMELINE
chart-demo-mono|--ascii|demo|100x30|VIEW_TIMELINE MOVE_DOWN*6 key:z ZOOM_OUT*2
select-chart-longest||demo|120x30|VIEW_TIMELINE search:Choreographer\.doFrame key:L
select-chart-calltree||demo|120x30|VIEW_TIMELINE search:Choreographer\.doFrame key:L key:C
select-chart-icicle||demo|120x30|VIEW_TIMELINE search:Choreographer\.doFrame key:L key:f
select-chart-profile||demo|120x30|VIEW_TIMELINE search:Choreographer\.doFrame key:L key:p
select-profile-longest||demo|120x30|search:Choreographer\.doFrame key:L
select-profile-next||demo|120x30|search:Choreographer\.doFrame key:. key:.
select-calltree-chart||demo|120x30|key:C search:Choreographer\.doFrame key:T
chart-down|--roles|timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN
chart-down-leaf||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*4
chart-up-to-header||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN MOVE_UP MOVE_UP
chart-back-out||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 key:u
chart-back-out-twice||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 key:u key:Esc
chart-header-up||timeline|100x24|VIEW_TIMELINE key:Space key:j key:k
chart-right|--roles|timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN key:l key:l
chart-right-last||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND*4
chart-left||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND*3 key:h
chart-across-callers||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 EXPAND
chart-last-at-depth||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 key:G
chart-zoom-call|--roles|timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND key:z
chart-zoom-call-fit||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND key:z key:0
chart-zoom-no-call||timeline|80x12|VIEW_TIMELINE ZOOM_CALL
chart-folded|--roles|timeline|100x24|VIEW_TIMELINE key:Space
chart-folded-enter||timeline|100x24|VIEW_TIMELINE key:Enter key:j key:Enter key:k key:Enter
chart-deeper||timeline|80x8|VIEW_TIMELINE
chart-deeper-scroll||timeline|80x8|VIEW_TIMELINE MOVE_DOWN*2 EXPAND MOVE_DOWN key:G MOVE_DOWN
chart-clock|--roles|timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND key:W
chart-clock-back||timeline|100x24|VIEW_TIMELINE key:W key:W
chart-clock-single||cpu|80x12|VIEW_TIMELINE key:W
chart-search|--roles|timeline|100x24|VIEW_TIMELINE search:Net|Binder
chart-search-next||timeline|100x24|VIEW_TIMELINE search:Net|Binder key:n
chart-search-next-2||timeline|100x24|VIEW_TIMELINE search:Net|Binder key:n key:n
chart-search-prev||timeline|100x24|VIEW_TIMELINE search:Net|Binder key:n key:n key:N
chart-search-none||timeline|80x12|VIEW_TIMELINE search:NoSuch
timeline-enter|--roles|timeline|80x12|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND ENTER
timeline-enter-profile||timeline|100x16|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND ENTER VIEW_PROFILE
timeline-call-profile||timeline|100x24|MOVE_DOWN*5 VIEW_TIMELINE CALL_NEXT
timeline-call-next||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 EXPAND ENTER key:. key:.
timeline-call-prev||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 EXPAND ENTER CALL_NEXT*3 key:,
timeline-call-last||timeline|100x24|VIEW_TIMELINE MOVE_DOWN*3 EXPAND ENTER CALL_NEXT*7
timeline-call-longest|--roles|timeline|100x24|VIEW_TIMELINE search:Net key:n key:Enter key:L
timeline-range-mark|--roles|timeline|80x12|VIEW_TIMELINE ZOOM_IN EXPAND*20 key:v EXPAND*39
timeline-range-apply|--roles|timeline|80x12|VIEW_TIMELINE ZOOM_IN EXPAND*20 RANGE_START EXPAND*39 key:V
timeline-range-profile||timeline|100x16|VIEW_TIMELINE ZOOM_IN EXPAND*20 RANGE_START EXPAND*39 RANGE_APPLY VIEW_PROFILE
timeline-range-profile-wall||timeline|100x16|VIEW_TIMELINE ZOOM_IN EXPAND*20 RANGE_START EXPAND*39 RANGE_APPLY VIEW_PROFILE CLOCK
timeline-range-clear||timeline|80x12|VIEW_TIMELINE ZOOM_IN EXPAND*20 RANGE_START EXPAND*39 RANGE_APPLY key:X
timeline-range-calls||timeline|100x24|VIEW_TIMELINE MOVE_DOWN MOVE_DOWN key:v EXPAND key:V
timeline-range-cancel||timeline|80x12|VIEW_TIMELINE EXPAND*10 RANGE_START EXPAND*3 BACK_OUT
timeline-range-none||timeline|80x12|VIEW_TIMELINE RANGE_APPLY
timeline-resize||timeline|80x12|VIEW_TIMELINE EXPAND*15 ZOOM_IN size:60x16
timeline-scope-one||timeline|80x12|key:t MOVE_DOWN ENTER key:T
timeline-cpu-only||cpu|80x12|VIEW_TIMELINE
timeline-wide-names|--roles|wide|80x12|VIEW_TIMELINE
timeline-wide-ascii|--ascii|wide|80x12|VIEW_TIMELINE
calltree-top-down|--roles|icicle|100x16|key:C
calltree-bottom-up||icicle|100x16|key:C key:b
calltree-bottom-up-open||icicle|100x16|key:C key:b key:g key:j key:l key:j key:l key:j
calltree-expand-hot||icicle|100x16|key:C key:g key:e
calltree-expand-all|--ascii|icicle|100x24|key:C key:g key:E
calltree-collapse-parent||icicle|100x16|key:C key:g key:e key:h key:h
calltree-sort-resets||icicle|100x16|key:C key:g key:e key:s
calltree-search||icicle|100x16|key:C key:g key:E search:Lexer key:n
calltree-search-opens|--roles|icicle|100x16|key:C key:g search:Lexer key:n
calltree-clock-wall||icicle|100x16|key:C key:c
calltree-scope-one||icicle|100x16|key:t MOVE_DOWN ENTER key:C
calltree-scope-back||icicle|100x16|key:C key:g key:E key:b key:t MOVE_DOWN ENTER key:C key:t SCOPE_ALL key:C key:b
calltree-range||timeline|100x16|VIEW_TIMELINE ZOOM_IN EXPAND*20 RANGE_START EXPAND*39 RANGE_APPLY key:C
calltree-from-profile||icicle|100x16|MOVE_DOWN*2 key:C
calltree-bottom-up-from-profile||icicle|100x16|MOVE_DOWN*2 key:C key:b
calltree-and-back||icicle|100x16|MOVE_DOWN*2 key:C key:p
calltree-to-profile||icicle|100x16|MOVE_DOWN*2 key:C key:j key:p
calltree-to-icicle||icicle|100x16|MOVE_DOWN*2 key:C key:j key:f
calltree-from-icicle||icicle|100x16|key:f key:j key:j key:C
calltree-enter-profile||icicle|100x16|key:C key:g key:e key:Enter
calltree-from-drill-down||calls|100x16|key:G key:k ENTER MOVE_DOWN*6 key:C
calltree-narrow||gen|60x16|key:C key:g key:E
calltree-80x24||gen|80x24|key:C key:g key:e
calltree-bottom-up-ascii|--ascii|gen|80x24|key:C key:b key:g key:j key:e
base-profile|--roles --base diff-base.trace|diff-new|120x12|
base-profile-sort|--roles --base diff-base.trace|diff-new|120x12|SORT_NEXT*5
base-profile-wall|--roles --base diff-base.trace|diff-new|120x12|CLOCK
base-icicle|--roles --base diff-base.trace|diff-new|100x12|key:f
base-icicle-status|--roles --base diff-base.trace|diff-new|100x12|key:f key:j
base-icicle-new|--base diff-base.trace|diff-new|100x12|key:f key:j key:l
base-icicle-inverted|--roles --base diff-base.trace|diff-new|100x12|key:f key:b
base-gone-80x24|--roles --base diff-base.trace|diff-new|80x24|MOVE_LAST
base-gone-100x30|--base diff-base.trace|diff-new|100x30|
base-gone-160x50|--base diff-base.trace|diff-new|160x50|
base-gone-sort|--base diff-base.trace|diff-new|120x12|SORT_NEXT*7
base-gone-full|--base diff-base.trace|diff-new|120x12|key:A
base-gone-filter|--base diff-base.trace|diff-new|120x12|filter:Old
base-narrow-60x16|--base diff-base.trace|diff-new|60x16|
base-narrow-cpu-50x16|--base diff-base.trace|diff-new|50x16|key:c
base-icicle-legend-80x24|--roles --base diff-base.trace|diff-new|80x24|key:f
sampled-profile||sampled|120x10|
pprof-profile||heap|100x12|
pprof-address||heap|100x12|MOVE_LAST MOVE_UP
pprof-timeline||heap|80x8|VIEW_TIMELINE
pprof-icicle||heap|100x12|key:f
pprof-threads||heap|100x8|VIEW_THREADS
pprof-drilldown||heap|100x10|MOVE_DOWN ENTER
pprof-count-profile|--sample-type objects|heap|100x10|
pprof-calltree||heap|100x12|VIEW_CALLTREE key:E
pprof-calltree-bottom-up||heap|100x10|VIEW_CALLTREE key:b
pprof-base-profile|--base heap.trace|grown|110x10|
pprof-base-icicle|--roles --base heap.trace|grown|100x10|key:f key:j key:j
sample-type-not-pprof||calls|80x12|key:y
mouse-wheel-profile||gen|80x12|mouse:65;10;5M mouse:65;10;5M
mouse-wheel-profile-up||gen|80x12|MOVE_DOWN*12 mouse:64;10;5M
mouse-wheel-chart-pan||gen|100x16|VIEW_TIMELINE ZOOM_IN*3 mouse:65;50;5M
mouse-wheel-chart-threads||gen|100x16|VIEW_TIMELINE mouse:65;5;5M
mouse-drag-axis-shown||gen|100x16|VIEW_TIMELINE mouse:0;26;2M mouse:32;45;2M
mouse-outside-view||calls|80x16|mouse:0;10;1M mouse:0;10;15M mouse:0;10;16M
mouse-filter-wheel||gen|80x12|filter:view mouse:65;10;5M mouse:65;10;5M mouse:0;10;4M
hprof-timeline||sampled|80x8|VIEW_TIMELINE
hprof-icicle||sampled|100x10|key:f
threads-click-box||calls|80x8|VIEW_THREADS mouse:0;2;3M
threads-click-last-box||calls|80x8|VIEW_THREADS mouse:0;2;3M mouse:0;2;4M mouse:0;2;5M
hprof-threads||sampled|100x8|VIEW_THREADS
hprof-calltree||sampled|100x10|VIEW_CALLTREE key:e
simpleperf-profile||callstack|110x10|
simpleperf-chart||callstack|100x14|VIEW_TIMELINE
CASES
}

set -f # steps like key:? are not patterns
# queue OUT ERR ARGS...: a render of ARGS (run in $tmp) for run_queued,
# its screen to $tmp/OUT and its messages to $tmp/ERR.
: >"$tmp/queue"
queue() {
	q_ifs=$IFS
	IFS='	'
	printf '%s\n' "$*" >>"$tmp/queue"
	IFS=$q_ifs
}
# run_queued: every queued render in one process (tests/render --batch),
# "STATUS<TAB>OUT" of each in $tmp/status; one test that every one ran.
run_queued() {
	(cd "$tmp" && "$RENDER" --batch queue) >"$tmp/status" 2>"$tmp/batch.err"
	q_rc=$?
	q_want=$(wc -l <"$tmp/queue")
	q_got=$(wc -l <"$tmp/status")
	[ $q_rc -eq 0 ] && [ "$q_got" -eq "$q_want" ]
	ok $? "render --batch ran all $q_want renders (exit $q_rc, $q_got ran)"
	[ "$q_got" -eq "$q_want" ] || diag <"$tmp/batch.err"
	: >"$tmp/queue"
}

# The renders go to $tmp/got, compared with their goldens by one diff -rq
# after the batch (rather than a cmp each).
mkdir "$tmp/got"
: >"$tmp/pending"
# make check renders one case of each kind on the demo trace (the
# dearest to load: some 50 ms a render), and none of a kind a smaller
# trace's case shows (transform-merge on calls.trace, timeline-fit and
# timeline-call-longest on timeline.trace); check-long adds them all.
long_only=' calltree-both-clocks-bottom-up calltree-studio-bottom-up
	calltree-hot-root-splits icicle-invert-back-keeps-zoom
	transform-merge-selects-caller transform-drop-twice
	transform-focus-threads transform-list chart-demo-mono
	select-chart-calltree select-chart-icicle select-chart-profile
	select-profile-next select-calltree-chart
	transform-merge-caller-profile chart-demo-fit select-chart-longest '
long_only=$(printf '%s' "$long_only" | tr '\t\n' '  ')
cases | while IFS='|' read -r name opts trace size steps; do
	case "$long:$long_only" in
	":"*" $name "*) continue ;;
	esac
	# Word splitting of $opts and $steps is wanted: no step has blanks.
	# shellcheck disable=SC2086
	queue "got/$name.txt" "$name.err" $opts "$trace.trace" "$size" $steps
done
# The icicle's frames against `tracetui tree --no-thread`: on every
# level, the runs of frame roles (hues, cursor, match) must be the
# columns [t0 * W / T, t1 * W / T) of every call path at least T / W
# long, where [t0, t1) is its time from the start with children laid out
# in the tree's order and T the roots' time.
"$TRACETUI" tree --no-thread --clock wall --format tsv "$tmp/icicle.trace" \
	>"$tmp/icicle.tsv"
tree_spans() {
	awk -F'\t' -v w="$1" -f "$tmp/spans.awk" "$tmp/icicle.tsv"
}
cat >"$tmp/spans.awk" <<'AWK'
NR > 1 { d[n + 0] = $5; t[n++] = $2 }
END {
	for (i = 0; i < n; i++)
		if (d[i] == 0)
			total += t[i]
	for (i = 0; i < n; i++) {
		s = at[d[i]] + 0
		at[d[i]] = s + t[i]
		at[d[i] + 1] = s
		if (t[i] * w < total)
			continue
		x0 = int(s * w / total)
		x1 = int((s + t[i]) * w / total)
		line[d[i]] = line[d[i]] " " x0 "-" x1
		if (d[i] > deepest)
			deepest = d[i]
	}
	for (i = 0; i <= deepest; i++)
		print "L" i ":" line[i]
}
AWK
# The runs on the first `levels` levels of a render's roles: the lines
# after the header's (the third line on after "--- roles").
cat >"$tmp/runs.awk" <<'AWK'
roles && ++k >= 3 && k <= levels + 2 {
	out = "L" k - 3 ":"
	start = -1
	for (x = 1; x <= length($0) + 1; x++) {
		c = substr($0, x, 1)
		frame = c ~ /[0-9CM]/
		if (start >= 0 && (!frame || c != prev)) {
			out = out " " start "-" (x - 1)
			start = -1
		}
		if (frame && start < 0)
			start = x - 1
		prev = c
	}
	print out
}
/^--- roles$/ { roles = 1 }
AWK
spans_sizes="100x24 80x24 120x40"
for size in $spans_sizes; do
	queue "spans-$size.txt" "spans-$size.err" --roles icicle.trace "$size" \
		VIEW_ICICLE
done

# Pairs of renders that must draw the same: pair N's go to $tmp/a/N.txt
# and $tmp/b/N.txt, compared by one diff -rq once the batch has run;
# $tmp/pairs holds N, the order of a failure's diff and the test's name.
mkdir "$tmp/a" "$tmp/b"
: >"$tmp/pairs"
npairs=0
# pair ORDER WHAT TRACE SIZE STEPS-A STEPS-B: queue one.
pair() {
	npairs=$((npairs + 1))
	# shellcheck disable=SC2086
	queue "a/$npairs.txt" "a/$npairs.err" --roles "$3" "$4" $5
	# shellcheck disable=SC2086
	queue "b/$npairs.txt" "b/$npairs.err" --roles "$3" "$4" $6
	printf '%s\t%s\t%s\n' $npairs "$1" "$2" >>"$tmp/pairs"
}

# The whole trace's trees are kept while another scope shows, and another
# scope's bottom-up tree is built by a warmup job: coming back to a scope,
# or taking its job's tree, draws what the first visit drew.
same_renders() {
	pair ab "icicle: '$2' draws as '$1'" icicle.trace 100x16 "$1" "$2"
}
one="key:t MOVE_DOWN ENTER"
back="key:t SCOPE_ALL key:f"
same_renders "key:f key:b" "key:f key:b $one key:f $back"
same_renders "key:f key:b" "key:f $one key:f $back key:b"
same_renders "key:f key:j key:l key:b" "key:f key:j key:l key:b key:b $one key:f $back key:b"
same_renders "$one key:f key:b" "$one key:f $back key:t ENTER key:f key:b"
same_renders "key:f key:b $one key:f" \
	"key:f key:b $one key:f $back key:t ENTER key:f"

# The call chart keeps both clocks' indexes (the other one from the
# warmup): W twice draws what it drew, the selection included (a switch
# fits the chart to the span again; a key clears the switch's message).
pair ab "chart: W twice draws what it drew" timeline.trace 100x24 \
	"VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND key:C-l" \
	"VIEW_TIMELINE MOVE_DOWN MOVE_DOWN EXPAND key:W key:W key:C-l"
pair ab "chart: W four times draws what W twice did" timeline.trace 100x24 \
	"VIEW_TIMELINE MOVE_DOWN key:W key:W" \
	"VIEW_TIMELINE MOVE_DOWN key:W key:W key:W key:W"

# The mouse does what the keys do: the same screen after each pair (a
# step is an SGR report, 1-based cells; @N: N ms after the last one).
same_steps() {
	pair ba "mouse: $5" "$1.trace" "$2" "$3" "$4"
}
press=mouse:0\;10\;5M release=mouse:0\;10\;5m
same_steps calls 80x16 "$press $release" "MOVE_DOWN*2" \
	"a click selects the profile row under it"
same_steps calls 80x16 "$press $release $press" "MOVE_DOWN*2 ENTER" \
	"a click on the selected row opens it"
same_steps calls 80x16 "mouse:0;10;3M mouse:0;10;3m@30 mouse:0;10;3M@60" \
	"ENTER" "a double click on the selected row opens it once"
same_steps calls 80x16 "mouse:0;10;3M mouse:0;10;3M@600" "ENTER ENTER" \
	"two clicks far apart in time are two Enters"
same_steps calls 80x16 "mouse:2;10;5M mouse:1;10;5M" "" \
	"right and middle clicks select nothing"
# At 80 columns both clocks show Incl Cpu ms (sort column 1, cells 1 to
# 13), Wall% (4, the share on the sorted clock), Incl Wall ms (5,
# sorted, cells 21 to 35), Excl Wall ms (7) and Name (11).
same_steps calls 80x16 "MOVE_DOWN*2 mouse:0;3;2M" "MOVE_DOWN*2 SORT_PREV*4" \
	"a click on a column's header sorts by it, the cursor on top"
same_steps calls 80x16 "mouse:0;32;2M" "SORT_REVERSE" \
	"a click on the sorted column's header reverses the order"
same_steps calls 80x16 "mouse:0;70;2M mouse:0;70;2M@600" "SORT_PREV*6 SORT_REVERSE" \
	"clicks on Name's header sort by name, then reverse"
same_steps calls 80x12 "VIEW_THREADS mouse:0;10;2M" "VIEW_THREADS SORT_PREV*3" \
	"a click on the threads' Name header sorts by name"
same_steps calls 80x12 "VIEW_THREADS mouse:0;65;2M" "VIEW_THREADS SORT_REVERSE" \
	"a click on the threads' sorted header reverses the order"
same_steps calls 80x12 "VIEW_THREADS mouse:0;5;4M" "VIEW_THREADS MOVE_DOWN" \
	"a click selects a thread"
same_steps calls 80x12 "VIEW_THREADS mouse:0;5;4M mouse:0;5;4M" \
	"VIEW_THREADS MOVE_DOWN ENTER" "a click on the selected thread scopes"
same_steps gen 80x24 "key:C mouse:0;10;5M mouse:0;10;5M" \
	"key:C MOVE_DOWN ENTER" "a call tree row: click, then Enter"
same_steps calls 80x24 "key:? mouse:65;5;5M" "key:? MOVE_DOWN*3" \
	"a wheel notch scrolls the help three lines"
same_steps calls 80x24 "key:? mouse:0;5;5M" "key:?" \
	"a click in the help changes nothing"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;16;5M" \
	"VIEW_TIMELINE MOVE_DOWN*2" "a click selects the bar under it"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;16;5M mouse:0;16;5M" \
	"VIEW_TIMELINE MOVE_DOWN*2 ENTER" "a click on the selected bar is Enter"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;40;3M" "VIEW_TIMELINE ENTER" \
	"a click on a thread's header folds it"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;40;3M mouse:0;40;3m@20 \
mouse:0;40;3M@40" "VIEW_TIMELINE ENTER" "a double click on a header folds once"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;26;2M mouse:32;30;2M \
mouse:32;45;2M mouse:0;45;2m" \
	"VIEW_TIMELINE EXPAND*10 RANGE_START EXPAND*19 RANGE_APPLY" \
	"a drag along the scale applies the range v and V make"
same_steps gen 100x30 "VIEW_TIMELINE mouse:0;26;2M mouse:0;26;2m" \
	"VIEW_TIMELINE EXPAND*10" "a click on the scale moves the time cursor"
same_steps gen 100x30 "VIEW_TIMELINE ZOOM_IN*3 mouse:65;50;5M mouse:64;50;5M" \
	"VIEW_TIMELINE ZOOM_IN*3" "the wheel pans the chart and back"
same_steps icicle 100x16 "key:f mouse:0;1;5M" "key:f key:j key:j" \
	"a click selects the frame under it"
same_steps icicle 100x16 "key:f mouse:0;1;5M mouse:0;1;5M" \
	"key:f key:j key:j key:Enter" "a click on the selected frame zooms"
same_steps icicle 100x16 "key:f mouse:0;1;5M mouse:0;1;5M mouse:0;1;2M" \
	"key:f key:j key:j key:Enter key:u" "a click on the breadcrumb zooms out"
same_steps icicle 100x16 "key:f mouse:65;1;5M mouse:65;1;5M mouse:64;1;5M" \
	"key:f key:j key:j key:k" "the wheel moves the frame a level"
# With a filter the mouse acts on the rows shown, as the keys do (keys,
# not requests: a press clears the filter's count as a key does).
j3="key:j key:j key:j"
same_steps calls 80x16 "filter:parse mouse:0;10;4M" "filter:parse key:j" \
	"filtered: a click selects the second row shown"
same_steps calls 80x16 "filter:parse mouse:0;10;4M mouse:0;10;4M" \
	"filter:parse key:j key:Enter" \
	"filtered: a click on the selection opens it"
same_steps calls 80x16 "filter:parse mouse:0;10;3M mouse:0;10;3m@30 \
mouse:0;10;3M@60" "filter:parse key:Enter" \
	"filtered: a double click opens once"
same_steps calls 80x16 "filter:parse mouse:0;10;5M" "filter:parse key:k" \
	"filtered: a click below the rows shown selects nothing"
same_steps calls 80x16 "filter:parse mouse:65;10;5M" "filter:parse $j3" \
	"filtered: the wheel moves among the rows shown"
same_steps calls 80x16 "VIEW_CALLTREE filter:parse mouse:0;10;5M" \
	"VIEW_CALLTREE filter:parse key:j key:j" "filtered call tree: a click"
same_steps calls 80x12 "VIEW_THREADS filter:e mouse:0;5;4M" \
	"VIEW_THREADS filter:e key:j" "filtered threads: a click"
same_steps calls 80x24 "key:? filter:e mouse:65;5;5M" "key:? filter:e $j3" \
	"filtered help: a notch scrolls three lines shown"

# The profile's numbers at 80 columns against `report`'s for the same
# scope, converted from the unit each column's title says (ms, or s
# where its times switched): every row shown must be a row of report's,
# on every time and count column shown; on long.trace (seconds) and on
# a real trace with a blocked main thread (both clocks, then one).
compare_traces="long.trace"
launcher=$SHARED_TRACES/Launcher__app.trace
if [ -f "$launcher" ]; then
	ln -s "$launcher" "$tmp/launcher.trace"
	compare_traces="$compare_traces launcher.trace"
fi
for t in $compare_traces; do
	"$TRACETUI" report --format tsv "$tmp/$t" >"$tmp/$t.tsv"
	queue "same-$t-both.txt" "same-$t-both.err" "$t" 80x24
	queue "same-$t-cpu.txt" "same-$t-cpu.err" "$t" 80x24 key:c
	queue "same-$t-wall.txt" "same-$t-wall.err" "$t" 80x24 key:c key:c
done
cat >"$tmp/same.awk" <<'AWK'
# report's TSV (the first file), then a screen: each row's numbers.
FNR == 1 && NR == 1 { next }
NR == FNR {
	rows[NR] = $2 "+" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7
	n = NR
	next
}
FNR == 1 { clock = $0 ~ /clock: cpu \|/ ? "cpu" : "wall"; next }
FNR == 2 {
	gsub(/[▼▲]/, "")
	sub(/^ +/, "")
	sub(/ +row [0-9]+ of [0-9]+ *$/, "")
	ncol = split($0, title, /  +/) - 1
	next
}
/^[^ ]/ || NF < ncol + 1 { next }
{
	shown++
	for (r = 2; r <= n; r++) {
		split(rows[r], f, "\t")
		ok = 1
		for (i = 1; i <= ncol && ok; i++) {
			t = title[i]
			if (t ~ /^Calls/) {
				ok = $i == f[1]
				continue
			}
			if (t !~ / (ms|s)$/ || t ~ /Call/)
				continue
			unit = t ~ / ms$/ ? 1000 : 1000000
			which = t ~ /Cpu/ ? "cpu" : t ~ /Wall/ ? "wall" : clock
			col = (t ~ /^Incl/ ? 2 : 3) + (which == "wall" ? 2 : 0)
			d = $i * unit - f[col]
			ok = (d < 0 ? -d : d) <= (unit == 1000 ? 0.5 : 500)
		}
		if (ok)
			break
	}
	if (!ok)
		print "no report row has: " $0
}
END {
	if (!shown)
		print "no row shown"
}
AWK

# Every render queued above, in one process.
run_queued
for t in $compare_traces; do
	for k in both cpu wall; do
		awk -F'\t' -f "$tmp/same.awk" "$tmp/$t.tsv" FS=' ' \
			"$tmp/same-$t-$k.txt" >"$tmp/same.out"
		[ ! -s "$tmp/same.out" ]
		ok $? "$t, $k, 80x24: the profile's numbers are report's"
		diag <"$tmp/same.out"
	done
done

while IFS='	' read -r rc name; do
	case $name in got/*) ;; *) continue ;; esac
	name=${name#got/}
	name=${name%.txt}
	if [ -n "$REGENERATE" ] && [ $rc -eq 0 ]; then
		cp "$tmp/got/$name.txt" "$golden/$name.txt"
		ok 0 "$name (regenerated)"
	elif [ $rc -ne 0 ]; then
		ok 1 "$name: render exited with $rc"
		diag <"$tmp/$name.err"
	elif [ ! -f "$golden/$name.txt" ]; then
		ok 1 "$name: no golden (run with REGENERATE=1)"
	else
		echo "$name" >>"$tmp/pending"
	fi
done <"$tmp/status"
differ=$(diff -rq "$golden" "$tmp/got" 2>/dev/null |
	sed -n 's|^Files .* and .*/\([^/]*\)\.txt differ$|\1|p' | tr '\n' ' ')
while IFS= read -r name; do
	case " $differ " in
	*" $name "*)
		ok 1 "$name differs from its golden"
		diff -u "$golden/$name.txt" "$tmp/got/$name.txt" | diag
		;;
	*) ok 0 "$name" ;;
	esac
done <"$tmp/pending"

for size in $spans_sizes; do
	want=$(tree_spans "${size%x*}")
	# The levels: the last line is "L<deepest>: ...".
	last=${want##*L}
	levels=$((${last%%:*} + 1))
	got=$(awk -v levels="$levels" -f "$tmp/runs.awk" "$tmp/spans-$size.txt")
	[ "$got" = "$want" ]
	ok $? "icicle $size: frame widths match tree's numbers"
	if [ "$got" != "$want" ]; then
		printf 'want\n%s\ngot\n%s\n' "$want" "$got" | diag
	fi
done

# A pair fails when its renders differ or either did not exit with 0.
differ=$(diff -rq "$tmp/a" "$tmp/b" 2>/dev/null |
	sed -n 's|^Files .*/\([0-9]*\)\.txt and .* differ$|\1|p' | tr '\n' ' ')
failed=$(awk -F'\t' '$1 != 0 && $2 ~ /^[ab]\// {
	sub(/^[ab]\//, "", $2); sub(/\.txt$/, "", $2); print $2 }' \
	"$tmp/status" | tr '\n' ' ')
while IFS='	' read -r n order what; do
	case " $differ $failed " in
	*" $n "*)
		ok 1 "$what"
		if [ "$order" = ab ]; then
			diff -u "$tmp/a/$n.txt" "$tmp/b/$n.txt"
		else
			diff -u "$tmp/b/$n.txt" "$tmp/a/$n.txt"
		fi | diag
		cat "$tmp/a/$n.err" "$tmp/b/$n.err" | diag
		;;
	*) ok 0 "$what" ;;
	esac
done <"$tmp/pairs"

# A --base that cannot be read: exit 3 and one line naming it.
(cd "$tmp" && "$RENDER" --base missing.trace diff-new.trace 80x24) \
	>/dev/null 2>"$tmp/base.err"
ok $([ $? -eq 3 ] && [ "$(wc -l <"$tmp/base.err")" -eq 1 ] &&
	grep -q "^render: missing.trace: offset 0: cannot open" \
		"$tmp/base.err" && echo 0 || echo 1) \
	"an unreadable --base exits with 3"

# Back from the chart a frame's Enter opened: the range Enter set goes
# with the place left, so the Frames view lists every frame again, as
# many as `tracetui frames` counts (its summary, the view's first line);
# forward again, the range is back.
want=$("$TRACETUI" frames "$tmp/frames.trace" |
	sed -n '1s/.*: \([0-9]*\) frames,.*/\1/p')
(cd "$tmp" && "$RENDER" frames.trace 100x16 VIEW_FRAMES MOVE_DOWN ENTER \
	HISTORY_BACK) >"$tmp/back.txt" 2>&1
got=$(sed -n '2s/^\([0-9]*\) frames.*/\1/p' "$tmp/back.txt")
ok $([ -n "$want" ] && [ "$got" = "$want" ] &&
	sed -n 1p "$tmp/back.txt" | grep -q "| range: all" && echo 0 || echo 1) \
	"back from a frame's chart: all $want frames listed (got '$got')"
(cd "$tmp" && "$RENDER" frames.trace 100x16 VIEW_FRAMES MOVE_DOWN ENTER \
	HISTORY_BACK HISTORY_FORWARD) >"$tmp/fwd.txt" 2>&1
ok $(sed -n 1p "$tmp/fwd.txt" | grep -q "| Timeline |.*range: wall " &&
	echo 0 || echo 1) "forward again: the chart with the frame's range"

# An unknown step is a usage error.
(cd "$tmp" && "$RENDER" calls.trace 80x24 NO_SUCH_STEP) >/dev/null 2>&1
ok $([ $? -eq 2 ] && echo 0 || echo 1) "an unknown step exits with 2"

# The call tree of a thread that made no call: its root has no children,
# no array of them to sort (qsort_r was handed NULL, which UBSan
# reports; util/sort.h's sort_items_r takes an empty table).
printf '%s\n' 'format v1' 'version 3' 'clock dual' 'thread 1 main' \
	'thread 2 idle' 'method 0x4 a.B run ()V B.java' \
	'call 1 0x4 0 0 100 100' >"$tmp/nocall.spec"
"$MKTRACE" "$tmp/nocall.spec" "$tmp/nocall.trace" &&
	"$RENDER" "$tmp/nocall.trace" 100x12 key:t key:Down key:Enter key:C \
		key:e key:b key:E >"$tmp/nocall.txt" 2>&1
ok $([ $? -eq 0 ] && grep -q 'Call tree | thread idle' "$tmp/nocall.txt" &&
	! grep -q 'runtime error' "$tmp/nocall.txt" && echo 0 || echo 1) \
	"the call tree of a thread without calls: t Down Enter C e b E"
done_testing
