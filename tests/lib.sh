# lib.sh: helpers for the shell tests, which speak TAP.
# Sourced by each tests/*.sh; expects TRACETUI, MKTRACE, SHARED_TRACES and
# top_srcdir from the test environment (Makefile.am sets them).

tap_n=0
tap_failed=0

ok() {
	# ok CONDITION-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

diag() {
	sed 's/^/# /'
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# tap_merge FILE: the TAP lines of another program's output in FILE
# renumbered into ours, its diagnostics passed on.
tap_merge() {
	while IFS= read -r tm_line; do
		case $tm_line in
		"ok "*) ok 0 "${tm_line#ok [0-9]* - }" ;;
		"not ok "*) ok 1 "${tm_line#not ok [0-9]* - }" ;;
		"#"*) echo "$tm_line" ;;
		esac
	done <"$1"
}

# matches TEXT ERE...: every ERE matches a line of TEXT, and none that
# starts with ! (the rest of it) does: one awk for what took a grep and
# a pipe a pattern.
matches() {
	m_text=$1
	shift
	awk 'BEGIN { n = ARGC - 1; for (i = 1; i <= n; i++) { p[i] = ARGV[i]; ARGV[i] = "" } }
		{ for (i = 1; i <= n; i++) {
			q = p[i]
			if (q ~ /^!/) q = substr(q, 2)
			if ($0 ~ q) hit[i] = 1 } }
		END { for (i = 1; i <= n; i++) if ((p[i] ~ /^!/) == (i in hit)) exit 1 }' \
		"$@" <<M_TEXT
$m_text
M_TEXT
}

# asan_built BINARY: whether BINARY was built with AddressSanitizer,
# which reserves terabytes of address space (no ulimit -v under it), by
# one grep: instrumented code calls __asan_init, and a runtime linked in
# whole names itself (ldd would run a script and the loader, a tenth of
# a second).
asan_built() {
	grep -q -e __asan_init -e AddressSanitizer "$1" 2>/dev/null
}

# tm ARGS: tmux on the test's own server, named by $sock, with no
# configuration read.
tm() {
	tmux -L "$sock" -f /dev/null "$@"
}

# poll_nap N: the nap after a poll's Nth miss (from 0): a hundredth of
# a second for the first three, three for the next three, then a tenth:
# a screen drawn at once is seen at once, a slow one costs few polls.
poll_nap() {
	if [ "$1" -lt 3 ]; then
		sleep 0.01
	elif [ "$1" -lt 6 ]; then
		sleep 0.03
	else
		sleep 0.1
	fi
}

# pane_wait TEXT [PANE]: poll PANE (p) of that server for TEXT (a grep
# pattern when it holds one of . * [ ] ^ $ \, else plain text, matched
# by the shell: no grep a poll) for up to 20 s (a bound for a sanitizer
# build on a loaded machine, not a timing); false, with the pane as a
# diagnostic, when it never shows.
pane_wait() {
	pw_i=0
	case $1 in
	*[].*^$\\[]*) pw_re=yes ;;
	*) pw_re= ;;
	esac
	while [ $pw_i -lt 200 ]; do
		pw_s=$(tm capture-pane -p -t "${2:-p}" 2>/dev/null)
		if [ -n "$pw_re" ]; then
			printf '%s\n' "$pw_s" | grep -q -- "$1" && return 0
		else
			case $pw_s in *"$1"*) return 0 ;; esac
		fi
		poll_nap $pw_i
		pw_i=$((pw_i + 1))
	done
	tm capture-pane -p -t "${2:-p}" 2>/dev/null | diag
	return 1
}

