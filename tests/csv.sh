#!/bin/sh
# csv.sh: no CSV cell a spreadsheet would run.  Method and thread names
# from the file that begin with =, + or - (a tab too) get a ' before
# them in every CSV that report, tree, calls, frames and diff (one run
# a side and several) write, as OWASP advises; the numbers the program
# writes stay numbers, diff's negative changes among them.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v python3 >/dev/null 2>&1 || skip_all "no python3 to read CSV"

# side NAME SCALE: a trace whose names start formulas, its times SCALE
# times the base's (so diff has changes of both signs).
side() {
	cat >"$tmp/$1.spec" <<SPEC
vm art
thread 1 "=HYPERLINK(1)"
thread 2 "\\x09tab"
method 0x4 "=cmd|' /C calc'!A0" main ()V A.java
method 0x8 +SUM(1) b ()V B.java
method 0xc -2+3 c ()V C.java
method 0x10 ok.Plain e ()V E.java
call 1 0x4 0 0 $((100 * $2)) $((100 * $2)) {
 call 1 0x8 10 10 $((10 + 40 * $2)) $((10 + 40 * $2))
 call 1 0xc $((60 * $2)) $((60 * $2)) $((70 * $2)) $((70 * $2))
}
call 2 0x10 0 0 30 30
SPEC
	"$MKTRACE" "$tmp/$1.spec" "$tmp/$1.trace" 2>"$tmp/err"
	ok $? "mktrace writes $1"
}
side base 1
side new 2

# check.py: for each line "FILE WANT" of its argument, a line "STATUS
# WHY": one interpreter for every CSV.
cat >"$tmp/check.py" <<'PY'
import csv, re, sys
number = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?%?$")

def check(path, want):
    rows = list(csv.reader(open(path, newline="")))
    if len(rows) < 2:
        return "no rows"
    guarded = negative = 0
    for row in rows[1:]:
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                if not number.match(cell):
                    return "a formula cell: %r" % cell
                negative += cell.startswith("-")
            guarded += cell[:2] in ("'=", "'+", "'-", "'\\")
    if not guarded:
        return "no name with a ' before it"
    if want == "negative" and not negative:
        return "no negative number left as one"
    print("0 %d names guarded, %d negative numbers" % (guarded, negative))
    return None

for line in open(sys.argv[1]):
    path, want = line.split()
    try:
        why = check(path, want)
    except Exception as e:
        why = "%s: %s" % (type(e).__name__, e)
    if why is not None:
        print("1 " + why.replace("\n", " "))
PY

: >"$tmp/csvs"
n=0
for cmd in report tree calls "frames --frame-method ." diff runs; do
	n=$((n + 1))
	case $cmd in
	diff) set -- diff -f csv "$tmp/new.trace" "$tmp/base.trace" ;;
	runs) set -- diff -f csv "$tmp/base.trace" "$tmp/base.trace" -- \
		"$tmp/new.trace" "$tmp/new.trace" ;;
	*) set -- $cmd -f csv "$tmp/base.trace" ;;
	esac
	"$TRACETUI" "$@" >"$tmp/out$n.csv" 2>"$tmp/err"
	echo $? >"$tmp/rc$n"
	want=any
	[ "$cmd" = diff ] && want=negative
	echo "$tmp/out$n.csv $want" >>"$tmp/csvs"
done
python3 "$tmp/check.py" "$tmp/csvs" >"$tmp/checked" 2>&1 ||
	echo "1 check.py: $(tr '\n' ' ' <"$tmp/checked")" >"$tmp/checked"
n=0
exec 3<"$tmp/checked"
for cmd in report tree calls "frames --frame-method ." diff runs; do
	n=$((n + 1))
	read -r rc <"$tmp/rc$n"
	st=1 why="check.py said nothing"
	read -r st why <&3
	[ $rc -eq 0 ] && [ "$st" = 0 ]
	ok $? "$cmd -f csv (exit $rc): $why"
	[ "$st" = 0 ] || diag <"$tmp/out$n.csv"
done
exec 3<&-
done_testing
