#!/bin/sh
# completions.sh: the bash and zsh completion scripts doc/completions
# writes from the command and option tables.  Both parse (bash -n, and
# zsh -n where zsh is installed); sourced in bash, the completion
# function offers every command `tracetui --help` lists, every option of
# every command's --help, the clock, --format (export's too) and --color
# values, folders for --source-dir and files elsewhere.
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
bashc=$builddir/doc/completion/tracetui
[ -f "$bashc" ] || bashc=$srcdir/doc/completion/tracetui
zshc=$builddir/doc/completion/_tracetui
[ -f "$zshc" ] || zshc=$srcdir/doc/completion/_tracetui
[ -f "$bashc" ] && [ -f "$zshc" ] || skip_all "no completion scripts"

bash -n "$bashc"
ok $? "the bash script parses (bash -n)"
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$zshc"
	ok $? "the zsh script parses (zsh -n)"
	# compinit finds it on fpath and binds it to tracetui.
	got=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit
		compinit -u -d "$2"; print -r -- $_comps[tracetui]
		autoload -Uz +X _tracetui && print loaded' zsh \
		"${zshc%/*}" "$tmp/zcompdump" 2>&1)
	[ "$got" = "$(printf '_tracetui\nloaded')" ]
	rc=$?
	ok $rc "zsh's compinit binds _tracetui to tracetui"
	[ $rc -eq 0 ] || echo "$got" | diag
fi
head -1 "$zshc" | grep -qx '#compdef tracetui'
ok $? "the zsh script starts with #compdef tracetui"

# What the program says it has.
commands=$("$TRACETUI" --help | awk '/^Commands:/ { on = 1; next }
	on && /^$/ { exit } on { print $1 }')
# The option lines of every --help: "  -t, --thread SEL  ..." or
# "      --ascii  ...".
for c in $commands; do
	"$TRACETUI" "$c" --help
done | grep -Eo -- '^ +(-[a-zA-Z], )?--[a-z][a-z-]*' | tr -d ' ' |
	tr ',' '\n' | sort -u >"$tmp/opts"
formats=$("$TRACETUI" export --help | sed -n 's/.*--format FMT *one of: //p' |
	tr -d ',')

# Completions in one bash: each case prints "WORDS -> REPLIES", the
# replies sorted (in the C locale) by bash itself.
mkdir -p "$tmp/dir/sub" && : >"$tmp/dir/trace.trace" && : >"$tmp/dir/tr.key"
cd "$tmp/dir" || exit 1
LC_ALL=C bash -c '
. "$1"
t() {
	local w i j r=()
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_tracetui
	for w in "${COMPREPLY[@]}"; do
		i=${#r[@]}
		while [ $i -gt 0 ] && [[ ${r[i - 1]} > $w ]]; do
			r[i]=${r[i - 1]}
			i=$((i - 1))
		done
		r[i]=$w
	done
	j=
	for w in "${r[@]}"; do j="$j$w "; done
	printf "%s -> %s\n" "$*" "$j"
}
t tracetui ""
t tracetui re
t tracetui tr
t tracetui report -
t tracetui report --cl
t tracetui report --clock ""
t tracetui report -c w
t tracetui export --format ""
t tracetui report --format=t
t tracetui --color ""
t tracetui --source-dir ""
t tracetui --mapping tr
t tracetui report tr
t tracetui --thread ""
complete -p tracetui
' sh "$bashc" >"$tmp/got" 2>"$tmp/err"
ok $? "sourced in bash, _tracetui answers"
diag <"$tmp/err"

# reply WORDS REPLIES: whether the case for WORDS offered REPLIES (each
# followed by a blank), matched by the shell in what bash printed.
nl='
'
got=$nl
while IFS= read -r line; do got=$got$line$nl; done <"$tmp/got"
reply() {
	case $got in
	*"$nl$1 -> $2$nl"*) return 0 ;;
	esac
	while IFS= read -r line; do
		case $line in "$1 ->"*) printf '%s\n' "$line" | diag ;; esac
	done <"$tmp/got"
	return 1
}

reply "tracetui " "$(printf '%s\n' $commands sub trace.trace tr.key |
	LC_ALL=C sort | tr '\n' ' ')"
ok $? "the first word: every command of --help, and the files and folders"
reply "tracetui re" "report "
ok $? "re completes to report"
reply "tracetui tr" "tr.key trace.trace tree triage "
ok $? "tr: the commands tree and triage and the files starting with tr"
sed -n 's/^tracetui report - -> //p' "$tmp/got" | tr ' ' '\n' |
	grep . | sort -u >"$tmp/offered"
comm -23 "$tmp/opts" "$tmp/offered" >"$tmp/missing"
[ -s "$tmp/opts" ] && [ ! -s "$tmp/missing" ]
ok $? "- offers every option the commands' --help list, long and short"
diag <"$tmp/missing"
reply "tracetui report --cl" "--clock "
ok $? "--cl completes to --clock"
reply "tracetui report --clock " "cpu wall "
ok $? "--clock offers wall and cpu"
reply "tracetui report -c w" "wall "
ok $? "-c w completes to wall"
want=$(printf '%s\n' text tsv csv json $formats | LC_ALL=C sort -u | tr '\n' ' ')
reply "tracetui export --format " "$want"
ok $? "--format offers the table formats and export's ($formats)"
reply "tracetui report --format=t" "text tsv "
ok $? "--format=t completes the value after the ="
reply "tracetui --color " "always auto never "
ok $? "--color offers auto, always, never"
reply "tracetui --source-dir " "sub "
ok $? "--source-dir offers folders only"
reply "tracetui --mapping tr" "tr.key trace.trace "
ok $? "--mapping offers files"
reply "tracetui report tr" "tr.key trace.trace "
ok $? "after a command: files"
reply "tracetui --thread " ""
ok $? "--thread offers nothing (thread names are in the trace)"
case $got in
*"-F _tracetui"*" tracetui$nl"*) r=0 ;;
*) r=1 ;;
esac
ok $r "the function is registered for tracetui"
cd / || exit 1

done_testing
