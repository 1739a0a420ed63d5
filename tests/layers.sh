#!/bin/sh
# layers.sh: the source folders are layers (doc/HACKING.md, "The map").  A
# file may include headers of its own layer and of the layers below it,
# never above; only src/tui includes curses; no two modules (x.c with
# x.h) include each other, directly or around a longer loop.
#
# Usage: tests/layers.sh [SRCDIR]   (TAP on stdout; exit 1 on a violation)

src=${1:-${top_srcdir:-$(dirname "$0")/..}/src}
cd "$src" || { echo "1..0 # SKIP no source tree at $src"; exit 0; }

# The layers, lowest first; main.c sits above them all.  rank FILE sets
# $rank (no subshell: it runs for every file).
rank() {
	case $1 in
	util/*) rank=0 ;;
	text/*) rank=1 ;;
	read/*) rank=2 ;;
	model/*) rank=3 ;;
	query/*) rank=4 ;;
	cli/*) rank=5 ;;
	tui/*) rank=6 ;;
	main.c) rank=7 ;;
	*) rank=99 ;;
	esac
}

files=$(find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort)
n=0
fail=0
bad() {
	echo "not ok $n - $1"
	fail=1
}

# 1. Every file lives in a layer.
n=$((n + 1))
stray=""
for f in $files; do
	rank "$f"
	[ "$rank" = 99 ] && stray="$stray $f"
done
if [ -n "$stray" ]; then bad "files outside every layer:$stray"; else
	echo "ok $n - every file is in a layer"; fi

# 2. Includes point down or sideways, and at files that exist.  One awk
# pass over every file: "#include" lines become edges between modules.
n=$((n + 1))
edges_file=${TMPDIR:-/tmp}/layers-edges.$$
msgs=$(awk -v edges="$edges_file" '
function rank(p) {
	if (p ~ /^util\//) return 0
	if (p ~ /^text\//) return 1
	if (p ~ /^read\//) return 2
	if (p ~ /^model\//) return 3
	if (p ~ /^query\//) return 4
	if (p ~ /^cli\//) return 5
	if (p ~ /^tui\//) return 6
	if (p == "main.c") return 7
	return 99
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[^"]*"/, "", inc)
	sub(/".*$/, "", inc)
	if (inc == "config.h")
		next
	if (!(inc in exists))
	{
		exists[inc] = (getline line < inc) >= 0
		close(inc)
	}
	if (!exists[inc]) {
		printf "# %s: #include \"%s\": no such file under src/ (write the path from src/)\n", FILENAME, inc
		next
	}
	if (rank(inc) > rank(FILENAME)) {
		split(inc, a, "/")
		split(FILENAME, b, "/")
		printf "# %s: #include \"%s\": %s is a layer above %s\n", FILENAME, inc, a[1], b[1]
	}
	from = FILENAME
	sub(/\.[ch]$/, "", from)
	to = inc
	sub(/\.h$/, "", to)
	if (from != to)
		print from, to > edges
}' $files)
if [ -n "$msgs" ]; then bad "includes go down the layers only"; echo "$msgs"
else echo "ok $n - includes go down the layers only"; fi

# 3. curses only in the terminal layer.
n=$((n + 1))
curses=$(grep -lE '#[[:space:]]*include[[:space:]]*[<"](n?cursesw?/)?n?curses(w)?\.h' $files |
	grep -v '^tui/' || true)
if [ -n "$curses" ]; then bad "curses included outside src/tui: $curses"
else echo "ok $n - curses only in src/tui"; fi

# 4. No module includes another that includes it back, nor any loop.
n=$((n + 1))
LC_ALL=C sort -u "$edges_file" -o "$edges_file"
pairs=$(awk '{ e[$1 " " $2] = 1 }
	END { for (k in e) { split(k, p, " ")
		if (p[1] < p[2] && ((p[2] " " p[1]) in e))
			printf "# %s.[ch] and %s.[ch] include each other\n", p[1], p[2] } }' \
	"$edges_file")
loop=$(tsort "$edges_file" 2>&1 >/dev/null | sed 's/^/# /')
rm -f "$edges_file"
if [ -n "$pairs$loop" ]; then bad "no include cycles between modules"
	[ -n "$pairs" ] && echo "$pairs"; [ -n "$loop" ] && echo "$loop"
else echo "ok $n - no include cycles between modules"; fi

echo "1..$n"
exit $fail
