#!/bin/sh
# hostile.sh: inputs made to hurt a reader.  Each must end with data or a
# clear message (exit 0 or 3, never a signal), within a time and memory
# limit, and names from the file must never reach the terminal raw.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v timeout >/dev/null || skip_all "no timeout(1)"

# limited CMD...: run with 60 s and 4 GiB of address space (no address
# space limit under AddressSanitizer, which reserves terabytes of it).
if asan_built "$TRACETUI"; then
	vlimit=unlimited
else
	vlimit=4194304
fi
limited() {
	(ulimit -v $vlimit 2>/dev/null; exec timeout 120 "$@")
}

# survives FILE DESCRIPTION [COMMANDS]: every command ends with 0 or 3;
# on 3 with one line "tracetui: FILE: offset N: ..." and no output.
# COMMANDS are by default report, info, tree, calls, dump and folded
# (make check: report, which reads the file as the others do).
survives() {
	file=$1
	what=$2
	shift 2
	for cmd in ${*:-report ${long:+info tree calls dump folded}}; do
		limited "$TRACETUI" $cmd "$file" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 0 ]; then
			ok 0 "$what: $cmd answers"
		elif [ $rc -eq 3 ] && [ ! -s "$tmp/out" ] &&
			grep -q "^tracetui: .*: offset [0-9]*: " "$tmp/err"; then
			ok 0 "$what: $cmd refuses cleanly"
		else
			ok 1 "$what: $cmd exit $rc"
			head -3 "$tmp/err" | diag
		fi
	done
}

spec() {
	# spec NAME: write the spec on stdin to $tmp/NAME.trace
	cat >"$tmp/$1.spec"
	"$MKTRACE" "$tmp/$1.spec" "$tmp/$1.trace"
}

base() {
	printf 'version 3\nclock dual\nvm art\nthread 1 main\n'
	printf 'method 0x4 a.B c ()V B.java\nmethod 0x8 a.B d ()V B.java\n'
}

# A small good trace, then cut at every byte: each cut read and checked
# by the fuzz target's invariants in one process (tests/fuzz-replay;
# make check: every byte of its key and header, every 4th after), and
# through `tracetui report` at every byte of its key and header and
# at every few bytes of its records (make check: one cut of each part,
# none, key, header and records; check-long: every byte of its key and
# header, every 4th after).
{ base; printf 'call 1 0x4 0 0 100 100 {\n call 1 0x8 10 10 50 50\n}\n'; } |
	spec good
size=$(wc -c <"$tmp/good.trace")
# The records start after the data part's magic and header of 32 bytes.
records=$(grep -boa SLOW "$tmp/good.trace" | sed -n '1s/:.*//p')
records=$((${records:-0} + 32))
if [ -n "$long" ]; then
	replay_cuts "$size" 1 "$tmp/good.trace" \
		"good trace cut at each of its $size bytes" limited
else
	replay_cuts "$records" 4 "$tmp/good.trace" \
		"good trace cut at each byte of its first $records, every 4th after" limited
fi
if [ -n "$long" ]; then
	cuts=$(awk -v k="$records" -v n="$size" 'BEGIN {
		for (i = 0; i < n; i = i < k ? i + 1 : i + 4) print i }')
	what="each byte of its first $records and every 4th of the rest"
else
	cuts="0 $((records / 2)) $((records - 16)) $(((records + size) / 2))"
	what="nowhere, in its key, header and records"
fi
bad=0
for n in $cuts; do
	head -c $n "$tmp/good.trace" >"$tmp/cut.trace"
	limited "$TRACETUI" report "$tmp/cut.trace" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		bad=$((bad + 1))
		echo "cut at $n: exit $rc" | diag
	elif [ $rc -eq 3 ] && ! grep -q "offset [0-9]*: " "$tmp/err"; then
		bad=$((bad + 1))
		echo "cut at $n: exit 3 without an offset" | diag
	fi
done
ok $bad "good trace cut $what: report exits 0 or 3"

# Absurd header fields (make check: one of each field).
for field in ${long:+"record-size 65535"} "record-size 13" "offset 65535" \
	${long:+"offset 0"} "version 9" "magic 0"; do
	{ base; echo "header $field"; echo "call 1 0x4 0 0 10 10"; } |
		spec absurd
	survives "$tmp/absurd.trace" "header $field" report ${long:+info}
done

