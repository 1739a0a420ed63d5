#!/bin/sh
# heap-jvm.sh: Java heap dumps written by a real JVM (HotSpot's
# HotSpotDiagnosticMXBean.dumpHeap: JAVA PROFILE 1.0.2, id size 8, its
# own record order, root kinds and unreachable objects), made on the spot
# by a small program, so every run reads a dump nobody shared.  The
# class histogram equals tests/heap-oracle.py's on every row; the
# program's own objects are counted as it made them; the path to them
# goes through the static field that holds them; gzip gives the same.
# In check-long it writes a second dump, of live objects: its histogram
# the oracle's, no leak suspects, and the diff of the two shows what it
# added (make check: one dump, its leak suspects).  The program runs as
# compiled once and kept below (make check, while its source is the
# same) or compiled on the spot (check-long).  Skipped where there is no
# JDK (javac and java).
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1 ||
	skip_all "no JDK (javac, java)"
oracle="$srcdir/tests/heap-oracle.py"

# The program: 100 Held objects kept by a static list (with Strings,
# int arrays and weakly held byte arrays beside them), a dump of
# everything, live or not; then 150 more, and a dump of what is live.
mkdir "$tmp/java"
cat >"$tmp/java/Dump.java" <<'JAVA'
import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Dump {
	static final class Held {
		final int[] data;
		final String name;
		Held(int i) { data = new int[i % 13]; name = "held-" + (i % 40); }
	}

	static final List<Object> keep = new ArrayList<>();

	static void add(int from, int to) {
		for (int i = from; i < to; i++)
			keep.add(new Held(i));
	}

	public static void main(String[] args) throws Exception {
		HotSpotDiagnosticMXBean bean = ManagementFactory
			.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
		Map<String, Object> weak = new HashMap<>();
		for (int i = 0; i < 60; i++)
			weak.put("w" + i, new WeakReference<>(new byte[100 + i]));
		keep.add(weak);
		add(0, 100);
		bean.dumpHeap(args[0], false);
		if (args.length < 2)
			return;
		add(100, 250);
		bean.dumpHeap(args[1], true);
	}
}
JAVA
dumps=$tmp/a.hprof
[ -z "$long" ] || dumps="$dumps $tmp/b.hprof"

