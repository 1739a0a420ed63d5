#! /bin/sh
# tap-driver.sh: the test driver of `make check` (Automake's custom driver
# API), for tests that speak TAP.  It reads what Automake's tap-driver.sh
# reads, in one shell and one awk a test, where that one starts six
# processes: the harness runs it about a hundred times.
#
#   tap-driver.sh --test-name NAME --log-file LOG --trs-file TRS
#               [--color-tests yes|no] [--expect-failure yes|no]
#               [--enable-hard-errors yes|no] -- COMMAND...
#
# COMMAND's output and errors go to LOG (both appending, its errors not
# read as TAP, so that a line of them never splits one); a result line
# a test ("PASS: NAME 3 - what") to the console; the results to TRS.
# TAP:
#   ok / not ok [N] [- what] [# SKIP|TODO why]: PASS or FAIL; SKIP;
#     TODO gives XFAIL (not ok) or XPASS (ok);
#   1..N before the first result or after the last; 1..0 # SKIP why
#     skips the whole test;
#   Bail out! stops the reading with an ERROR.
# An ERROR, too: a number out of sequence, no plan, a plan twice or
# between results, a count other than the plan's, COMMAND exiting with a
# status other than 0.  --enable-hard-errors no makes ERRORs FAILs;
# --expect-failure yes turns PASS to XPASS and FAIL to XFAIL.  The
# awk is $AWK (awk when unset).

name= log= trs= color=no xfail=no hard=yes
while [ $# -gt 0 ]; do
	case $1 in
	--test-name) name=$2 ;;
	--log-file) log=$2 ;;
	--trs-file) trs=$2 ;;
	--color-tests) color=$2 ;;
	--expect-failure) xfail=$2 ;;
	--enable-hard-errors) hard=$2 ;;
	--) shift; break ;;
	--*) ;; # the API's other options take a value, unused here
	*) echo "tap-driver.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	[ $# -ge 2 ] || { echo "tap-driver.sh: $1 needs a value" >&2; exit 2; }
	shift 2
done
if [ -z "$name" ] || [ -z "$log" ] || [ -z "$trs" ] || [ $# -eq 0 ]; then
	echo "tap-driver.sh: --test-name, --log-file, --trs-file and a command" \
		"after -- are needed" >&2
	exit 2
fi

# The exit status follows the output on a line of its own, after a
# newline in case the output's last line has none.
: >"$log" || exit 2
{
	"$@" 2>>"$log"
	printf '\n::tap-driver-exit %d\n' $?
} | LC_ALL=C ${AWK:-awk} -v name="$name" -v log_file="$log" \
	-v trs_file="$trs" -v color="$color" -v xfail="$xfail" \
	-v hard="$hard" '
function report(result, what) {
	if (xfail == "yes" && result == "PASS")
		result = "XPASS"
	else if (xfail == "yes" && result == "FAIL")
		result = "XFAIL"
	else if (result == "ERROR" && hard == "no")
		result = "FAIL"
	seen[result] = 1
	results[++nresults] = result
	if (color == "yes")
		printf "%s%s\033[m: %s%s\n", paint[result], result, name, what
	else
		printf "%s: %s%s\n", result, name, what
}
function error(why) {
	report("ERROR", " - " why)
}
BEGIN {
	paint["PASS"] = "\033[0;32m"; paint["FAIL"] = "\033[0;31m"
	paint["XPASS"] = "\033[0;31m"; paint["XFAIL"] = "\033[1;32m"
	paint["SKIP"] = "\033[1;34m"; paint["ERROR"] = "\033[0;35m"
	planned = -1; count = 0; bailed = 0; status = -1
}
/^::tap-driver-exit [0-9]+$/ {
	status = $2 + 0
	next
}
{
	print >> log_file
	if (bailed)
		next
}
/^Bail out!/ {
	bailed = 1
	error($0)
	next
}
/^1\.\.[0-9]+/ {
	if (planned >= 0) {
		error("a second plan: " $0)
		next
	}
	planned = substr($0, 4) + 0
	plan_late = count > 0
	if (planned == 0) {
		why = $0
		if (sub(/^1\.\.0[ \t]*#[ \t]*[Ss][Kk][Ii][Pp][ \t]*/, "", why))
			whole_skip = why == "" ? " (no reason)" : " - " why
		else
			whole_skip = ""
	}
	next
}
/^(not )?ok([ \t]|$)/ {
	line = $0
	passed = sub(/^ok/, "", line)
	if (!passed)
		sub(/^not ok/, "", line)
	count++
	if (planned >= 0 && plan_late) {
		error("result " count " after the plan at its end")
		next
	}
	if (match(line, /^[ \t]+[0-9]+/)) {
		n = substr(line, 1, RLENGTH) + 0
		line = substr(line, RLENGTH + 1)
		if (n != count) {
			error("result " n " out of order (expected " count ")")
			next
		}
	}
	what = line
	directive = ""
	if (match(line, /#[ \t]*([Ss][Kk][Ii][Pp]|[Tt][Oo][Dd][Oo])/)) {
		what = substr(line, 1, RSTART - 1)
		directive = toupper(substr(line, RSTART + 1, RLENGTH))
		gsub(/[ \t]/, "", directive)
	}
	sub(/[ \t]+$/, "", what)
	if (directive == "SKIP")
		result = passed ? "SKIP" : "FAIL"
	else if (directive == "TODO")
		result = passed ? "XPASS" : "XFAIL"
	else
		result = passed ? "PASS" : "FAIL"
	report(result, " " count (what == "" ? "" : what) \
	       (directive == "" ? "" : " #" substr(line, RSTART + 1)))
	next
}
END {
	if (bailed) {
		# the Bail out! is the ERROR already
	} else if (planned < 0) {
		error("missing test plan")
	} else if (planned == 0 && count == 0) {
		report("SKIP", whole_skip)
	} else if (count != planned) {
		error((count > planned ? "too many" : "too few") \
		      " tests run (expected " planned ", got " count ")")
	}
	if (status < 0)
		error("no exit status: the test was killed or cut short")
	else if (status != 0)
		error("exited with status " status)
	if ("ERROR" in seen)
		global = "ERROR"
	else if ("FAIL" in seen || "XPASS" in seen)
		global = "FAIL"
	else if ("PASS" in seen || "XFAIL" in seen)
		global = "PASS"
	else
		global = "SKIP"
	for (i = 1; i <= nresults; i++)
		print ":test-result: " results[i] > trs_file
	recheck = global == "FAIL" || global == "ERROR" ? "yes" : "no"
	print ":global-test-result: " global > trs_file
	print ":recheck: " recheck > trs_file
	print ":copy-in-global-log: " recheck > trs_file
}'
