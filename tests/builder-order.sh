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

# Every object's external symbols in the POSIX format, each line led
# by its file ("DIR/NAME.o: SYMBOL TYPE ..."), in one nm; then one awk
# makes the tests below from them.
set --
for f in $order; do
	set -- "$@" "$dir/$f.o"
done
"$nm" -A -P -g "$@" >"$tmp/nm" || {
	echo "1..0 # SKIP $nm failed on the objects of $dir"
	exit 0
}

# 1. Each object defines symbols: nm read them (no check by default).
# The edges: FROM uses a SYMBOL, which TO defines.
# 2. Each later file uses the core: the uses are seen at all.
# 3. Then one test per file: no symbol of a later file.
awk -v order="$order" '
	BEGIN { nf = split(order, name, " ")
		for (i = 1; i <= nf; i++) index_of[name[i]] = i }
	{
		obj = $1; sub(/:$/, "", obj); sub(/.*\//, "", obj)
		sub(/\.o$/, "", obj)
		i = index_of[obj]
		if ($3 == "U") uses[i, ++nuses[i]] = $2
		else if ($3 != "w" && $3 != "v") { defs[i]++; def[$2] = def[$2] " " i }
	}
	END {
		n = 0; fail = 0
		empty = ""
		for (i = 1; i <= nf; i++) if (!defs[i]) empty = empty " " name[i] ".o"
		n++
		if (empty != "") {
			print "not ok " n " - nm lists what each object defines"
			print "# no symbol defined in:" empty; fail = 1
		} else print "ok " n " - nm lists what each object defines"
		for (i = 1; i <= nf; i++)
			for (k = 1; k <= nuses[i]; k++) {
				sym = uses[i, k]
				m = split(def[sym], d, " ")
				for (x = 1; x <= m; x++) {
					j = d[x] + 0
					if (j == i) continue
					if (j == 1) core[i] = 1
					if (j > i) back[i] = back[i] sprintf("# src/model/%s.c uses %s of src/model/%s.c, a later file: call it through struct build_hooks (model/builder.h)\n", name[i], sym, name[j])
				}
			}
		unseen = ""
		for (i = 2; i <= nf; i++) if (!core[i]) unseen = unseen " " name[i] ".o"
		n++
		if (unseen != "") {
			print "not ok " n " - the later files'"'"' uses of the core are seen"
			print "# no symbol of builder.o used by:" unseen; fail = 1
		} else print "ok " n " - the later files'"'"' uses of the core are seen"
		for (i = 1; i <= nf; i++) {
			n++
			if (back[i] != "") {
				print "not ok " n " - " name[i] ".c uses no later builder file"
				printf "%s", back[i]; fail = 1
			} else print "ok " n " - " name[i] ".c uses no later builder file"
		}
		print "1.." n
		exit fail
	}' "$tmp/nm"