# NUL bytes, invalid UTF-8 and terminal escapes in names.
{
	printf 'version 3\nclock dual\nvm art\n'
	printf 'thread 1 "evil\\x1b]0;pwned\\x07\\x1b[2J"\n'
	printf 'method 0x4 "a.\\x1b[31mRed" "m\\xff\\xfe" ()V B.java\n'
	printf 'method 0x8 "a.Nul" "x\\x01y" ()V B.java\n'
	printf 'call 1 0x4 0 0 100 100 {\n call 1 0x8 10 10 50 50\n}\n'
} | spec escapes
esc=$(printf '\033')
for cmd in report "report --format csv" "report --format json" info tree \
	calls dump folded; do
	out=$("$TRACETUI" $cmd "$tmp/escapes.trace" 2>&1)
	case $out in
	*"$esc"*) ok 1 "escapes: $cmd sends an ESC byte to the terminal" ;;
	*) ok 0 "escapes: $cmd shows escapes, never sends them" ;;
	esac
	[ "$cmd" != report ] || report=$out
done
case $report in *'a.\x1B[31mRed'*) rc=0 ;; *) rc=1 ;; esac
ok $rc "escapes: ESC shown as \\x1B"

# Overlong key lines and duplicate ids.
{
	base
	printf 'property long=%s\n' "$(head -c 300000 /dev/zero | tr '\0' x)"
	printf 'method 0x4 dup.First a ()V\nmethod 0x4 dup.Second a ()V\n'
	printf 'thread 1 first\nthread 1 second\n'
	echo "call 1 0x4 0 0 10 10"
} | spec long
survives "$tmp/long.trace" "overlong key line, duplicate ids"
"$TRACETUI" report --format tsv "$tmp/long.trace" | grep -q "^dup.Second" ;
ok $? "duplicate method id: the last definition wins"

# Thread ids above 32767 and 65535; records after a streaming summary.
{ printf 'version 3\nclock dual\nthread 40000 big\nthread 70000 bigger\n'
  printf 'method 0x4 a.B c ()V\ncall 40000 0x4 0 0 10 10\n'
  printf 'call 4464 0x4 0 0 10 10\n'; } | spec tids
survives "$tmp/tids.trace" "thread ids above 32767"
"$TRACETUI" info "$tmp/tids.trace" | grep -q " 40000 .* big$" ;
ok $? "thread 40000 keeps its name"
{ printf 'format stream\nversion 3\nclock dual\nthread 1 main\n'
  printf 'method 0x4 a.B c ()V\ncall 1 0x4 0 0 10 10\nsummary\n'
  printf 'call 1 0x4 20 20 30 30\n'; } | spec after
survives "$tmp/after.trace" "records after the summary"

# Monsters: a stack a million frames deep, a million threads, a million
# distinct methods.  Each within the limits, in linear time.  make check
# takes sizes just past the limits of 16 bits (depths, method ids) and
# of the first million records; check-long a million and more.
big=1000000
[ -n "$long" ] || big=70000
awk -v n=$big 'BEGIN { print "version 2\nclock wall\nthread 1 main";
	print "method 0x4 deep.Recursion down ()V";
	for (i = 0; i < n; i++) print "1 enter 0x4 " i;
	for (i = 0; i < n; i++) print "1 exit 0x4 " n + i }' |
	spec deep
# make check: report and calls, below, read it that deep; check-long
# walks it through every command.
[ -z "$long" ] || survives "$tmp/deep.trace" "a stack $big frames deep"
"$TRACETUI" report --format tsv "$tmp/deep.trace" |
	grep -q "	1	$((big - 1))	" ;
ok $? "deep: 1 call + $((big - 1)) recursive"
# Depths past 65535 come from a side table: the innermost is big - 1 deep.
[ "$("$TRACETUI" calls --sort depth --top 1 --format tsv "$tmp/deep.trace" |
	awk -F '\t' 'NR == 2 { print $6 }')" = $((big - 1)) ]
ok $? "deep: the innermost call is $((big - 1)) deep"

# 65535 threads: check-long (thread ids past 16 bits are make check's,
# above).
if [ -n "$long" ]; then
	awk 'BEGIN { print "version 2\nclock wall\nmethod 0x4 a.B c ()V";
		for (i = 1; i < 65536; i++) print "thread " i " t" i;
		for (i = 1; i < 65536; i++) print i " enter 0x4 " i;
		for (i = 1; i < 65536; i++) print i " exit 0x4 " i + 5 }' |
		spec threads
	survives "$tmp/threads.trace" "65535 threads" report tree info folded
	"$TRACETUI" report --format tsv "$tmp/threads.trace" | grep -q "	65535	0	" ;
	ok $? "threads: 65535 calls"
