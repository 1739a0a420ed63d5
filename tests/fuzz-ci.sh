#!/bin/sh
# fuzz-ci.sh: a bounded fuzzing run for CI.  When clang can link libFuzzer
# targets, build tests/fuzz-trace (--enable-fuzzing) in a temporary clone
# of this repository and fuzz it for at most FUZZ_SECONDS seconds (120 and
# never more), starting from tests/fuzz-corpus.  Exit 0 when nothing was
# found, or when clang or libFuzzer is missing (it says so and skips);
# exit 1 when the build fails or the fuzzer finds a crash, leak, timeout
# or invariant violation: the input is printed in base64 and kept.
set -u
cd "$(dirname "$0")/.."
root=$PWD
seconds=${FUZZ_SECONDS:-120}
[ "$seconds" -gt 0 ] 2>/dev/null && [ "$seconds" -le 120 ] || seconds=120
fuzz_cc=${FUZZ_CC:-clang}
flags=-fsanitize=fuzzer,address,undefined

if ! command -v "$fuzz_cc" >/dev/null 2>&1; then
	echo "fuzz-ci: $fuzz_cc not found; skipped"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tracetui-fuzz.XXXXXX")
cat >"$work/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return data && size ? 0 : 0;
}
PROBE
if ! "$fuzz_cc" $flags "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
	echo "fuzz-ci: $fuzz_cc cannot link libFuzzer targets; skipped"
	rm -rf "$work"
	exit 0
fi

git clone -q "$root" "$work/src" &&
	(cd "$work/src" && autoreconf -fi &&
		./configure -q --enable-fuzzing CC="$fuzz_cc" \
			CFLAGS="-O1 -g" &&
		make -j2 tests/fuzz-trace) >"$work/build.log" 2>&1 || {
	tail -n 30 "$work/build.log"
	echo "fuzz-ci: building tests/fuzz-trace failed (kept in $work)"
	exit 1
}

# New inputs go to the first directory; the seeds are only read.
mkdir "$work/corpus" "$work/findings"
echo "fuzz-ci: fuzzing for $seconds s"
# An input's checks build every derived structure, a deep model's
# bottom-up tree of its calls times its depth among them, under both
# sanitizers: a few seconds on a busy machine.  A hang still ends the
# run at 30 s.
"$work/src/tests/fuzz-trace" -max_len=65536 -timeout=30 \
	-rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 \
	-artifact_prefix="$work/findings/" \
	"$work/corpus" "$work/src/tests/fuzz-corpus" >"$work/fuzz.log" 2>&1
rc=$?
grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss)' \
	"$work/fuzz.log"
if [ "$rc" -eq 0 ] && [ -z "$(ls "$work/findings")" ]; then
	echo "fuzz-ci: no findings"
	rm -rf "$work"
	exit 0
fi
echo "fuzz-ci: FINDINGS (fuzzer exit $rc); log and inputs kept in $work"
first=$(grep -n -m1 -E 'ERROR|runtime error|invariant violated' \
	"$work/fuzz.log" | cut -d: -f1)
sed -n "${first:-1},$((${first:-1} + 25))p" "$work/fuzz.log"
for f in "$work"/findings/*; do
	[ -f "$f" ] || continue
	echo "fuzz-ci: $(basename "$f"), base64:"
	base64 "$f"
done
exit 1