# view FILE WxH [OPTION...]: the viewer on FILE in a fresh session p of
# that size (the one before ended by view_end), once its calls are read
# (the status line's "loading" gone); false after 30 s.  Needs
# $TRACETUI.  The server outlives its last session (exit-empty off): a
# session asked for while a server whose last one was killed is going
# down would be lost with it.  The suite's EXIT trap calls view_end and
# kills the server.
view() {
	v_file=$1 v_size=$2
	shift 2
	view_end
	tm new-session -d -s p -x "${v_size%x*}" -y "${v_size#*x}" \
		"env TERM=screen LC_ALL=C '$TRACETUI' $* '$v_file';
		echo '[viewer ended]'; sleep 10" \; \
		set-option -s exit-empty off >/dev/null 2>&1 || return 1
	# Up to 30 s in all: a sanitizer build on a busy machine is slow.
	# One capture a poll, matched by the shell.
	v_i=0
	while [ $v_i -lt 300 ]; do
		v_screen=$(tm capture-pane -p -t p 2>/dev/null)
		case $v_screen in
		*loading*) ;;
		*'| Profile |'*) return 0 ;;
		esac
		poll_nap $v_i
		v_i=$((v_i + 1))
	done
	tm capture-pane -p -t p 2>/dev/null | diag
	return 1
}

# view_end: the viewer in session p, if any, quit (Escape closes a
# prompt, then q) and its end waited for, up to 20 s, before the session
# goes.  A sanitizer build's leak check at exit stops the process while
# it looks: the hangup of a session killed meanwhile can leave it
# spinning for good, loading the machine for the rest of the run.
view_end() {
	tm has-session -t p 2>/dev/null || return 0
	keys Escape q
	pane_wait '^\[viewer ended\]' >/dev/null
	tm kill-session -t p >/dev/null 2>&1
}

# keys KEY...: type the keys into p, one send-keys each (a view that
# opens on the first must see the next), an Escape apart from the next
# key by more than the viewer's 25 ms (else the two read as Alt-key).
keys() {
	for k; do
		tm send-keys -t p "$k"
		case $k in
		Escape) sleep 0.05 ;;
		*) sleep 0.02 ;;
		esac
	done
}

# search RE: / RE Enter in p.
search() {
	tm send-keys -t p / && tm send-keys -t p -l "$1" && tm send-keys -t p Enter
	sleep 0.03
}

# The per-method numbers of a `report --format tsv` on one clock, in a form
# that compares with dmtracedump's: placeholder rows dropped (dmtracedump
# lumps unknown ids together), rows with the same name summed, sorted.
normalize_tsv() {
	awk -F'\t' 'NR > 1 && $1 !~ /^\(unknown / {
		incl = ($4 != "") ? $4 : $6
		excl = ($5 != "") ? $5 : $7
		calls[$1] += $2; rcalls[$1] += $3
		i[$1] += incl; e[$1] += excl
	}
	END { for (m in calls) printf "%s\t%d\t%d\t%d\t%d\n", m, calls[m],
		rcalls[m], i[m], e[m] }' | LC_ALL=C sort
}

# Run a command, keep stdout in $out, stderr in $err, status in $rc.
# stderr is read by the shell, as $(cat) would give it (trailing
# newlines dropped): a process less per run.
run() {
	out=$("$@" 2>"$tmp/stderr")
	rc=$?
	err=
	while IFS= read -r r_line || [ -n "$r_line" ]; do
		err="$err$r_line
"
	done <"$tmp/stderr"
	while :; do
		case $err in
		*"
") err=${err%?} ;;
		*) break ;;
		esac
	done
}

