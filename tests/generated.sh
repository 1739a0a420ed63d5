#!/bin/sh
# generated.sh: dmtracedump's numbers on traces tests/mktrace generates
# across the V1 variants (version, clock, vm, id style, one file or split,
# header layout, exits by action 3, unknown methods and threads), kept as
# digests in tests/generated/dmtracedump.digest.  None has orphan or
# mismatched exits, 32-bit wraps or backward steps, so per PRODUCT.md 2
# tracetui's per-method numbers must equal dmtracedump's.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
dir=$srcdir/tests/generated
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"

grep -v '^#' "$dir/dmtracedump.digest" >"$tmp/digest"
while read -r spec rows sum; do
	trace=$tmp/${spec%.spec}.trace
	if ! "$MKTRACE" "$dir/$spec" "$trace" 2>"$tmp/err"; then
		ok 1 "$spec: written"
		diag <"$tmp/err"
		continue
	fi
	input=$trace
	grep -q '^format split' "$dir/$spec" && input=$trace.key
	"$TRACETUI" report --format tsv "$input" 2>"$tmp/err" |
		normalize_tsv >"$tmp/norm"
	got_rows=$(wc -l <"$tmp/norm")
	got_sum=$(sha256sum <"$tmp/norm" | cut -c1-64)
	[ "$got_rows" -eq "$rows" ] && [ "$got_sum" = "$sum" ]
	ok $? "$spec: per-method numbers equal dmtracedump's"
	rm -f "$trace" "$trace".*
done <"$tmp/digest"
# Every spec beside the digest is checked.
for spec in "$dir"/*.spec; do
	grep -q "^${spec##*/} " "$tmp/digest"
	ok $? "${spec##*/}: has a digest"
done
done_testing
