#!/bin/sh
# gzip.sh: .trace.gz files are inflated in memory and read like the plain
# file: the same report for a V1 and a V2 fixture gzipped here; a gzip
# bomb (far more than 64 times its size, or than 1 MiB for a small file),
# a cut gzip file and one with a bad checksum are refused with exit 3 and
# one line naming the file and the offset.  make check: each fixture
# through one command or two, the bombs of 4 MB; check-long: every
# fixture through both, 32 MB of zeros and 100 MB after 1 MB of noise.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v gzip >/dev/null 2>&1 || skip_all "no gzip"

nl='
'
mkdir "$tmp/fixtures"
fixture_traces "$tmp/fixtures"
ni=0
for name in v3-dual v2-final-dual v2-draft-dual; do
	ni=$((ni + 1))
	gzip -c "$tmp/fixtures/$name.trace" >"$tmp/$name.trace.gz"
	ln -s "$tmp/fixtures/$name.trace" "$tmp/$name.trace"
	ci=0
	for cmd in "report --format tsv" "tree --format tsv --min-pct 0"; do
		ci=$((ci + 1))
		[ -n "$long" ] || [ $ni -eq 1 ] || [ $((ni % 2 + 1)) -eq $ci ] ||
			continue
		# shellcheck disable=SC2086
		"$TRACETUI" $cmd "$tmp/$name.trace" >"$tmp/plain" 2>/dev/null
		# shellcheck disable=SC2086
		"$TRACETUI" $cmd "$tmp/$name.trace.gz" >"$tmp/gz" 2>/dev/null
		cmp -s "$tmp/plain" "$tmp/gz"
		ok $? "$name: $cmd of the gzipped file equals the plain one's"
	done
	run "$TRACETUI" info "$tmp/$name.trace.gz"
	case $rc$nl$out in "0$nl"*compression=gzip*) r=0 ;; *) r=1 ;; esac
	ok $r "$name: info names the compression"
done

# expect_refused FILE PATTERN DESCRIPTION: exit 3, nothing on stdout,
# one line "tracetui: FILE: offset N: PATTERN...".
expect_refused() {
	# (PATTERN is a shell pattern, matched by the shell.)
	run "$TRACETUI" report "$1"
	r=1
	case $rc$out$nl$err in
	*"$nl"*"$nl"*) ;;
	"3${nl}tracetui: $1: offset "[0-9]*": "$2*) r=0 ;;
	esac
	ok $r "$3"
	[ $rc -eq 3 ] || echo "$err" | diag
}

# 32 MiB of zeros shrink to about 32 KiB: far past 64 times (make
# check-long; make check's bomb is the large file's below, 4 MB of
# zeros after noise).
[ -z "$long" ] || {
dd if=/dev/zero bs=1048576 count=32 2>/dev/null | gzip -c >"$tmp/bomb.gz"
expect_refused "$tmp/bomb.gz" "gzip data inflates to more than" \
	"a gzip bomb is refused"
}

# The rule for a small file: 1 MiB however small it is, not 64 times
# its size.  A V1 trace of 1,000,000 bytes gzips to a few KB (far past 64
# times) and is read; one of 1,100,000 bytes is refused, saying which
# rule refused it, and so is 100 times a large file's size.
awk 'BEGIN { print "version 3\nclock dual\nvm art\nthread 1 main";
	print "method 0x4 a.B c ()V B.java";
	for (i = 0; i < 1000; i++) printf "call 1 0x4 %d %d 1 1\n", 2 * i, 2 * i }' \
	>"$tmp/small.spec"
"$MKTRACE" "$tmp/small.spec" "$tmp/small.trace"
size=$(wc -c <"$tmp/small.trace")
pad=$((1000000 - size))
{ cat "$tmp/small.trace"; head -c $pad /dev/zero; } | gzip -9 >"$tmp/small.gz"
[ "$(wc -c <"$tmp/small.gz")" -lt $((1000000 / 64)) ]
ok $? "a 1,000,000-byte trace gzips to less than a 64th of it"
run "$TRACETUI" info "$tmp/small.gz"
[ $rc -eq 0 ]
ok $? "it is read: a small gzip file may inflate to 1 MiB (status $rc)"
[ $rc -eq 0 ] || echo "$err" | diag
{ cat "$tmp/small.trace"; head -c $((pad + 100000)) /dev/zero; } |
	gzip -9 >"$tmp/small2.gz"
expect_refused "$tmp/small2.gz" \
	"gzip data inflates to more than 1048576 bytes (1 MiB, the least" \
	"1,100,000 bytes from a small gzip file: refused past 1 MiB"
# (make check: 32 KB of noise and 4 MB of zeros, past 64 times its 36
# KB; check-long: 1 MB of noise and 100 MB of zeros too.)
head -c 32768 /dev/urandom >"$tmp/noise"
{ cat "$tmp/noise"; head -c 4000000 /dev/zero; } | gzip -1 >"$tmp/big.gz"
expect_refused "$tmp/big.gz" \
	"gzip data inflates to more than [0-9]* bytes (64 times its size)" \
	"a large gzip file: refused past 64 times its size"
[ -z "$long" ] || {
head -c 1000000 /dev/urandom >"$tmp/noise"
{ cat "$tmp/noise"; head -c 100000000 /dev/zero; } | gzip -1 >"$tmp/big.gz"
expect_refused "$tmp/big.gz" \
	"gzip data inflates to more than [0-9]* bytes (64 times its size)" \
	"a large gzip file of 1 MB: refused past 64 times its size"
}

f=$tmp/v2-final-dual.trace.gz
size=$(wc -c <"$f")
head -c $((size / 2)) "$f" >"$tmp/cut.gz"
expect_refused "$tmp/cut.gz" "gzip data cut off" "a cut gzip file is refused"

# The last 8 bytes are the CRC-32 and the size: break the CRC.
head -c $((size - 8)) "$f" >"$tmp/crc.gz"
printf '\001\002\003\004' >>"$tmp/crc.gz"
tail -c 4 "$f" >>"$tmp/crc.gz"
expect_refused "$tmp/crc.gz" "gzip data corrupt" \
	"a gzip file with a bad checksum is refused"

done_testing