# replay_cuts SKIP STRIDE FILE WHAT [RUNNER...]: the fuzz target's
# invariants on FILE's first SKIP prefixes and every STRIDE-th after, in
# one process (tests/fuzz-replay, run through RUNNER when given); one
# test, WHAT its name.  Nothing when fuzz-replay was not built.
replay_cuts() {
	r_replay=${top_builddir:-.}/tests/fuzz-replay
	[ -x "$r_replay" ] || return 0
	r_skip=$1 r_stride=$2 r_file=$3 r_what=$4
	shift 4
	"$@" "$r_replay" --prefixes "$r_skip" "$r_stride" "$r_file" \
		>"$tmp/replay.out" 2>&1
	r_rc=$?
	ok $r_rc "$r_what: every invariant holds"
	[ $r_rc -eq 0 ] || head -3 "$tmp/replay.out" | diag
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracetui-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The build and source trees, as absolute paths.
abs_builddir=${top_builddir:-.}
abs_srcdir=${top_srcdir:-.}
case $abs_builddir in /*) ;; .) abs_builddir=$PWD ;; *) abs_builddir=$PWD/$abs_builddir ;; esac
case $abs_srcdir in /*) ;; .) abs_srcdir=$PWD ;; *) abs_srcdir=$PWD/$abs_srcdir ;; esac
# demo_trace DEST: the demo trace `make` builds linked at DEST, or
# written there when it is missing (a suite run before make); false when
# mktrace fails.
demo_trace() {
	if [ -f "$abs_builddir/data/demo.trace" ]; then
		ln -s "$abs_builddir/data/demo.trace" "$1"
	else
		"$MKTRACE" "$abs_srcdir/data/demo.spec" "$1"
	fi
}

# tiered_trace DEMO: in $trace, a trace for checks that hold on any
# trace: DEMO (the demo's 140,000 calls) under `make check-long`, else
# the generated fixture render-gen of a few threads (in $tmp/fixtures).
tiered_trace() {
	if [ -n "$long" ]; then
		trace=$1
	else
		mkdir -p "$tmp/fixtures"
		fixture_traces "$tmp/fixtures"
		trace=$tmp/fixtures/render-gen.trace
	fi
}

# fixture_traces DIR: for each tests/fixtures/NAME.spec, DIR/NAME.trace
# and its side files as mktrace writes them, and DIR/NAME.trace-failed
# holding mktrace's stderr where it refused the spec.  They are links to
# what `make check` wrote once into tests/fixture-traces (check_DATA), in
# one process; when any of those is missing or older than its spec or
# $MKTRACE (a suite run by hand), mktrace writes them all into DIR.  A
# suite must not write to those names: it would write through the links.
f_built=$abs_builddir/tests/fixture-traces
f_specs=$abs_srcdir/tests/fixtures
fixture_traces() {
	f_dir=$1
	f_fresh=yes
	set -- # the files to link: those of today's specs only
	for f_spec in "$f_specs"/*.spec; do
		f_name=${f_spec##*/}
		f_name=$f_built/${f_name%.spec}
		if ! [ -f "$f_name.made" ] || [ "$f_spec" -nt "$f_name.made" ] ||
			[ "$MKTRACE" -nt "$f_name.made" ]; then
			f_fresh=
			break
		fi
		for f_file in "$f_name".trace*; do
			[ -e "$f_file" ] && set -- "$@" "$f_file"
		done
	done
	if [ -n "$f_fresh" ]; then
		[ $# -eq 0 ] || ln -s "$@" "$f_dir"/
		return
	fi
	for f_spec in "$f_specs"/*.spec; do
		f_name=${f_spec##*/}
		f_name=${f_name%.spec}
		"$MKTRACE" "$f_spec" "$f_dir/$f_name.trace" 2>"$tmp/f_err" ||
			mv "$tmp/f_err" "$f_dir/$f_name.trace-failed"
	done
}

# The python3 interpreter itself, in $python (empty without one): a
# version manager's shim costs a dozen processes a call.  The first
# python3 on PATH that is not a script (a shim starts with #!) is found
# by the shell alone; only with shims alone is one asked where it leads.
python=
p_shim=
p_ifs=$IFS
IFS=:
for p_dir in $PATH; do
	[ -x "${p_dir:-.}/python3" ] && [ -f "${p_dir:-.}/python3" ] || continue
	p_head=
	IFS= read -r p_head <"${p_dir:-.}/python3" 2>/dev/null
	case $p_head in
	"#!"*) [ -n "$p_shim" ] || p_shim=${p_dir:-.}/python3 ;;
	*) python=${p_dir:-.}/python3; break ;;
	esac
done
IFS=$p_ifs
if [ -z "$python" ] && [ -n "$p_shim" ]; then
	python=$("$p_shim" -c 'import sys; print(sys.executable)' 2>/dev/null)
fi

