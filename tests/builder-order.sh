#!/bin/sh
# builder-order.sh: the builder's four files read in one order, each
# using only those before it (model/builder.h):
#
#   model/builder.c  builder-records.c  builder-sums.c  builder-split.c
#
# A file calls what comes after it only through struct build_hooks.
# From the symbols of their objects (nm: what each defines and what each
# leaves undefined), every use of a later file's symbol by an earlier
# one fails, named with its file and symbol.
#
# Usage: tests/builder-order.sh [OBJDIR]   (TAP on stdout; exit 1 on a
# violation; OBJDIR defaults to src/model of the build tree)

order="builder builder-records builder-sums builder-split"
dir=${1:-${top_builddir:-.}/src/model}
nm=${NM:-nm}

# Under make check (top_builddir set) the objects are built: one that
# is missing means they were renamed, and the check must follow them.
for f in $order; do
	if [ ! -f "$dir/$f.o" ]; then
		if [ -n "${top_builddir:-}" ]; then
			echo "not ok 1 - the builder's objects are in $dir"
			echo "# no $dir/$f.o: where does the build put it?"
			echo "1..1"
			exit 1
		fi
		echo "1..0 # SKIP no object $dir/$f.o (build first)"
		exit 0
	fi
done
if ! command -v "$nm" >/dev/null 2>&1; then
	echo "1..0 # SKIP no $nm"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/builder-order.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# Per object, "defines NAME" and "uses NAME" lines, from its external
# symbols in the POSIX format (name, type, ...).
for f in $order; do
	"$nm" -P -g "$dir/$f.o" >"$tmp/$f.nm" || {
		echo "1..0 # SKIP $nm failed on $dir/$f.o"
		exit 0
	}
	awk '$2 == "U" { print "uses", $1; next }
	     $2 != "w" && $2 != "v" { print "defines", $1 }' \
		"$tmp/$f.nm" >"$tmp/$f.syms"
done

n=0
fail=0

# 1. Each object defines symbols: nm read them (no check by default).
n=$((n + 1))
empty=""
for f in $order; do
	grep -q '^defines ' "$tmp/$f.syms" || empty="$empty $f.o"
done
if [ -n "$empty" ]; then
	echo "not ok $n - nm lists what each object defines"
	echo "# no symbol defined in:$empty"
	fail=1
else
	echo "ok $n - nm lists what each object defines"
fi

# The edges: "FROM TO SYMBOL" where FROM uses SYMBOL, which TO defines.
i=0
for f in $order; do
	i=$((i + 1))
	j=0
	for g in $order; do
		j=$((j + 1))
		[ "$f" = "$g" ] && continue
		awk -v from="$f" -v to="$g" -v fi="$i" -v gi="$j" '
		FNR == NR { if ($1 == "defines") def[$2] = 1; next }
		$1 == "uses" && ($2 in def) { print fi, gi, from, to, $2 }' \
			"$tmp/$g.syms" "$tmp/$f.syms"
	done
done >"$tmp/edges"

# 2. Each later file uses the core: the uses are seen at all.
n=$((n + 1))
unseen=""
for f in builder-records builder-sums builder-split; do
	grep -q " $f builder " "$tmp/edges" || unseen="$unseen $f.o"
done
if [ -n "$unseen" ]; then
	echo "not ok $n - the later files' uses of the core are seen"
	echo "# no symbol of builder.o used by:$unseen"
	fail=1
else
	echo "ok $n - the later files' uses of the core are seen"
fi

# 3. Then one test per file: no symbol of a later file.
for f in $order; do
	n=$((n + 1))
	back=$(awk -v f="$f" '$3 == f && $2 > $1 {
		printf "# src/model/%s.c uses %s of src/model/%s.c, a later file: call it through struct build_hooks (model/builder.h)\n", $3, $5, $4
	}' "$tmp/edges")
	if [ -n "$back" ]; then
		echo "not ok $n - $f.c uses no later builder file"
		echo "$back"
		fail=1
	else
		echo "ok $n - $f.c uses no later builder file"
	fi
done

echo "1..$n"
exit $fail