# The program compiled: `javac --release 8` (class files for Java 8 and
# later) of Dump.java above, the class files zlib-compressed and
# base64-encoded below with the SHA-256 of the source they came from.  A
# javac start costs about half the suite: make check runs these as long
# as Dump.java is still that source; check-long compiles it every time,
# and so does make check once Dump.java changes (REGENERATE=1 prints
# the lines to paste here then).
classes_sha=5d840b1fb913b0a484b6958377cff44f046c4399968db24cdd69bb578d58abb1
classes='
eNqlVctSG0cUPa0RDAwjPIiXeIiHhUGSARHsJLaFcXgGEmET5EBsb9xIjTxGGqlGoyRknS9h
kzVJWRjjcmWdVT4g+/yDK+Xk9khIGLCdKi+k29Pd9/R9nD69WMoVRlZENj2ZyvJiEYBn7I83
L17R4DqiGjxQVHh1NKCRwXjKv+exLLcysXvbT0XKYWicMS3TmWVQwpHNZjShWYWmowU6Q/Pi
CTiDN80dzuB5tKqilaG7jpR0bNPKzJfMbFrYGnxQmtDG0PCE/Cbkd7uODnTSUbxQEBZhTYQT
Z93jkcQ7EOMSoltCBBj6w6vv39irow/9DE1OvrLI0BE+7xKXmQ7oGMQQpWbxnGDwn99Fa3Tg
JpmFfJq2XEqYlrhbym0L+z7fztKMlsyX7JRYNuWHW69JicKgr1qWsBdkT0RRRZgw5CoZWU9M
0fke2SwYstY0MmQwZBn9GjBM9jKN5uB190Wih2DRPsNXeKk9gxo9hu/BIS75jTL8fUa4UEZX
GT3PEDxwIUL03+hC+ch9xD3oCkbJajTbhDFEEHCjPWFNY7DGmq2PY81JnrtCkDEqVS05ZjaW
MItO3KVPnVmyaYY8qK1a7Ba0o0NFp44udDO0vu1OJ/I0UajzNIUqUcUjD1X0MERT+VysWLJi
OW7xjMgJy4mt5J1kIe8smjxj5YuOmVr7bl5wS5NkURHUMYBBhtE65CnftdpwmaecvL3H0JYR
znqWOzt5O1dBYrhzOiK3729x+hRgzdOdSlejVzFMwPVsV3jxyRovaEQK6sXI+65cSF65MQb2
gxxHdERx9SOuWwgTEmLyg9cthCkdn2D6w9dNxXWGvvq0LXZiW4LvbogdYQsrJTRcw2eSBp+/
o7fEi5u4pSKuYwa3GXz1SlGViBaFEpHjxgWuF4Cdn9KIw3ck5b4g5QqvujwMYF7HAhYpvTTR
dUXIc7ouKObDyKaKZYb2ekxzts33JGE1LEEhwifNjMWdkk0yMXLmSsycD2c2/h7N8SUdntql
rKvf3hw3LRnZowv6TOKlLf2YEgXHzFskRN+chOnuqq1QjjOpbPVS/z9RO5Gy4aqUMSqYlDKG
FVdvVkm6mFQQ+v+KZoJkXXGTUlaRqa9rMiU1hIpf3bpBrgrZwd7b/X376P0VqhS8flK8I/g9
2PrZw3759+8D9xwJ4icHkHCo8pkgO4BOJFxYzz/wsNd0z5uxhru0XeL/RadKh5/8gefo/R2B
xDGGSE8vrymzQWNmH1PjxwjRxBX/aBnhYBnjZcSOce2BkQ4+ftl0iE+PcEOhOBSK408Kb7wS
l2Kkn2P2alSZVo4wpyD6qmEf3gMj3YbX7oJ32usu1EO/hVb6D9BXD8XYizaKtQf9VIs+LFPR
1imZTXobHpMQ7FCxM/Qu5Onq7ZGsJ9x3Q3mDdhUBFTcp0ekh3KNZWfp1qulGrfwht0lAyzGW
KLMvf4N6tgkGbUm6gd3Ht9W3wkcgmwj8B/6m6To='
# classes.py pack|unpack SHA DIR [B64]: unpack writes DIR's class files
# from B64 when DIR/Dump.java's SHA-256 is SHA (else exit 1); pack
# prints the two lines above for DIR's class files.
cat >"$tmp/classes.py" <<'PY'
import base64, hashlib, os, struct, sys, zlib
what, sha, d = sys.argv[1:4]
src = hashlib.sha256(open(os.path.join(d, 'Dump.java'), 'rb').read())
if what == 'pack':
    blob = b''
    for name in sorted(os.listdir(d)):
        if name.endswith('.class'):
            data = open(os.path.join(d, name), 'rb').read()
            blob += name.encode() + b'\0' + struct.pack('>I', len(data)) + data
    text = base64.b64encode(zlib.compress(blob, 9)).decode()
    print('classes_sha=' + src.hexdigest())
    print("classes='")
    print('\n'.join(text[i:i + 72] for i in range(0, len(text), 72)) + "'")
    sys.exit(0)
if src.hexdigest() != sha:
    sys.exit(1)
blob = zlib.decompress(base64.b64decode(''.join(sys.argv[4].split())))
while blob:
    name, blob = blob.split(b'\0', 1)
    n = struct.unpack('>I', blob[:4])[0]
    open(os.path.join(d, name.decode()), 'wb').write(blob[4:4 + n])
    blob = blob[4 + n:]
PY
# javac's own JVM tuned as the program's is: the C1 compiler only and
# the serial collector start faster, and without the performance data
# file (-XX:-UsePerfData) each writes one file less; javac looks for no
# annotation processors (-proc:none).
# Java 8's class files, or where this javac no longer writes them, its
# own.
javac_() {
	javac -J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1 \
		-J-XX:-UsePerfData -proc:none -nowarn "$@" Dump.java 2>&1
}
compile() {
	(cd "$tmp/java" && { javac_ --release 8 -Xlint:-options || javac_; })
}
run_dump() {
	(cd "$tmp/java" && java -Xmx32m -XX:+UseSerialGC \
		-XX:TieredStopAtLevel=1 -XX:-UsePerfData -cp . Dump $dumps 2>&1)
}
if [ -z "$long" ] && [ -z "${REGENERATE:-}" ] &&
	python3 -S "$tmp/classes.py" unpack "$classes_sha" "$tmp/java" \
		"$classes" 2>"$tmp/java.log" &&
	run_dump >>"$tmp/java.log"; then
	: # the program as compiled before
