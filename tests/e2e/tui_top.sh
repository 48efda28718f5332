#!/bin/sh
# solo: the first table within 3 s of the start
# The live view: the expected function on top quickly, help, the symbol
# filter, a dso zoom and its undo, sorting, a clean quit.
. tests/e2e/tmux.inc

bg "$WL/spin3" 40
SPIN=$LAST_BG
run "$PTOP" -p "$SPIN" -d 1
# the first table comes after ~0.25 s, not after the 1 s delay
start=$(date +%s%N)
wait_top 'spin_a' 10
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "first table with spin_a on top after $ms ms"
[ "$ms" -lt 3000 ] || fail "the first table took $ms ms"
screen | grep -q "^event cpu-clock.*target pid $SPIN (spin3)" || fail "header"
screen | grep -q '^Overhead  *Samples  *History  *Shared Object  *Symbol' || fail "titles"
# the footer's keys (after the start's notice on this line, if any:
# the cycles event's fallback stays 10 s)
wait_for '^F1 help' 15

# help: every key with its effect
keys h
wait_for '^ptop keys'
wait_for 'Tab .*show the next sampled event'
keys /
keys z e r o
wait_for 'Search: zero'
wait_for '^  z .*zero the histogram'
keys Enter Escape Escape
wait_top 'spin_a'

# the symbol filter, incremental
keys /
keys s p i n _ b
wait_for '^Filter symbols: spin_b'
wait_top 'spin_b'
screen | grep -q 'spin_a' && fail "spin_a is still shown under /spin_b"
keys Enter
wait_for "^filters: symbol ~ 'spin_b'"
keys Escape
wait_top 'spin_a'
wait_gone '^filters:'

# d: zoom into the selected row's shared object, Esc undoes it
keys d
wait_for '^filters: dso spin3'
screen | grep -Eq '\[kernel|libc' && fail "other objects shown after d"
keys Escape
wait_gone '^filters:'

# sorting: by symbol name (a column rows are grouped by), then Esc
# back to overhead
keys s
wait_for '^Sort and group'
keys Down Down Down Down Enter
wait_for '^filters: sort sym'
keys I
wait_for '^filters: sort sym inverted'
keys I Escape
wait_gone '^filters:'

# t: zoom into the thread; T: its process
keys t
wait_for "^filters: tid $SPIN"
keys T
wait_for "^filters: pid $SPIN, tid $SPIN"
keys Escape Escape
wait_gone '^filters:'

# Esc with nothing to undo says so, and asks nothing
keys Escape
wait_for '^nothing to undo: q quits'
wait_top 'spin_a'

quit_clean
echo "ok"
