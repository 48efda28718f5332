#!/bin/sh
# A second reader of ptop -o files (issue 36): hotspot's perf.data parser
# (Debian's hotspot package: hotspot-perfparser --input FILE --output OUT)
# reads ptop's -o files of the common modes (plain, -g, --call-graph
# dwarf, two events, --off-cpu, --wall, a pipe with -o -) and perf
# record --buildid-mmap files of the same program and options (for
# --off-cpu and --wall: -e sched:sched_switch --switch-events -g).
# For each mode:
# - every message the parser prints for ptop's file (numbers aside, its
#   note that it met FINISHED_ROUND aside) is one it prints for perf's;
# - it exits 0 and counts as many samples as perf report --stats;
# - each event samples the fields perf record samples (perf evlist -v),
#   but for the differences ptop.1 ("What -o writes") gives: CPU always
#   (ptop counts per CPU), IDENTIFIER where perf has ID, no ADDR or
#   DATA_SRC with dwarf (perf 6.1's, zero for software events);
# - the file asks for the records perf's asks for (mmap, mmap2, comm,
#   task, cgroup, context_switch, mmap_data, ksymbol, bpf_event).
# KSYMBOL and BPF_EVENT records (BPF programs loaded meanwhile), which the
# parser does not know, are in whichever file was being written then:
# their messages are not held against ptop's file.
# These hold whatever fields a mode's file carries: ptop -g files with
# recovered chains and no stack copy (issue 34) are checked the same way.
. tests/integration/lib.sh
. tests/integration/perfdata.inc

PARSER=${HOTSPOT_PERFPARSER:-/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser}
if [ ! -x "$PARSER" ]; then
	# scripts/install-deps.sh test installs hotspot where apt has it
	if command -v apt-cache > /dev/null 2>&1 &&
		apt-cache policy hotspot 2> /dev/null | grep -q 'Candidate: [0-9]'; then
		fail "$PARSER is missing, but apt has hotspot: make deps-test installs it"
	fi
	skip "hotspot-perfparser: the hotspot package cannot be installed here (apt has no candidate)"
fi

# the same program for every recording: offwork's 2 rounds spin (about
# 40 ms of CPU) and wait (sleep, pipe, mutex), for --off-cpu
PROG="$WL/offwork 2"
: > "$TMP/report"

# kinds FILE: the parser's messages, one kind a line with its count:
# numbers at the end (sizes, offsets) dropped, a leading pid named PID,
# FINISHED_ROUND's note out
kinds() {
	sed -E 's/[[:space:]]+/ /g; s/ $//; s/( [0-9]+)+$//; s/^[0-9]+ failed to attach state/PID failed to attach state/' "$1" |
		grep -v '^FINISHED_ROUND detected' | sort | uniq -c |
		sed -E 's/^ *([0-9]+) (.*)$/\2\t\1/'
}

# parse NAME FILE: the parser's messages on FILE in $TMP/NAME.msg, its
# sample count (--print-stats) in $TMP/NAME.samples
parse() {
	"$PARSER" --input "$2" --output "$TMP/$1.out" > "$TMP/$1.msg" 2>&1 ||
		echo "$1: hotspot-perfparser --input $2 exited with $?: $(tail -n 3 "$TMP/$1.msg" | tr '\n' ' ')" >> "$TMP/reasons"
	"$PARSER" --input "$2" --print-stats 2> /dev/null |
		sed -n 's/^samples: //p' > "$TMP/$1.samples"
}

# perf_on CMD FILE [ARGS]: perf CMD -i FILE, a stream (*-pipe.data) on stdin
perf_on() {
	c=$1 f=$2
	shift 2
	case "$f" in
	*-pipe.data) perf "$c" -i - "$@" < "$f" ;;
	*) perf "$c" -i "$f" "$@" ;;
	esac
}

