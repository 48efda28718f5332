#!/bin/sh
# The live view on a perf.data file (shown finished, Tab between its
# events) and on a pipe stream (perf record -o - | ptop -i -: fills while
# the stream runs, keys read from the terminal, ends with the stream).
. tests/e2e/tmux.inc
need perf

# a file with two events, each with its own period (-c is one option for
# every event: "-e cpu-clock -c 100000 -e page-faults -c 1" sampled
# cpu-clock every nanosecond); --buildid-mmap: see perfdata.inc
perf --buildid-dir "$TMP/.debug" record -q --buildid-mmap \
	-e cpu-clock/period=100000/ -e page-faults/period=1/ \
	-o "$TMP/e.data" -- "$WL/spin3" 1 > /dev/null 2> "$TMP/rec.err" ||
	fail "perf record --buildid-mmap failed: $(cat "$TMP/rec.err")"
printf 'cd "%s" && exec "%s" -i e.data\n' "$TMP" "$PTOP" > "$TMP/file.sh"
run sh "$TMP/file.sh"
# (the header is cut at the pane's width: "finis…")
wait_for '; finis' 10
wait_for 'event cpu-clock/period=100000/'
wait_top 'spin_[abc]'
keys Tab
wait_for 'event page-faults/period=1/'
quit_clean
restart

# a stream on stdin: the view fills live; keys come from /dev/tty
cat > "$TMP/pipe.sh" <<EOS
perf --buildid-dir "$TMP/.debug" record -q --buildid-mmap -e cpu-clock -c 200000 -o - -- "$WL/spin3" 6 2> "$TMP/rec.err" |
	"$PTOP" -i - -d 0.3
EOS
run sh "$TMP/pipe.sh"
wait_top 'spin_a' 10
screen | grep -q 'the stream ended' && fail "the stream ended before the view showed it"
s1=$(samples)
# perf writes the stream in bursts (when its ring reaches its watermark):
# seconds apart on a loaded machine
more() { [ "$(samples)" -gt "${s1:-0}" ] 2> /dev/null; }
wait_until 60 "the view filling from $s1 samples" more
# a key works while stdin is the stream: h shows the help, q leaves it
keys h
wait_for 'Keys|keys' 5
keys q
wait_top 'spin_a' 5
wait_for 'the stream ended' 120
top_row | grep -q 'spin_a' || fail "no final table"
# still there when drawn again (the help, then back)
keys h
wait_for 'Keys|keys' 5
keys q
wait_top 'spin_a' 5
[ -s "$TMP/rec.err" ] && fail "perf record --buildid-mmap -o -: $(cat "$TMP/rec.err")"
quit_clean
exit 0