else
	[ -n "$long" ] || [ -n "${REGENERATE:-}" ] ||
		echo "the class files kept here are not Dump.java's, or did" \
			"not run: compiled (REGENERATE=1 prints new ones)" | diag
	rm -f "$tmp/java/"*.class
	{ compile && run_dump; } >"$tmp/java.log"
	[ -z "${REGENERATE:-}" ] ||
		python3 -S "$tmp/classes.py" pack - "$tmp/java" | diag
fi
if [ ! -s "$tmp/a.hprof" ] || { [ -n "$long" ] && [ ! -s "$tmp/b.hprof" ]; }; then
	diag <"$tmp/java.log"
	skip_all "the JDK did not write its dumps"
fi

"$TRACETUI" info "$tmp/a.hprof" >"$tmp/info" 2>"$tmp/err"
format= complete= reachable= objects=
while IFS= read -r line; do
	case $line in
	'format: binary HPROF heap dump (JAVA PROFILE 1.0.2), id size 8')
		format=yes ;;
	'status: complete') complete=yes ;;
	'reachable: '[0-9]*' objects'*)
		reachable=${line#reachable: }
		reachable=${reachable%% *} ;;
	'objects: '[0-9]*' '*)
		objects=${line#objects: }
		objects=${objects%% *} ;;
	esac
done <"$tmp/info"
[ -n "$format" ] && [ -n "$complete" ] && [ ! -s "$tmp/err" ]
ok $? "a HotSpot dump: JAVA PROFILE 1.0.2, id size 8, read whole"
diag <"$tmp/err"

# same_histogram DUMP DESCRIPTION: every row of the TSV histogram equals
# the oracle's (python3 -S: no site packages to import); report's TSV
# kept in DUMP.tsv.
same_histogram() {
	python3 -S "$oracle" "$1" 2>"$tmp/oracle.err" | grep -v '^#' |
		LC_ALL=C sort >"$tmp/oracle.tsv"
	"$TRACETUI" report --format tsv "$1" >"$1.tsv"
	tail -n +2 "$1.tsv" | LC_ALL=C sort >"$tmp/ours.tsv"
	cmp -s "$tmp/oracle.tsv" "$tmp/ours.tsv" && [ -s "$tmp/ours.tsv" ]
	sh_rc=$?
	ok $sh_rc "$2: every histogram row equals the oracle's" \
		"($(wc -l <"$tmp/ours.tsv") rows)"
	[ $sh_rc -eq 0 ] || {
		diff "$tmp/oracle.tsv" "$tmp/ours.tsv" | head -5
		head -3 "$tmp/oracle.err"
	} | diag
}
same_histogram "$tmp/a.hprof" "HotSpot, every object"
[ -z "$long" ] || same_histogram "$tmp/b.hprof" "HotSpot, live objects"

# The program's own objects, as it made them.
held=$(awk -F'\t' '$1 == "Dump$Held" { print $2 }' "$tmp/a.hprof.tsv")
[ "$held" = 100 ]
ok $? "the 100 Held objects the program kept (counted $held)"
[ -n "$reachable" ] && [ "$reachable" -lt "$objects" ]
ok $? "a dump of live and dead objects: $reachable of $objects reachable"

"$TRACETUI" paths "$tmp/a.hprof" 'Dump$Held' >"$tmp/path"
awk '/Dump\.keep / { k = 1 } /\[[0-9]*\]/ { i = 1 } END { exit !(k && i) }' \
	"$tmp/path"
ok $? "the path to a Held object goes through the static Dump.keep"
diag <"$tmp/path"

if [ -n "$long" ]; then
	"$TRACETUI" diff --format tsv "$tmp/a.hprof" "$tmp/b.hprof" >"$tmp/diff"
	grep -q '^Dump\$Held	100	250	' "$tmp/diff"
	ok $? "the diff of the two dumps: Held from 100 to 250"
	grep 'Held' "$tmp/diff" | diag
fi

# The last dump written (check-long: the live one).
run "$TRACETUI" leaks --fail-if-any "${dumps##* }"
ok $([ $rc -eq 0 ] && [ "$out" = "no leak suspects" ] && echo 0 ||
	echo 1) "leaks: none in a program that leaks nothing"

gzip -1 -c "$tmp/a.hprof" >"$tmp/a.hprof.gz"
"$TRACETUI" report --format tsv "$tmp/a.hprof.gz" >"$tmp/gz"
cmp -s "$tmp/a.hprof.tsv" "$tmp/gz"
ok $? "the gzipped HotSpot dump gives the same histogram"

done_testing