fi

awk -v n=$big 'BEGIN { print "version 2\nclock wall\nthread 1 main";
	for (i = 1; i <= n; i++) printf "method 0x%x m.M%d f ()V\n", i * 4, i;
	for (i = 1; i <= n; i++) {
		printf "1 enter 0x%x %d\n", i * 4, 2 * i;
		printf "1 exit 0x%x %d\n", i * 4, 2 * i + 1 } }' |
	spec methods
# make check: info counts them; check-long: report has a row each.
if [ -n "$long" ]; then
	survives "$tmp/methods.trace" "$big methods" report info
	[ "$("$TRACETUI" report --format tsv "$tmp/methods.trace" | wc -l)" -eq $((big + 1)) ]
	ok $? "methods: a row each"
else
	out=$("$TRACETUI" info "$tmp/methods.trace" 2>&1)
	case $out in
	*"calls: "*" $big
methods: "*" $big
"*) rc=0 ;;
	*) rc=1 ;;
	esac
	ok $rc "methods: info counts $big calls of $big methods"
fi

# Records whose method ids were never defined, and a stream of exits
# (make check: past 16 bits; check-long: 200000).
exits=200000
[ -n "$long" ] || exits=70000
awk -v n=$exits 'BEGIN { print "version 2\nclock wall\nthread 1 main";
	for (i = 1; i <= n; i++) printf "1 exit 0x%x %d\n", i * 4, i }' |
	spec exits
# Their orphans nest as deep as the deep stack above, whose walks make
# check takes there: here it builds their model (info).
survives "$tmp/exits.trace" "$exits orphan exits of unknown methods" \
	info ${long:+report dump tree calls folded}

# Frame amplification: a pprof location of many inlined lines named
# many times by a sample stands for lines x refs frames in a few bytes.
# Each is refused with its offset or read within a bound of memory, per
# kind: one stack past the deepest (1,000 lines x 30,000 refs: 30
# million frames), stacks that share nothing past the calls a profile of
# their size may make, and stacks that share all but their leaf (read).
# Peak memory is measured where /usr/bin/time can (-f %M, in KB): the
# bound is memory, not time.
UNIT_PPROF=${top_builddir:-.}/tests/unit-pprof
peak_kb=
/usr/bin/time -f %M true >/dev/null 2>&1 && peak_kb=yes
peak() { # peak KB CMD...: CMD's status in $rc, its peak memory in $kb
	if [ -n "$peak_kb" ]; then
		limited /usr/bin/time -o "$tmp/peak" -f %M "$@" >"$tmp/out" \
			2>"$tmp/err"
		rc=$?
		# the last line (time's, after any of the command's status)
		kb=
		while IFS= read -r p_line; do
			kb=$p_line
		done <"$tmp/peak"
	else
		limited "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		kb=0
	fi
}
# make check: one shape of each kind, through one command each; check-long: two of each refused kind, through info,
# report and tree.
if [ -n "$long" ]; then
	shapes="1000 30000 1 leaf deep/1000 60 2000 root wide/100 656 1 leaf deep/1000 60 2000 leaf read/50 100 300 root wide"
else
	shapes="1000 30000 1 leaf deep info/1000 60 2000 root wide tree/1000 60 2000 leaf read report"
fi
if [ -x "$UNIT_PPROF" ]; then
	while [ -n "$shapes" ]; do
		shape=${shapes%%/*}
		case $shapes in */*) shapes=${shapes#*/} ;; *) shapes= ;; esac
		set -- $shape
		"$UNIT_PPROF" --write-amplified "$tmp/amp.pb" $1 $2 $3 $4
		gzip -9 <"$tmp/amp.pb" >"$tmp/amp.pb.gz"
		what="pprof: $1 lines x $2 refs x $3 samples ($4 apart)"
		for cmd in ${6:-info report tree}; do
			peak "$TRACETUI" $cmd "$tmp/amp.pb.gz"
			case $5 in
			deep) grep -q "^tracetui: .*: offset [0-9]*: pprof: a sample's stack is more than 65536 lines deep" "$tmp/err" ;;
			wide) grep -q "^tracetui: .*: offset [0-9]*: pprof: the samples' stacks make more than [0-9]* calls" "$tmp/err" ;;
			read) [ $rc -eq 0 ] ;;
			esac
			said_rc=$?
			case $5 in
			deep) said="refused: too deep" ;;
			wide) said="refused: too many calls" ;;
			*) said="read" ;;
			esac
			ok $said_rc "$what: $cmd $said (status $rc)"
			[ $rc -eq 0 ] || [ $rc -eq 3 ] || head -3 "$tmp/err" | diag
			# 1 GB then; 100 MB now, a tenth of it the binary
			# (AddressSanitizer's shadow and quarantine are
			# not the reader's).
			if [ $vlimit = unlimited ]; then
				ok 0 "$what: $cmd's peak # SKIP under AddressSanitizer"
			else
				[ "${kb:-0}" -lt 102400 ]
				ok $? "$what: $cmd peaks at ${kb} KB, under 100 MB"
			fi
		done
	done
