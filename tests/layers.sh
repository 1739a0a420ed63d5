#!/bin/sh
# layers.sh: the source folders are layers (doc/HACKING.md, "The map").  A
# file may include headers of its own layer and of the layers below it,
# never above; only src/tui includes curses; no two modules (x.c with
# x.h) include each other, directly or around a longer loop.
#
# Usage: tests/layers.sh [SRCDIR]   (TAP on stdout; exit 1 on a violation)

src=${1:-${top_srcdir:-$(dirname "$0")/..}/src}
cd "$src" || { echo "1..0 # SKIP no source tree at $src"; exit 0; }

# The layers, lowest first; main.c sits above them all.
rank() {
	case $1 in
	util/*) echo 0 ;;
	text/*) echo 1 ;;
	read/*) echo 2 ;;
	model/*) echo 3 ;;
	query/*) echo 4 ;;
	cli/*) echo 5 ;;
	tui/*) echo 6 ;;
	main.c) echo 7 ;;
	*) echo 99 ;;
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
	[ "$(rank "$f")" = 99 ] && stray="$stray $f"
done
if [ -n "$stray" ]; then bad "files outside every layer:$stray"; else
	echo "ok $n - every file is in a layer"; fi

# 2. Includes point down or sideways, and at files that exist.
n=$((n + 1))
msgs=""
edges=""
for f in $files; do
	r=$(rank "$f")
	for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		[ "$inc" = config.h ] && continue
		if [ ! -f "$inc" ]; then
			msgs="$msgs
# $f: #include \"$inc\": no such file under src/ (write the path from src/)"
			continue
		fi
		ri=$(rank "$inc")
		if [ "$ri" -gt "$r" ]; then
			msgs="$msgs
# $f: #include \"$inc\": ${inc%%/*} is a layer above ${f%%/*}"
		fi
		from=${f%.[ch]}
		to=${inc%.h}
		[ "$from" != "$to" ] && edges="$edges$from $to
"
	done
done
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
pairs=""
echo "$edges" | LC_ALL=C sort -u >"${TMPDIR:-/tmp}/layers.$$"
while read -r a b; do
	[ -n "$a" ] || continue
	if grep -qx "$b $a" "${TMPDIR:-/tmp}/layers.$$" && [ "$a" \< "$b" ]; then
		pairs="$pairs
# $a.[ch] and $b.[ch] include each other"
	fi
done <"${TMPDIR:-/tmp}/layers.$$"
loop=$(tsort "${TMPDIR:-/tmp}/layers.$$" 2>&1 >/dev/null | sed 's/^/# /')
rm -f "${TMPDIR:-/tmp}/layers.$$"
if [ -n "$pairs$loop" ]; then bad "no include cycles between modules"
	echo "$pairs"; [ -n "$loop" ] && echo "$loop"
else echo "ok $n - no include cycles between modules"; fi

echo "1..$n"
exit $fail
