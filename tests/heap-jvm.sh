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
# added (make check: one dump, its leak suspects).  Skipped where there is no JDK (javac and java).
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
# javac's own JVM tuned as the program's is: the C1 compiler only and
# the serial collector start faster, and without the performance data
# file (-XX:-UsePerfData) each writes one file less; javac looks for no
# annotation processors (-proc:none).
if ! (cd "$tmp/java" && javac -J-XX:+UseSerialGC \
	-J-XX:TieredStopAtLevel=1 -J-XX:-UsePerfData -proc:none \
	-nowarn Dump.java 2>&1 &&
	java -Xmx32m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-XX:-UsePerfData -cp . Dump $dumps 2>&1) >"$tmp/java.log" ||
	[ ! -s "$tmp/a.hprof" ] || { [ -n "$long" ] && [ ! -s "$tmp/b.hprof" ]; }; then
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
