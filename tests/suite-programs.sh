#!/bin/sh
# suite-programs.sh: every test program a suite runs is a prerequisite
# of the suite's log in Makefile.am.  `make check` builds a test program
# only when a log asks for it; a suite whose program is missing from its
# prerequisites would find it unbuilt in a clean tree and skip (or, for
# tests/fuzz-replay through lib.sh's replay_cuts, pass over) what it
# checks.  One TAP test per suite, in one awk.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=${top_srcdir:-.}
suites=$(cd "$srcdir" && ls tests/*.sh)
# shellcheck disable=SC2086
(cd "$srcdir" && awk '
	# Makefile.am: its lines joined where they end in a backslash.
	FILENAME == "Makefile.am" {
		line = line $0
		if (sub(/\\$/, " ", line))
			next
		n = split(line, w, /[ \t=:]+/)
		if (line ~ /^(UNIT_TESTS|TEST_PROGS) =/)
			for (i = 2; i <= n; i++)
				if (w[i] ~ /^tests\//)
					program[w[i]] = 1
		if (line ~ /^tests\/[^ ]*\.log[^=]*:/) {
			split(line, side, ":")
			k = split(side[1], logs, /[ \t]+/)
			m = split(side[2], deps, /[ \t]+/)
			for (i = 1; i <= k; i++)
				for (j = 1; j <= m; j++) {
					d = deps[j]
					sub(/\$\(EXEEXT\)$/, "", d)
					if (logs[i] != "" && d != "")
						dep[logs[i] SUBSEP d] = 1
				}
		}
		line = ""
		next
	}
	FNR == 1 { order[++nsuites] = FILENAME }
	/^[ \t]*#/ { next }
	{
		for (p in program)
			if (index($0, p) && match($0, p "([^a-z0-9-]|$)"))
				uses[FILENAME SUBSEP p] = 1
		if ($0 ~ /(^|[^_a-z])replay_cuts /)
			uses[FILENAME SUBSEP "tests/fuzz-replay"] = 1
	}
	END {
		for (s = 1; s <= nsuites; s++) {
			f = order[s]
			if (f ~ /^tests\/(lib|tmux-ctl|suite-programs)\.sh$/)
				continue
			log_ = f
			sub(/\.sh$/, ".log", log_)
			missing = ""
			for (p in program)
				if ((f SUBSEP p) in uses && !((log_ SUBSEP p) in dep))
					missing = missing " " p
			t++
			if (missing == "")
				printf "ok %d - %s: its programs are its prerequisites\n", t, f
			else
				printf "not ok %d - %s runs%s, not among %s'"'"'s prerequisites in Makefile.am\n", t, f, missing, log_
		}
		printf "1..%d\n", t
	}' Makefile.am $suites) >"$tmp/tap"
cat "$tmp/tap"
! grep -q '^not ok' "$tmp/tap" && grep -q '^1\.\.[1-9]' "$tmp/tap"
