#!/bin/sh
# triage-stream.sh: `triage` from the sums pass (query/triage-stream.c,
# model/triage-sums.c) against triage of the model
# (TRACETUI_TEST_TRIAGE=model), byte for byte and status for status:
# text, --all, JSON, TSV, --fail-on, --threshold, --rules (a table of
# broad union, no-idle, cause and blocked rules on every kind of thread)
# and --frame-method (none drawn), on a generated trace, the fixtures, the real traces, the
# variants and the simpleperf recordings; with the sums pass split
# (TRACETUI_TEST_SPLIT) at the middle, and with a middle cut in parts
# that either worker takes.  Which way each run took
# (TRACETUI_TEST_TRIAGE=say) is checked where it is known: a trace
# without a launch streams, split or not, frames or not; one with a
# launch loads the model.
. "${top_srcdir:-.}/tests/lib.sh"

[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
cd "$tmp" || exit 1

printf 'format v1\nversion 3\nclock dual\nvm art\nproperty pid=1\n' >gen.spec
printf 'generate threads=4 methods=800 records=80000 seed=43 maxdepth=40\n' \
	>>gen.spec
"$MKTRACE" gen.spec gen.trace 2>err
ok $? "generated trace written"
mkdir fixtures
fixture_traces fixtures

t='\t'
{
	printf "U1${t}x${t}any${t}count>=1${t}warn${t}-${t}no-idle,cause${t}^android\\\\.(os|view)\\\\.${t}mine\n"
	printf "U2${t}y${t}main${t}count>=1${t}info${t}total>=1ms${t}-${t}^java\\\\.${t}mine\n"
	printf "U3${t}z${t}other${t}count>=1${t}warn${t}-${t}no-idle${t}\\\\.(run|call)${t}mine\n"
	printf "B1${t}blocked${t}any${t}call>=0.001ms${t}warn${t}-${t}blocked${t}.${t}mine\n"
	printf "B2${t}blocked${t}main${t}call>=1ms${t}warn${t}-${t}blocked${t}^com\\\\.${t}mine\n"
} >broad.rules

# same FILE SPLIT ARGS...: the streamed triage (split at SPLIT when
# set) against the model's, output and status; the way taken in $way.
same() {
	s_file=$1
	s_split=$2
	shift 2
	TRACETUI_TEST_TRIAGE=model "$TRACETUI" triage "$@" "$s_file" \
		>model.out 2>model.err
	echo "status $?" >>model.out
	TRACETUI_TEST_SPLIT=$s_split TRACETUI_TEST_TRIAGE=say \
		"$TRACETUI" triage "$@" "$s_file" >sums.out 2>sums.err
	echo "status $?" >>sums.out
	# The way taken, said on stderr, set apart by the shell.
	way=
	while IFS= read -r s_line || [ -n "$s_line" ]; do
		case $s_line in
		'triage: '*) way=${s_line#triage: } ;;
		*) printf '%s\n' "$s_line" ;;
		esac
	done <sums.err >sums.err2
	while IFS= read -r s_line || [ -n "$s_line" ]; do
		printf '%s\n' "$s_line"
	done <model.err >model.err2
	cmp -s model.out sums.out && cmp -s model.err2 sums.err2
}

# records FILE: how many records info counts, or 0.
records() {
	"$TRACETUI" info "$1" 2>/dev/null |
		awk '$1 == "records:" { n = $2 } END { print n + 0 }'
}

files="gen.trace"
for f in fixtures/*.trace; do
	name=${f##*/}
	name=${name%.trace}
	case $name in
	orphan-exits | mismatched-exit | unwind | wrap32 | time-backwards) ;;
	*) [ -n "$long" ] || continue ;;
	esac
	files="$files $f"
done
for dir in "$SHARED_TRACES" "$SHARED_VARIANTS"; do
	[ -d "$dir" ] || continue
	for f in "$dir"/*.trace "$dir"/*.bin; do
		[ -f "$f" ] || continue
		# make check: the orphan exits of Launcher__app and the
		# largest of the fast traces; check-long: every one.
		case $long:${f##*/} in
		:Launcher__app.trace | :AppMethodOrder__studioVersion.trace) ;;
		:*) [ "$dir" = "$SHARED_TRACES" ] && continue ;;
		esac
		files="$files $f"
	done
done
if [ -d "$SHARED_SIMPLEPERF" ]; then
	for f in "$SHARED_SIMPLEPERF"/*.trace*; do
		[ -f "$f" ] || continue
		files="$files $f"
		[ -z "$long" ] && break
	done
fi

# make check: a few fixtures of odd shapes and two real traces, each
# file asked two ways, one split at its middle; check-long: every
# fixture and real trace, every way, unsplit and split three ways.
for f in $files; do
	n=$(records "$f")
	splits="$((n / 2))"
	[ -n "$long" ] &&
		splits=": :$splits :$((n * 3 / 4)):$((n / 4)):1 :$((n * 9 / 10)):$((n / 10)):0"
	bad=""
	for split in $splits; do
		split=${split#:}
		same "$f" "${long:+$split}" --all || bad="$bad [--all $split]"
		same "$f" "$split" --rules broad.rules --frame-method '^none$' \
			-f json || bad="$bad [--rules $split]"
		[ -n "$long" ] || continue
		same "$f" "$split" -f tsv --fail-on warn ||
			bad="$bad [tsv $split]"
		same "$f" "$split" --frame-method '^none$' --threshold R20=0.01 \
			--threshold R2=0.01 --all || bad="$bad [--threshold $split]"
		same "$f" "$split" --rules broad.rules -f csv --fail-on error ||
			bad="$bad [csv $split]"
		same "$f" "$split" ||
			bad="$bad [text $split]"
	done
	[ -z "$bad" ]
	ok $? "${f##*/}: the sums' triage is the model's"
	[ -n "$bad" ] && echo "$bad" | diag
done

# The way taken: a trace without frames streams, split or not (the
# generated one with no frame methods), one that draws does not.
same gen.trace "" --frame-method '^none$'
[ "$way" = sums ]
ok $? "no frames: the findings from the sums ($way)"
same gen.trace 40000 --frame-method '^none$'
[ "$way" = sums ]
ok $? "no frames, split: the findings from the sums ($way)"
same gen.trace 50000:20000:1 --frame-method '^none$' -f json
[ "$way" = sums ]
ok $? "no frames, split with a middle: the findings from the sums ($way)"
same gen.trace ""
[ "$way" = sums ]
ok $? "frames, their causes, R21's hot spots: from the sums ($way)"
same gen.trace 30000 -f json
[ "$way" = sums ]
ok $? "frames, split: from the sums ($way)"
if [ -f "$SHARED_TRACES/AndroidPerformance__App.trace" ]; then
	same "$SHARED_TRACES/AndroidPerformance__App.trace" "" -f json
	[ "$way" = model ]
	ok $? "a launch: the model's findings ($way)"
fi
if [ -f "$SHARED_TRACES/Launcher__app.trace" ]; then
	same "$SHARED_TRACES/Launcher__app.trace" "" -f json
	[ "$way" = sums ]
	ok $? "Launcher__app: orphan exits, the findings from the sums ($way)"
fi
done_testing