fi

# Names holding a NUL: compared by length, so the same name is one
# method however often it comes (a trace of 1 MB once made each frame a
# new method, all on one hash chain: quadratic), and shown as \x00; two
# that differ after the NUL stay two.
awk 'BEGIN { print "JAVA PROFILE 1.0.1, created Wed Jan 1 2020";
	for (t = 1; t <= 8000; t++) {
		print "TRACE " t ": (thread=1)";
		for (k = 1; k <= 4; k++)
			printf "\tfoo.B%car.m%cx(B.java:%d)\n", 0, 0, k }
	print "CPU SAMPLES BEGIN (total = 8000) Wed Jan 1 2020";
	print "rank self accum count trace method";
	for (t = 1; t <= 8000; t++) print t " 0.01% 0.01% 1 " t " x";
	print "CPU SAMPLES END" }' >"$tmp/nul.hprof"
[ "$(wc -c <"$tmp/nul.hprof")" -gt 1000000 ]
ok $? "NUL names: the hprof file is over 1 MB"
"$TRACETUI" info "$tmp/nul.hprof" >"$tmp/out" 2>&1
grep -q '^methods: *1$' "$tmp/out"
rc=$?
ok $rc "NUL names: 32000 frames of one name are one method"
[ $rc -eq 0 ] || grep '^methods' "$tmp/out" | diag
"$TRACETUI" report "$tmp/nul.hprof" | grep -q 'foo\.B\\x00ar\.m\\x00x$'
ok $? "NUL names: the name shows whole, each NUL as \\x00"
printf 'JAVA PROFILE 1.0.1\nTRACE 1: (thread=1)\n\tsec\000retA.m(X.java:1)\nTRACE 2: (thread=1)\n\tsec\000retB.m(X.java:1)\nTHREAD START (obj=1, id = 1, name="ma\000in", group="g")\nCPU SAMPLES BEGIN (total = 2) x\nrank self accum count trace method\n1 50.00%% 50.00%% 1 1 x\n2 50.00%% 100.00%% 1 2 x\nCPU SAMPLES END\n' >"$tmp/nul2.hprof"
"$TRACETUI" report --format tsv "$tmp/nul2.hprof" >"$tmp/out"
grep -c '^sec\\x00ret[AB]\.m	' "$tmp/out" | grep -q '^2$'
ok $? "NUL names: sec<NUL>retA and sec<NUL>retB stay two methods"
"$TRACETUI" info "$tmp/nul2.hprof" | grep -q ' ma\\x00in$'
ok $? "NUL names: a thread's name shows whole"

# Pipes of junk: every format has a recognisable start, so a pipe whose
# first bytes begin none is refused at offset 0 from those bytes alone,
# naming what was expected, not read to --max-input (1 GiB) first.  The
# bound is memory (peak under 50 MB), not time; a pipe of a good file of
# each format still reads.
junk() { # junk KIND: 200 MB of it on stdout
	case $1 in
	zeros) head -c 200000000 /dev/zero ;;
	ones) head -c 200000000 /dev/zero | tr '\0' '\377' ;;
	text) yes 'hello world' | head -c 200000000 ;;
	tag0) { printf '\000\012'; head -c 200000000 /dev/zero; } ;;
	esac
}
# make check: zeros and a protobuf tag; check-long adds ones and text.
for kind in zeros ${long:+ones text} tag0; do
	# peak runs in the pipe's subshell: its $rc and $kb come back in a file.
	junk $kind | { peak "$TRACETUI" info -; echo "$rc $kb" >"$tmp/peak-rc"; }
	read -r rc kb <"$tmp/peak-rc"
	grep -q "^tracetui: -: offset 0: not a method trace: expected '\*version', 'SLOW', .*gzip, .*pprof" "$tmp/err"
	ok $? "a pipe of $kind: refused at offset 0, naming what was expected (status $rc)"
	[ $rc -eq 3 ] || head -3 "$tmp/err" | diag
	if [ $vlimit = unlimited ]; then
		ok 0 "a pipe of $kind: its peak # SKIP under AddressSanitizer"
	else
		[ "${kb:-0}" -lt 51200 ]
		ok $? "a pipe of $kind: peaks at $kb KB, under 50 MB"
	fi
