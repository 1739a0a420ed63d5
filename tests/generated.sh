#!/bin/sh
# generated.sh: dmtracedump's numbers on traces tests/mktrace generates
# across the V1 variants (version, clock, vm, id style, one file or split,
# header layout, exits by action 3, unknown methods and threads), kept as
# digests in tests/generated/dmtracedump.digest.  None has orphan or
# mismatched exits, 32-bit wraps or backward steps, so per PRODUCT.md 2
# tracetui's per-method numbers must equal dmtracedump's.  make check
# takes six specs that between them hold every value of every dimension
# (version, clock, vm, format, id style, data offset, record size, and
# action 3 exits, unknown methods or threads or none); check-long takes
# every spec.  Every spec must have a digest, in both.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
dir=$srcdir/tests/generated
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"

grep -v '^#' "$dir/dmtracedump.digest" >"$tmp/digest"
split_specs=" $(grep -l '^format split' "$dir"/*.spec | tr '\n' ' ')"
mkdir "$tmp/norm" "$tmp/raw"
while read -r spec rows sum; do
	case $long:$spec in
	yes:* | *:v3-wall-dalvik-unknown.spec | *:v2-dual-art-action3.spec | \
		*:v1-thread-cpu-art-unknownthread.spec | \
		*:v3-wall-dalvik-plain.spec | *:v3-wall-art-plain.spec | \
		*:v2-thread-cpu-art-unknown.spec) ;;
	*) continue ;;
	esac
	trace=$tmp/${spec%.spec}.trace
	if ! "$MKTRACE" "$dir/$spec" "$trace" 2>"$tmp/err"; then
		ok 1 "$spec: written"
		diag <"$tmp/err"
		continue
	fi
	input=$trace
	case $split_specs in *" $dir/$spec "*) input=$trace.key ;; esac
	"$TRACETUI" report --format tsv "$input" >"$tmp/raw/$spec" 2>"$tmp/err"
	: >"$tmp/norm/$spec"
done <"$tmp/digest"
# Every report normalized as normalize_tsv (tests/lib.sh) does, in one
# awk and one sort: the rows prefixed with their spec, sorted (a spec's
# rows stay together, in the order sort gives them alone), then written
# to $tmp/norm/SPEC.
(cd "$tmp/raw" && awk -F'\t' 'FNR > 1 && $1 !~ /^\(unknown / {
	k = FILENAME SUBSEP $1
	incl = ($4 != "") ? $4 : $6
	excl = ($5 != "") ? $5 : $7
	calls[k] += $2; rcalls[k] += $3
	i[k] += incl; e[k] += excl
}
END { for (k in calls) { split(k, f, SUBSEP)
	printf "%s\t%s\t%d\t%d\t%d\t%d\n", f[1], f[2], calls[k],
		rcalls[k], i[k], e[k] } }' *) | LC_ALL=C sort |
	awk -v dir="$tmp/norm" '{
		spec = $0; sub(/\t.*/, "", spec)
		row = substr($0, length(spec) + 2)
		if (spec != last) { if (last != "") close(dir "/" last); last = spec }
		print row > (dir "/" spec)
	}'
# The rows and digest of every output at once, against the file's.
(cd "$tmp/norm" && wc -l -- * && sha256sum -- *) >"$tmp/got" 2>/dev/null
awk 'FILENAME != ARGV[1] { want[$1] = $2 " " $3; order[++n] = $1; next }
	NF == 2 && $2 != "total" && !($2 in rows) { rows[$2] = $1; next }
	NF == 2 && length($1) == 64 { sum[$2] = $1 }
	END {
		for (i = 1; i <= n; i++) {
			s = order[i]
			if (!(s in rows))
				continue
			print (want[s] == rows[s] " " sum[s] ? 0 : 1), s
		}
	}' "$tmp/got" "$tmp/digest" >"$tmp/verdicts"
while read -r verdict spec; do
	ok "$verdict" "$spec: per-method numbers equal dmtracedump's"
done <"$tmp/verdicts"
# Every spec beside the digest is checked.
names=" $(cut -d' ' -f1 "$tmp/digest" | tr '\n' ' ')"
for spec in "$dir"/*.spec; do
	case $names in
	*" ${spec##*/} "*) ok 0 "${spec##*/}: has a digest" ;;
	*) ok 1 "${spec##*/}: has a digest" ;;
	esac
done
done_testing