# fields FILE: "event<TAB>sample_type bits, sorted" per event, then
# "<records><TAB>the record flags any event sets, sorted"
fields() {
	perf_on evlist "$1" -v > "$TMP/evlist" 2> "$TMP/evlist.err" ||
		fail "perf evlist -v -i $1: $(head -c 300 "$TMP/evlist.err")"
	awk -F ', ' '
		/^#/ { next }
		{
			ev = $1; sub(/: type: .*$/, "", ev)
			st = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /sample_type: /) {
					st = $i; sub(/^.*sample_type: /, "", st)
				}
				n = split($i, kv, ": ")
				if (n == 2 && kv[2] == "1" && kv[1] ~ /^(mmap|mmap2|comm|task|cgroup|context_switch|mmap_data|ksymbol|bpf_event)$/)
					rec[kv[1]] = 1
			}
			n = split(st, b, "|"); s = ""
			for (i = 1; i <= n; i++) bits[i] = b[i]
			# sorted, so that the lists compare as strings
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (bits[j] < bits[i]) { t = bits[i]; bits[i] = bits[j]; bits[j] = t }
			for (i = 1; i <= n; i++) s = s (i > 1 ? "|" : "") bits[i]
			print ev "\t" s
		}
		END {
			s = ""
			for (k in rec) s = s " " k
			print "<records>\t" s
		}' "$TMP/evlist" | awk -F '\t' '$1 == "<records>" {
			n = split($2, r, " "); s = ""
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
			for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") r[i]
			print $1 "\t" s; next } { print }'
}

# samples_in FILE: its SAMPLE records, as perf report --stats counts them
# (the aggregated line comes first)
samples_in() {
	perf_on report "$1" --stats 2> /dev/null |
		awk '$1 == "SAMPLE" && $2 == "events:" { print $3; exit }'
}