# python3 is the interpreter itself when there is one, so that the
# suites that call python3 by name skip the shim too.
if [ -n "$python" ]; then
	python3() { "$python" "$@"; }
fi

# long: "yes" under `make check-long` (TRACETUI_LONG=1), which adds the
# checks that find no line the others miss: more seeds, bigger inputs,
# every real trace through every command.
long=
[ -n "${TRACETUI_LONG:-}" ] && [ "${TRACETUI_LONG:-}" != 0 ] && long=yes

# is_fast_trace FILE: true for every real trace under `make check-long`,
# and in `make check` for one trace of each family of ../shared/traces:
# version 1 with one clock, version 3 with both, orphan and mismatched
# exits, an exception's unwinding, a small app's recording, streaming
# (sampled), a refused file.  The oracles of other tools stay in
# corpus.sh.  (A case, not a subshell: suites call it per file.)
# tests/tap.h's tap_fast_trace keeps the same list for the C tests.
is_fast_trace() {
	[ -n "$long" ] && return 0
	case ${1##*/} in
	perflib__basic-api10.trace | perflib__basic.trace | \
		perflib__mismatched.trace | perflib__exception.trace | \
		Launcher__app.trace | AppMethodOrder__studioVersion.trace | \
		perflib__header.trace)
		return 0 ;;
	esac
	return 1
}

# is_fast_fixture NAME: true for every fixture (tests/fixtures/NAME.spec)
# under `make check-long`, and in `make check` for one of each kind: each
# version on both clocks, a streaming trace and a generated one,
# unbalanced exits, unwinding, recursion, a clock that wraps or goes
# back, a broken file, a drawn one.  (A case: suites call it per file.)
is_fast_fixture() {
	[ -n "$long" ] && return 0
	case $1 in
	v1-dual | v2-dual | v3-dual | v2-ns | stream-f2 | generated-stream | \
		orphan-exits | mismatched-exit | unwind | recursion-indirect | \
		wrap32 | time-backwards | broken-truncated-record | render-calls)
		return 0 ;;
	esac
	return 1
}

# batch_py NAME SCRIPT ARGS...: queue what `python3 SCRIPT ARGS...`
# checks (its status and output); batch_py_done runs every queued
# script in one interpreter, in order, and reports each as one ok named
# NAME, with what a failing one printed.  A python3 start costs more
# than most checks.  No argument may hold a tab or a newline.
batch_py() {
	b_name=$1
	shift
	(IFS='	'; printf '%s\t%s\n' "$b_name" "$*") >>"$tmp/batch-py"
}

batch_py_done() {
	[ -s "$tmp/batch-py" ] || return 0
	cat >"$tmp/batch-py.py" <<'PY'
import contextlib, io, runpy, sys
for line in open(sys.argv[1], encoding="utf-8"):
    name, *argv = line.rstrip("\n").split("\t")
    sys.argv = argv
    out = io.StringIO()
    status = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        status = 0 if e.code in (None, 0) else 1
        if isinstance(e.code, str):
            out.write(e.code)
    except BaseException as e:
        status = 1
        out.write("%s: %s" % (type(e).__name__, e))
    why = out.getvalue().strip().replace("\n", "\\n").replace("\t", " ")
    print("%d\t%s\t%s" % (status, name, why), flush=True)
PY
	python3 "$tmp/batch-py.py" "$tmp/batch-py" >"$tmp/batch-py.out" 2>&1 ||
		printf '1\tbatch_py\t%s\n' "$(tr '\n' ' ' <"$tmp/batch-py.out")" \
			>>"$tmp/batch-py.out"
	while IFS='	' read -r b_status b_name b_why; do
		case $b_status in 0 | 1) ;; *) b_name="batch_py: $b_status"; b_status=1 ;; esac
		ok "$b_status" "$b_name"
		[ "$b_status" -eq 0 ] || [ -z "$b_why" ] ||
			printf '%s\n' "$b_why" | sed 's/\\n/\n/g' | diag
	done <"$tmp/batch-py.out"
	: >"$tmp/batch-py"
}
