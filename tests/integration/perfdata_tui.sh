#!/bin/sh
# The live view on a perf.data file (shown finished, Tab between its
# events) and on a pipe stream (perf record -o - | ptop -i -: fills while
# the stream runs, keys read from the terminal, ends with the stream).
. tests/e2e/tmux.inc
command -v perf > /dev/null || { echo "SKIP: perf is not installed"; exit 0; }

# a file with two events
perf --buildid-dir "$TMP/.debug" record -q -e cpu-clock -c 100000 -e page-faults -c 1 \
	-o "$TMP/e.data" -- "$WL/spin3" 1 > /dev/null 2>&1 || fail "perf record failed"
printf 'cd "%s" && exec "%s" -i e.data\n' "$TMP" "$PTOP" > "$TMP/file.sh"
run sh "$TMP/file.sh"
wait_for 'finished' 10
wait_for 'event cpu-clock'
wait_top 'spin_[abc]'
keys Tab
wait_for 'event page-faults'
quit_clean
restart

# a stream on stdin: the view fills live; keys come from /dev/tty
cat > "$TMP/pipe.sh" <<EOS
perf --buildid-dir "$TMP/.debug" record -q -e cpu-clock -c 200000 -o - -- "$WL/spin3" 6 2> /dev/null |
	"$PTOP" -i - -d 0.3
EOS
run sh "$TMP/pipe.sh"
wait_top 'spin_a' 10
screen | grep -q 'the stream ended' && fail "the stream ended before the view showed it"
s1=$(samples)
end=$(( $(date +%s) + 3 ))
while [ "$(samples)" = "$s1" ] && [ "$(date +%s)" -le "$end" ]; do
	sleep 0.2
done
s2=$(samples)
[ "${s2:-0}" -gt "${s1:-0}" ] || fail "the view does not fill: $s1 then $s2 samples"
# a key works while stdin is the stream: h shows the help, q leaves it
keys h
wait_for 'Keys|keys' 5
keys q
wait_top 'spin_a' 5
wait_for 'the stream ended' 15
sleep 0.5
top_row | grep -q 'spin_a' || fail "the final table is gone"
quit_clean
exit 0