done
cat "$tmp/good.trace" | "$TRACETUI" info - >/dev/null 2>&1
ok $? "a pipe of a V1 trace reads"
gzip -c "$tmp/good.trace" | "$TRACETUI" info - >/dev/null 2>&1
ok $? "a pipe of a gzipped trace reads"
cat "$tmp/nul2.hprof" | "$TRACETUI" info - >/dev/null 2>&1
ok $? "a pipe of an hprof profile reads"
if [ -x "$UNIT_PPROF" ]; then
	"$UNIT_PPROF" --write-amplified "$tmp/amp.pb" 3 3 3 leaf
	cat "$tmp/amp.pb" | "$TRACETUI" info - >/dev/null 2>&1
	ok $? "a pipe of a pprof profile reads"
fi

# The layouts without a magic: ART 16's low-overhead dump and Android
# 15's non-streaming V2.  A dump of 200,000 entries (5,000 in make
# check) that never exit, each of a method no packet defines, and a block
# announcing 2^24-1 records of 4 GiB; an Android 15 file of 30,000 method
# packets whose draft block announces 65,536 records and holds three.
deep=200000
[ -n "$long" ] || deep=5000
if [ -n "$python" ]; then
	python3 - "$tmp" $deep <<'PY'
import struct, sys
d = sys.argv[1]
deep = int(sys.argv[2])
def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        done = (v == 0 and not b & 0x40) or (v == -1 and b & 0x40)
        out.append(b if done else b | 0x80)
        if done:
            return bytes(out)
pay = bytearray()
pay += sleb(5000000000 << 1) + sleb(0x70000000)
for i in range(1, deep):
    pay += sleb(2000) + sleb(8)
blk = bytes([2]) + struct.pack("<I", 42) + struct.pack("<I", deep)[:3]
open(d + "/deep.bin", "wb").write(blk + struct.pack("<I", len(pay)) + pay)
huge = bytes([2]) + struct.pack("<I", 42) + b"\xff\xff\xff" + b"\xff" * 4
open(d + "/huge.bin", "wb").write(huge + sleb(2 << 1) + sleb(8))
lead = bytearray()
for i in range(30000):
    line = b"a.B\tm%d\t()V\t\n" % i
    lead += bytes([1]) + struct.pack("<QH", 0x1000 + 8 * i, len(line)) + line
key = b"*version\n4\nclock=wall\nelapsed-time-usec=5\n*end\n"
hdr = b"SLOW" + struct.pack("<HQ", 4, 100) + bytes(18)
blk = bytes([2]) + struct.pack("<IQIHH", 9, 0x1000, 0, 0xFFFF, 4)
open(d + "/lead.trace", "wb").write(lead + key + hdr + blk +
                                    bytes([8, 1, 0x79, 1]))
PY
	survives "$tmp/deep.bin" "low-overhead dump $deep deep" \
		tree ${long:+report info}
	survives "$tmp/huge.bin" "low-overhead block announcing 4 GiB" \
		info ${long:+report}
	survives "$tmp/lead.trace" "Android 15 V2 with 30,000 method packets" \
		report ${long:+info}
	"$TRACETUI" report "$tmp/huge.bin" 2>&1 >/dev/null |
		grep -q "offset 0: warning: ART low-overhead dump: entry block cut off"
	ok $? "a cut low-overhead block is named with its offset"
fi

# A file read through its mapping gives its pages back as it goes (past
# the first million records); the answers must equal a pipe's.
records=2500000
[ -n "$long" ] || records=1100000
printf 'format v1\nversion 3\nclock dual\ngenerate threads=3 methods=300 records=%s seed=7\n' \
	$records >"$tmp/big.spec"
if "$MKTRACE" "$tmp/big.spec" "$tmp/big.trace"; then
	"$TRACETUI" report --format tsv "$tmp/big.trace" >"$tmp/mapped.tsv"
	cat "$tmp/big.trace" |
		"$TRACETUI" report --format tsv /dev/stdin >"$tmp/piped.tsv"
	[ -s "$tmp/mapped.tsv" ] && cmp -s "$tmp/mapped.tsv" "$tmp/piped.tsv"
	ok $? "$records records: mapped and piped reads agree"
else
	ok 1 "$records records: mktrace failed"
fi

done_testing
