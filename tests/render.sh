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
for spec in calls wide gen; do
	"$MKTRACE" "$srcdir/tests/fixtures/render-$spec.spec" \
		"$tmp/$spec.trace" || skip_all "mktrace failed on render-$spec"
done
"$MKTRACE" "$srcdir/tests/fixtures/v1-wall.spec" "$tmp/wall.trace" &&
	"$MKTRACE" "$srcdir/tests/fixtures/v2-cpu.spec" "$tmp/cpu.trace" ||
	skip_all "mktrace failed"

# NAME | render options | trace | size | steps
cases() {
	cat <<'CASES'
start-80x24||calls|80x24|
start-120x40||calls|120x40|
start-wide-60x20|--roles|wide|60x20|
start-gen-80x24||gen|80x24|
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
help-page-down||calls|80x24|key:? PAGE_DOWN
help-end||calls|80x24|key:? key:G
help-back-out||calls|80x12|VIEW_HELP BACK_OUT
view-cycle||calls|80x12|key:Tab key:Tab
search-match|--roles|calls|100x16|search:Lexer
search-prompt||calls|100x16|key:/ key:A key:p key:p
search-next|--roles|calls|80x16|key:/ key:A key:p key:p key:Enter key:n
search-none||calls|100x16|search:nomatch
search-bad||calls|100x16|search:(
search-threads||calls|80x12|VIEW_THREADS search:pool
unbound-key||calls|80x12|key:x
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
CASES
}

set -f # steps like key:? are not patterns
cases | while IFS='|' read -r name opts trace size steps; do
	# Word splitting of $opts and $steps is wanted: no step has blanks.
	# shellcheck disable=SC2086
	(cd "$tmp" && "$RENDER" $opts "$trace.trace" "$size" $steps) \
		>"$tmp/$name.txt" 2>"$tmp/$name.err"
	rc=$?
	if [ -n "$REGENERATE" ] && [ $rc -eq 0 ]; then
		cp "$tmp/$name.txt" "$golden/$name.txt"
		ok 0 "$name (regenerated)"
	elif [ $rc -ne 0 ]; then
		ok 1 "$name: render exited with $rc"
		diag <"$tmp/$name.err"
	elif [ ! -f "$golden/$name.txt" ]; then
		ok 1 "$name: no golden (run with REGENERATE=1)"
	elif cmp -s "$golden/$name.txt" "$tmp/$name.txt"; then
		ok 0 "$name"
	else
		ok 1 "$name differs from its golden"
		diff -u "$golden/$name.txt" "$tmp/$name.txt" | diag
	fi
	echo "$tap_n $tap_failed" >"$tmp/counts"
done
read -r tap_n tap_failed <"$tmp/counts"

# An unknown step is a usage error.
(cd "$tmp" && "$RENDER" calls.trace 80x24 NO_SUCH_STEP) >/dev/null 2>&1
ok $([ $? -eq 2 ] && echo 0 || echo 1) "an unknown step exits with 2"
done_testing
