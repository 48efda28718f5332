#!/bin/sh
# The settings file ($XDG_CONFIG_HOME/ptop/config, FILES in ptop.1):
# applied, overridden by the command line, a bad line named by file and
# line, a setting it may not hold refused, a file of another user (made
# here with useradd), a group-writable one and another user's link
# ignored with one warning, --no-config and --help past a bad file.
. tests/integration/lib.sh

CFG=$TMP/xdg
mkdir -p "$CFG/ptop"
F=$CFG/ptop/config
XDG_CONFIG_HOME=$CFG
export XDG_CONFIG_HOME

# put TEXT: the file, the user's own, 0600
put() {
	printf '%s\n' "$1" > "$F"
	chmod 600 "$F"
}

# one JSON table of spin3 (its own samples: -- COMMAND)
table() {
	"$PTOP" -b --json -n 1 -d 0.5 "$@" -- "$WL/spin3" 0 > "$TMP/o" 2> "$TMP/e"
}

# the file applies: grouping, order, limits, the event, columns
put '# settings of this test
sort = comm,dso      # by program
order = sample
entries = 1
event = task-clock
show-period'
table || fail "with the file: $(cat "$TMP/e")"
[ "$(jq -c '[.sort, .order, .event]' "$TMP/o")" = '[["comm","dso"],"sample","task-clock"]' ] ||
	fail "the file is not applied: $(jq -c '[.sort, .order, .event]' "$TMP/o")"
jq -e '.rows | length == 1' "$TMP/o" > /dev/null || fail "entries = 1: $(jq '.rows | length' "$TMP/o") rows"
jq -e '.rows[0] | .comm == "spin3" and .dso == "spin3"' "$TMP/o" > /dev/null ||
	fail "the first row is not spin3 in spin3: $(jq -c '.rows[0]' "$TMP/o")"
"$PTOP" -b -n 1 -d 0.2 -- "$WL/spin3" 0 > "$TMP/t" 2> "$TMP/e" || fail "text: $(cat "$TMP/e")"
grep -q '^# Overhead  Samples  *Period  Command  Shared Object$' "$TMP/t" ||
	fail "show-period and sort: the titles: $(sed -n 3p "$TMP/t")"

# the command line wins, setting by setting: -s replaces the grouping
# (the file's order stays), -e the file's events, -E the limit
table -s dso,sym -e cpu-clock -E 3 ||
	fail "the command line over the file: $(cat "$TMP/e")"
[ "$(jq -c '[.sort, .order, .event]' "$TMP/o")" = '[["dso","sym"],"sample","cpu-clock"]' ] ||
	fail "the command line does not win: $(jq -c '[.sort, .order, .event]' "$TMP/o")"
[ "$(jq '.rows | length' "$TMP/o")" -le 3 ] || fail "-E 3 over entries = 1"
jq -e '[.rows[] | select(.dso == "spin3" and .symbol == "spin_a")] | length == 1' "$TMP/o" > /dev/null ||
	fail "no spin_a row of spin3: $(jq -c '.rows' "$TMP/o")"
# an order in -s (perf's -s comm,period) beats the file's
table -s comm,period || fail "-s comm,period: $(cat "$TMP/e")"
[ "$(jq -r .order "$TMP/o")" = period ] || fail "-s comm,period: order $(jq -r .order "$TMP/o")"
# -i: the file's events are for profiling, not an error
perf record --buildid-mmap -q -N -e cpu-clock -o "$TMP/perf.data" -- "$WL/spin3" 0.3 \
	> /dev/null 2> "$TMP/rec.err" || fail "perf record: $(cat "$TMP/rec.err")"
"$PTOP" -b -n 1 -i "$TMP/perf.data" --json > "$TMP/o" 2> "$TMP/e" ||
	fail "-i with the file's events: $(cat "$TMP/e")"
[ "$(jq -r .event "$TMP/o" | head -n 1)" = cpu-clock ] || fail "-i: $(jq -r .event "$TMP/o")"

# a bad line: an error naming the file and the line, exit 2
expect_bad() {	# expect_bad TEXT PATTERN
	put "$1"
	"$PTOP" -b -n 1 -d 0.2 > "$TMP/o" 2> "$TMP/e"
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$1' exited $rc, not 2: $(cat "$TMP/e")"
	grep -Fq -- "ptop: $F:$2" "$TMP/e" || fail "'$1': no '$F:$2' in: $(cat "$TMP/e")"
}
expect_bad '# two lines
srot = comm' "2: unknown setting 'srot'; did you mean sort?"
expect_bad 'delay = x' "1: bad delay 'x'"
expect_bad 'show-period = 1' "1: 'show-period' is a switch"
expect_bad 'delay' "1: 'delay' needs a value: delay = SECS"
expect_bad 'sort =' "1: no value after '='"
expect_bad '--delay = 1' "1: a setting name is a long option's"
expect_bad 'event = nosuchevent' "1: unknown event 'nosuchevent'"
# what is profiled or written is not a view setting
for s in 'output = x.data' 'pid = 1' 'batch' 'pprof = p.pb.gz' 'flamegraph = f.svg' 'input = perf.data' 'iterations = 1'; do
	expect_bad "$s" "1: '${s%% *}' cannot be set in the settings file"
done
# a bad file does not stop --help, and --no-config runs without it
"$PTOP" --help > /dev/null 2>&1 || fail "--help with a bad file"
"$PTOP" --no-config -b -n 1 -d 0.2 > /dev/null 2> "$TMP/e" || fail "--no-config: $(cat "$TMP/e")"

# not trusted: said once, ignored (the defaults apply)
expect_ignored() {	# expect_ignored WHY
	"$PTOP" -b --json -n 1 -d 0.2 -e cpu-clock > "$TMP/o" 2> "$TMP/e" ||
		fail "an ignored file ($1) stopped ptop: $(cat "$TMP/e")"
	[ "$(grep -c "ptop: warning: .*config: ignored: $1" "$TMP/e")" -eq 1 ] ||
		fail "not one warning '$1': $(cat "$TMP/e")"
	[ "$(jq -c .sort "$TMP/o")" = '["dso","sym"]' ] || fail "$1: the file was applied"
}
put 'sort = comm'
chmod 620 "$F"
expect_ignored 'writable by its group or others'
chmod 600 "$F"

[ "$(id -u)" = 0 ] || skip "not root: another user's file needs useradd and chown"
command -v useradd > /dev/null || skip "no useradd"
U=ptopcfg$$
useradd -M -N -s /usr/sbin/nologin "$U" 2> "$TMP/ua.err" || fail "useradd $U: $(cat "$TMP/ua.err")"
cleanup_user() { userdel "$U" 2> /dev/null; cleanup; }
trap cleanup_user EXIT INT TERM
uid=$(id -u "$U")
chown "$U" "$F"
expect_ignored "owned by uid $uid, not by uid 0"
# another user's link to a file of one's own (sudo -E keeps
# XDG_CONFIG_HOME: the folder may be theirs)
chown root "$F"
mv "$F" "$TMP/mine"
ln -s "$TMP/mine" "$F"
chown -h "$U" "$F"
expect_ignored "a symbolic link of uid $uid"
# one's own link is followed
chown -h root "$F"
"$PTOP" -b --json -n 1 -d 0.2 -e cpu-clock > "$TMP/o" 2> "$TMP/e" || fail "own link: $(cat "$TMP/e")"
[ "$(jq -c .sort "$TMP/o")" = '["comm"]' ] || fail "one's own link is not followed"
exit 0
