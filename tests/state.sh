#!/bin/sh
# state.sh: what the viewer carries between its views, in a detached tmux
# server of our own, on the shared traces ($SHARED_TRACES; skipped when
# absent):
# - passing through every view with Tab never changes the selection:
#   after /performCreate and Tab round all of them, the chart still
#   shows performCreate's call (its caller named), not a frame's;
# - Esc out of the chart opened from the Frames view goes back as [
#   does: the Frames list as it was, its range restored (all), its row
#   selected, and Esc again the profile of the whole trace; the same
#   from the Calls view;
# - the call tree, opened before and turned bottom-up, shows the
#   selection made since in the profile, not its old row;
# - D in the chart selects the dropped call's caller, as M does.
# Every wait polls for at most 5 s; a viewer is shown once its calls
# are read, so the keys after go to the views that need them.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
T=${SHARED_TRACES:-}
[ -n "$T" ] && [ -d "$T" ] || skip_all "no shared traces"
regular=$T/firefox-profiler__art-trace-regular.trace
streaming=$T/perflib__streaming.trace
[ -f "$regular" ] && [ -f "$streaming" ] || skip_all "no shared traces"

unset TMUX
sock=tracetui-state-$$
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# view FILE WxH: the viewer on FILE in a fresh session p of that size,
# once its calls are read (the status line's "calls loading" gone).
view() {
	tm kill-session -t p >/dev/null 2>&1
	tm new-session -d -s p -x "${2%x*}" -y "${2#*x}" \
		"env TERM=screen LC_ALL=C '$TRACETUI' '$1'; sleep 10" \
		>/dev/null 2>&1 || return 1
	pane_wait '| Profile |' >/dev/null || return 1
	v_i=0
	while [ $v_i -lt 50 ]; do
		tm capture-pane -p -t p | grep -q 'loading' || return 0
		sleep 0.1
		v_i=$((v_i + 1))
	done
	return 1
}

# keys KEY...: type the keys, one send-keys each (a view that opens on
# the first must see the next).
keys() {
	for k; do
		tm send-keys -t p "$k"
		sleep 0.05
	done
}

# search RE: / RE Enter.
search() {
	tm send-keys -t p / && tm send-keys -t p -l "$1" && tm send-keys -t p Enter
	sleep 0.1
}

if view "$regular" 120x30; then
	search performCreate
	pane_wait 'android.app.Activity.performCreate' >/dev/null
	keys 2
	pane_wait 'called by a.a.Instrumentation.callActivityOnCreate' >/dev/null
	keys Tab Tab Tab Tab Tab Tab Tab Tab Tab
	pane_wait '| Profile |' >/dev/null
	keys 2
	pane_wait 'called by a.a.Instrumentation.callActivityOnCreate'
	ok $? "Tab through every view, the Frames too: the chart still shows performCreate's call"

	keys 7 b 1
	search 'View\.measure \(II\)V'
	keys 7
	pane_wait '^android.view.View.measure (II)V .*depth 1'
	ok $? "the call tree opened before, bottom-up: it shows the selection made since"

	keys 1
	search performCreate
	keys L
	pane_wait '| Timeline |' >/dev/null
	keys D
	pane_wait 'drop android.app.Activity.performCreate; its caller a.a.Instrumentation.callActivityOnCreate sel'
	ok $? "D in the chart: the dropped call's caller is selected, as after M"
else
	ok 1 "the viewer opens $regular"
fi

if view "$streaming" 80x24; then
	keys J
	pane_wait 'row 1 of 252' >/dev/null
	keys Down Enter
	pane_wait '| Timeline |.*range: wal' >/dev/null
	keys Escape
	pane_wait '| Frames |.*range: all'
	r1=$?
	pane_wait 'a.v.Choreographer.doFrame: frame at .*row 2 of 252'
	ok "$((r1 + $?))" "Esc out of the chart a frame opened: the Frames list as it was, range restored, that frame selected"
	keys Escape
	pane_wait '| Profile |.*range: all'
	ok $? "Esc again: the profile of the whole trace"

	keys I
	pane_wait '| Calls |' >/dev/null
	keys Down
	sleep 0.2
	at=$(tm capture-pane -p -t p | grep -o 'row [0-9]* of [0-9]*' | head -1)
	keys Enter
	pane_wait '| Timeline |.*range: wal' >/dev/null
	keys Escape
	pane_wait '| Calls |.*range: all'
	r1=$?
	pane_wait "${at:-no row}"
	ok "$((r1 + $?))" "Esc out of the chart a call opened: the Calls list as it was ($at), range restored"
else
	ok 1 "the viewer opens $streaming"
fi
tm kill-server >/dev/null 2>&1
done_testing
