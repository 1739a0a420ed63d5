#!/bin/sh
# readme.sh: the README's tables say what the program has.  Its Commands
# table names every command `tracetui --help` lists, and no other; every
# key its Keys tables name is a key of the request table, as the help
# view (drawn by tests/render) lists it.  Its quick start is the two
# commands it promises.  The check is run on altered copies too, to show
# it fails when a command or a key is missing or unknown (make check:
# one copy with the four faults; check-long: a copy for each as well).
. "${top_srcdir:-.}/tests/lib.sh"

builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
RENDER=${RENDER:-$builddir/tests/render}
readme=$srcdir/README
[ -f "$readme" ] || skip_all "no README"
[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
[ -x "$RENDER" ] || skip_all "no $RENDER"
demo_trace "$tmp/demo.trace" || skip_all "mktrace failed on data/demo.spec"
# The help view is the same on any trace: make check draws it on a
# small one.
tiered_trace "$tmp/demo.trace"

# What the program has: its commands, one a line...
"$TRACETUI" --help | awk '/^Commands:/ { on = 1; next }
	on && /^$/ { exit } on { print $1 }' | sort -u >"$tmp/commands"
# ...and every key of the help view, between its "Keys" and "Mouse"
# headings ("   k Up               move up; ..."), drawn tall enough to
# hold all of them: the keys field ends at two blanks.
"$RENDER" "$trace" 160x1000 VIEW_HELP >"$tmp/help" 2>&1
awk '/^ Keys *$/ { on = 1; next } /^ Mouse/ { seen = 1; exit }
	on && /^   [^ ]/ { sub(/^   /, ""); sub(/  .*/, ""); n = split($0, k, " ")
		for (i = 1; i <= n; i++) print k[i] }
	END { if (!seen) print "(no Mouse heading: the help was cut)" }' \
	"$tmp/help" | sort -u >"$tmp/keys"
n_cmd=$(wc -l <"$tmp/commands")
n_key=$(wc -l <"$tmp/keys")
[ "$n_cmd" -ge 5 ] && grep -qx report "$tmp/commands"
rc=$?
ok $rc "tracetui --help lists its commands ($n_cmd)"
[ $rc -eq 0 ] || "$TRACETUI" --help 2>&1 | head -20 | diag
[ "$n_key" -ge 20 ] && grep -qx q "$tmp/keys" && grep -qx Enter "$tmp/keys" &&
	! grep -q '^(no' "$tmp/keys"
rc=$?
ok $rc "the help view lists the request table's keys ($n_key)"
[ $rc -eq 0 ] || head -30 "$tmp/help" | diag

# readme_rows FILE SECTION: the first cell of each row of the tables
# under the heading SECTION (a line underlined with dashes), without
# the header rows (those followed by a |---| line), as LINE<TAB>CELL.
readme_rows() {
	awk -v want="$2" '
	/^-+$/ && prev != "" { section = prev; nrow = 0; next }
	{ prev = $0 }
	section != want { next }
	/^\|[-|: ]+\|? *$/ { if (nrow > 0) nrow--; next }
	/^\|/ {
		cell = $0; sub(/^\| */, "", cell)
		# A cell ends at the first | not written \| inside it.
		out = ""
		while (cell != "") {
			c = substr(cell, 1, 1)
			if (c == "\\" && substr(cell, 2, 1) == "|") {
				out = out "|"; cell = substr(cell, 3); continue
			}
			if (c == "|") break
			out = out c; cell = substr(cell, 2)
		}
		sub(/ +$/, "", out)
		rows[++nrow] = NR "\t" out
		next
	}
	{ for (i = 1; i <= nrow; i++) print rows[i]; nrow = 0 }
	END { for (i = 1; i <= nrow; i++) print rows[i] }' "$1"
}

# check_readme FILE: print what FILE's tables get wrong, one line each;
# false when there is something.
check_readme() {
	# Commands: a cell `tracetui WORD ...` names the command WORD, unless
	# WORD is an operand (FILE) or an option (--base).
	readme_rows "$1" Commands | awk -F'\t' '{
		cell = $2
		if (cell !~ /^`tracetui /) next
		sub(/^`tracetui /, "", cell); sub(/[ `].*/, "", cell)
		if (cell ~ /^[a-z][a-z0-9-]*$/) print cell
	}' | sort -u >"$tmp/readme-commands"
	comm -23 "$tmp/commands" "$tmp/readme-commands" |
		sed 's/^/README: no row in the Commands table for the command /'
	comm -13 "$tmp/commands" "$tmp/readme-commands" |
		sed 's/^/README: a command tracetui --help does not list: /'
	# Keys: every `word` of a row's first cell is a key; a row must
	# name one.
	readme_rows "$1" Keys | awk -F'\t' '{
		cell = $2; n = 0
		while (match(cell, /`[^`]+`/)) {
			k = substr(cell, RSTART + 1, RLENGTH - 2)
			cell = substr(cell, RSTART + RLENGTH)
			m = split(k, w, " ")
			for (i = 1; i <= m; i++) { print $1 "\t" w[i]; n++ }
		}
		if (n == 0) print $1 "\t(none)"
	}' >"$tmp/readme-keys"
	# Each key looked up among the request table's whole lines, in one
	# awk (a grep each cost more than the rest of the suite).
	awk -F'\t' 'FILENAME == ARGV[1] { known[$0] = 1; next }
		!($2 in known) {
			print "README:" $1 ": " $2 " is not a key of the request table"
		}' "$tmp/keys" "$tmp/readme-keys"
	[ -s "$tmp/readme-commands" ] ||
		echo "README: no Commands table"
	[ -s "$tmp/readme-keys" ] ||
		echo "README: no Keys table"
}

check_readme "$readme" >"$tmp/problems"
[ ! -s "$tmp/problems" ]
rc=$?
ok $rc "the README's Commands table has every command and no other; its Keys tables name only known keys"
[ $rc -eq 0 ] || diag <"$tmp/problems"
# Not an error: the keys of the request table the README leaves to `?`.
cut -f2 "$tmp/readme-keys" | sort -u >"$tmp/readme-keys-only"
comm -23 "$tmp/keys" "$tmp/readme-keys-only" |
	awk '{ s = s " " $0 } END { if (s != "") print "keys only the help lists:" s }' |
	diag

# The quick start: the two commands, and where the binary lands.
grep -qx '    ./bootstrap .*' "$readme" &&
	grep -qx '    make -j"$(nproc)" check .*' "$readme" &&
	grep -q '`src/tracetui`' "$readme"
ok $? "the quick start is ./bootstrap, then make -j\"\$(nproc)\" check; the binary is src/tracetui"

# The check fails on a README that lacks a command, names one too many,
# or names a key the viewer does not have: make check, on one copy with
# the four faults (each says its own line); check-long, on a copy for
# each too.
first=$(head -1 "$tmp/commands")
second=$(sed -n 2p "$tmp/commands")
awk -v first='| `tracetui '"$first"' ' -v second='| `tracetui '"$second"' ' '
	index($0, first) == 1 { next }
	index($0, "| `q` ") == 1 { next }
	{ print }
	index($0, second) == 1 { print "| `tracetui frobnicate FILE` | nothing |" }
	/^\| `A` / { print "| `A` `Xyzzy` | nothing |"; print "| q | quit |" }' \
	"$readme" >"$tmp/README.all"
check_readme "$tmp/README.all" >"$tmp/problems"
set -- $(awk -v first="$first" '
	$0 ~ ("for the command " first "$") { a = 1 }
	/does not list: frobnicate$/ { b = 1 }
	/Xyzzy is not a key/ { c = 1 }
	/\(none\) is not a key/ { d = 1 }
	END { print !a + 0, !b + 0, !c + 0, !d + 0 }' "$tmp/problems")
ok $1 "a README without the $first row fails the check"
ok $2 "a README with a command the program lacks fails the check"
ok $3 "a README with a key the request table lacks fails the check"
ok $4 "a keys row that names its key without backquotes fails the check"
[ "$1$2$3$4" = 0000 ] || diag <"$tmp/problems"

if [ -n "$long" ]; then
grep -v "^| \`tracetui $first " "$readme" >"$tmp/README.less"
check_readme "$tmp/README.less" >"$tmp/problems"
grep -q "for the command $first\$" "$tmp/problems"
ok $? "a README without the $first row fails the check"
awk '{ print } /^\| `tracetui '"$first"' / {
	print "| `tracetui frobnicate FILE` | nothing |" }' \
	"$readme" >"$tmp/README.more"
check_readme "$tmp/README.more" >"$tmp/problems"
grep -q "does not list: frobnicate\$" "$tmp/problems"
ok $? "a README with a command the program lacks fails the check"
awk '{ print } /^\| `q` / { print "| `q` `Xyzzy` | nothing |" }' \
	"$readme" >"$tmp/README.key"
check_readme "$tmp/README.key" >"$tmp/problems"
grep -q "Xyzzy is not a key" "$tmp/problems"
ok $? "a README with a key the request table lacks fails the check"
grep -v "^| \`q\` " "$readme" |
	awk '{ print } /^\| `A` / { print "| q | quit |" }' >"$tmp/README.bare"
check_readme "$tmp/README.bare" >"$tmp/problems"
grep -q "(none) is not a key" "$tmp/problems"
ok $? "a keys row that names its key without backquotes fails the check"
fi

done_testing