# check MODE: compares $TMP/t-MODE.* (ptop's) with $TMP/p-MODE.* (perf's)
check() {
	m=$1
	kinds "$TMP/t-$m.msg" > "$TMP/t-$m.kinds"
	kinds "$TMP/p-$m.msg" > "$TMP/p-$m.kinds"
	{
		printf '%s: ptop %d lines:' "$m" "$(wc -l < "$TMP/t-$m.msg")"
		awk -F '\t' '{ printf " %s x%s;", $1, $2 }' "$TMP/t-$m.kinds"
		printf '\n%s: perf %d lines:' "$m" "$(wc -l < "$TMP/p-$m.msg")"
		awk -F '\t' '{ printf " %s x%s;", $1, $2 }' "$TMP/p-$m.kinds"
		echo
	} >> "$TMP/report"
	new=$(awk -F '\t' 'NR == FNR { p[$1] = 1; next }
		/^unhandled event type (17|18) / { next }
		# --call-graph dwarf: a sample or two between the command'"'"'s
		# exec and the first map of its program (the kernel enables the
		# events at the exec), which either file can hold: the parser
		# cannot unwind them.  Longer when the recorder is an ASan
		# build (the sanitizer phase), whose exec has more to undo; a
		# file without its maps fails every sample
		/^PID failed to attach state/ && $2 <= 2 { next }
		!($1 in p) { printf "%s (%s times); ", $1, $2 }' \
		"$TMP/p-$m.kinds" "$TMP/t-$m.kinds")
	if [ -n "$new" ]; then
		echo "$m: the parser says of ptop's file what it does not of perf's: $new" >> "$TMP/reasons"
	fi
	# every sample read
	for s in t p; do
		want=$(samples_in "$TMP/$s-$m.data")
		got=$(cat "$TMP/$s-$m.samples")
		[ "${want:-0}" -gt 0 ] ||
			echo "$m: $s file has no samples" >> "$TMP/reasons"
		[ "$got" = "$want" ] ||
			echo "$m: the parser counts ${got:-no} samples in the $s file, perf report --stats $want" >> "$TMP/reasons"
	done
	# the fields, event by event (same order), and the records asked for
	fields "$TMP/t-$m.data" > "$TMP/t-$m.fields"
	fields "$TMP/p-$m.data" > "$TMP/p-$m.fields"
	echo "$m: ptop $(tr '\t\n' ': ' < "$TMP/t-$m.fields")" >> "$TMP/report"
	echo "$m: perf $(tr '\t\n' ': ' < "$TMP/p-$m.fields")" >> "$TMP/report"
	paste "$TMP/t-$m.fields" "$TMP/p-$m.fields" | awk -F '\t' -v m="$m" '
		function set(s, a, sep,   n, i, x) {
			delete a
			n = split(s, x, sep)
			for (i = 1; i <= n; i++) a[x[i]] = 1
		}
		$1 == "<records>" {
			set($2, t, " "); set($4, p, " ")
			for (k in t) if (!(k in p))
				printf "%s: ptop asks for %s records, perf does not\n", m, k
			for (k in p) if (!(k in t))
				printf "%s: perf asks for %s records, ptop does not\n", m, k
			next
		}
		{
			if ($1 != $3)
				printf "%s: events differ: ptop %s, perf %s\n", m, $1, $3
			set($2, t, "|"); set($4, p, "|")
			for (k in t) if (!(k in p) && k != "CPU" && k != "IDENTIFIER")
				printf "%s: %s: ptop samples %s, perf does not\n", m, $1, k
			for (k in p) if (!(k in t) && k != "ADDR" && k != "DATA_SRC" &&
					!(k == "ID"))
				printf "%s: %s: perf samples %s, ptop does not\n", m, $1, k
		}' >> "$TMP/reasons"
	[ "$(wc -l < "$TMP/t-$m.fields")" = "$(wc -l < "$TMP/p-$m.fields")" ] ||
		echo "$m: ptop's file has $(($(wc -l < "$TMP/t-$m.fields") - 1)) events, perf's $(($(wc -l < "$TMP/p-$m.fields") - 1))" >> "$TMP/reasons"
}

# record MODE "PTOP ARGS" "PERF RECORD ARGS": both files of a mode, parsed
record() {
	m=$1
	# shellcheck disable=SC2086
	"$PTOP" -b $2 -o "$TMP/t-$m.data" -- $PROG > /dev/null 2> "$TMP/err" ||
		fail "$m: ptop -b $2 -o exited with $?: $(head -c 300 "$TMP/err")"
	# shellcheck disable=SC2086
	perf_record "$TMP/p-$m.data" $3 -- $PROG
	parse "t-$m" "$TMP/t-$m.data"
	parse "p-$m" "$TMP/p-$m.data"
	check "$m"
}

: > "$TMP/reasons"
record plain "-e cpu-clock" "-e cpu-clock"
record g "-e cpu-clock -g" "-e cpu-clock -g"
record dwarf "-e cpu-clock --call-graph dwarf" "-e cpu-clock --call-graph dwarf"
record two "-e cpu-clock -e page-faults" "-e cpu-clock -e page-faults"
record off "-e cpu-clock --off-cpu" "-e cpu-clock -e sched:sched_switch --switch-events -g"
record wall "--wall" "-e cpu-clock -e sched:sched_switch --switch-events -g"

# a pipe: each stream read by the parser from its standard input as it
# is written (kept by tee for the counts and fields)
# shellcheck disable=SC2086
{ "$PTOP" -b -e cpu-clock -o - -- $PROG 2> "$TMP/err" || echo "ptop $?" > "$TMP/pipe.rc"; } |
	tee "$TMP/t-pipe.data" | "$PARSER" --output "$TMP/t-pipe.out" > "$TMP/t-pipe.msg" 2>&1 ||
	echo "pipe: hotspot-perfparser of ptop -o - exited with $?: $(tail -n 3 "$TMP/t-pipe.msg" | tr '\n' ' ')" >> "$TMP/reasons"
[ -e "$TMP/pipe.rc" ] && fail "pipe: ptop -o - failed: $(head -c 300 "$TMP/err")"
# shellcheck disable=SC2086
{ command perf --buildid-dir "$TMP/.debug" record -q -N --buildid-mmap -e cpu-clock -o - -- $PROG 2> "$TMP/err" ||
	echo "perf $?" > "$TMP/pipe.rc"; } |
	tee "$TMP/p-pipe.data" | "$PARSER" --output "$TMP/p-pipe.out" > "$TMP/p-pipe.msg" 2>&1 ||
	echo "pipe: hotspot-perfparser of perf record -o - exited with $?: $(tail -n 3 "$TMP/p-pipe.msg" | tr '\n' ' ')" >> "$TMP/reasons"
[ -e "$TMP/pipe.rc" ] && fail "pipe: perf record -o - failed: $(head -c 300 "$TMP/err")"
for s in t p; do
	"$PARSER" --print-stats < "$TMP/$s-pipe.data" 2> /dev/null |
		sed -n 's/^samples: //p' > "$TMP/$s-pipe.samples"
done
check pipe

cat "$TMP/report"
if [ -s "$TMP/reasons" ]; then
	cat "$TMP/reasons" >&2
	fail "hotspot's parser or the fields tell ptop's -o files from perf record's ($(wc -l < "$TMP/reasons") differences above)"
fi
exit 0
