#!/bin/sh
# test_train.sh - xqlab train end to end: a tiny two-generation loop (self-play, tune, SPRT gate,
# promotion), the same weights and gate results after a SIGKILL and after a SIGTERM and a restart
# as without, refusal of other settings and of a folder that is not a run (nothing touched), a
# tampered pinned file, the run's lock, -g extending a run, --status, --export (never over a file
# without --force) and a hidden-piece rule set.
# usage: test_train.sh PATH/TO/xqlab SOURCE_DIR
set -u
XQLAB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HANDSET=$2/configs/weights/xiangqi-handset.ini
dir=$(mktemp -d)
bg=
trap '[ -n "$bg" ] && kill -9 $bg 2>/dev/null; rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
cd "$dir" || exit 1

# Tiny settings: 8 games of 8 playouts per generation, a gate of at most 24 games at 1 playout
# (decisive enough for the variance an SPRT needs), tune on material only (few data).
# SPRT bounds far below 0 accept H1 at the first informative pair: the promotion path runs.
tiny="-v xiangqi -n 8 --playouts 8 --gate-games 24 --gate-set playouts=1 --sprt-min-pairs 0 --tune --only\ material"
# shellcheck disable=SC2086
run() { "$XQLAB" train "$@" -t 1 --quiet; }

# value KEY FILE: the value of an INI key
value() { sed -n "s/^$1 = //p" "$2"; }
# weights FILE: the weight lines of a weights file (comments name paths and times)
weights() { grep -v '^;' "$1"; }

# --- the loop -----------------------------------------------------------------------------------
"$XQLAB" train --help > help.txt 2>&1 && grep -q -- '--status' help.txt && grep -q -- '--sprt' help.txt &&
    ok "help" || fail "help"
eval "run -o A $tiny -g 2 --sprt -600,-500,0.25,0.25" > a.out 2> a.err
rc=$?
[ $rc -eq 0 ] && ok "two generations" || fail "two generations: exit $rc: $(cat a.err)"
for g in 0 1 2; do
    [ -f A/gen$g/record.ini ] || fail "no record of generation $g"
done
[ -f A/gen3/record.ini ] && fail "a third generation was played"
[ "$(value selfplay_games A/gen1/record.ini)" = 8 ] && ok "8 self-play games" || fail "self-play games: $(value selfplay_games A/gen1/record.ini)"
# Generation 2 tunes on the data of generations 1 and 2 (--window 2).
[ "$(value tune_files A/gen2/record.ini)" = 2 ] && [ "$(value tune_games A/gen2/record.ini)" = 16 ] &&
    ok "window of two generations" || fail "window: $(value tune_files A/gen2/record.ini) files, $(value tune_games A/gen2/record.ini) games"
grep -q '"loss"' A/gen1/candidate.json && [ -n "$(value loss_validation A/gen2/record.ini)" ] &&
    ok "tuning losses recorded" || fail "tuning losses"
promotions=0
prev=A/gen0/weights.ini
for g in 1 2; do
    r=A/gen$g/record.ini
    verdict=$(value gate_verdict $r)
    promoted=$(value promoted $r)
    if [ "$verdict" = H1 ]; then
        promotions=$((promotions + 1))
        [ "$promoted" = yes ] && cmp -s A/gen$g/weights.ini A/gen$g/candidate.ini ||
            fail "generation $g: H1 but the candidate is not in force"
        [ "$(value in_force $r)" = $g ] || fail "generation $g: in_force $(value in_force $r)"
    else
        [ "$promoted" = no ] && cmp -s A/gen$g/weights.ini "$prev" ||
            fail "generation $g: $verdict but the weights in force changed"
    fi
    [ "$verdict" = H0 ] && fail "generation $g: H0 with bounds far below 0"
    prev=A/gen$g/weights.ini
done
[ $promotions -ge 1 ] && ok "promotion on H1 ($promotions)" || fail "no promotion with bounds far below 0"
cmp -s A/best.ini A/gen2/weights.ini && ok "best.ini is the newest weights" || fail "best.ini"
grep -q '^  2  ' a.out && ok "table printed" || fail "table: $(cat a.out)"

# A gate that cannot pass: bounds far above 0 never promote.
eval "run -o H $tiny -g 1 --sprt 500,600,0.25,0.25 --start \"\$HANDSET\"" > /dev/null 2> h.err || fail "high bounds run: $(cat h.err)"
[ "$(value promoted H/gen1/record.ini)" = no ] && [ "$(value gate_verdict H/gen1/record.ini)" != H1 ] &&
    cmp -s H/gen1/weights.ini H/gen0/weights.ini && ok "no promotion without H1" ||
    fail "high bounds: $(value gate_verdict H/gen1/record.ini) promoted $(value promoted H/gen1/record.ini)"

# --- resume -------------------------------------------------------------------------------------
# wait_file FILE: up to 60 s
wait_file() {
    i=0
    while [ $i -lt 3000 ] && [ ! -e "$1" ]; do sleep 0.02; i=$((i + 1)); done
}
# kill_run SIGNAL: signals the background loop, waits for it and its children to end
kill_run() {
    kids=$(pgrep -P $bg 2>/dev/null)
    kill -"$1" $bg 2>/dev/null
    wait $bg 2>/dev/null
    brc=$?
    for k in $kids; do
        i=0
        while kill -0 "$k" 2>/dev/null && [ $i -lt 500 ]; do sleep 0.02; i=$((i + 1)); done
    done
    bg=
}
same_as_a() {
    for g in 1 2; do
        [ -f "$1"/gen$g/record.ini ] && [ -f A/gen$g/record.ini ] || { fail "$2: no record of generation $g"; return; }
        [ "$(weights "$1"/gen$g/weights.ini)" = "$(weights A/gen$g/weights.ini)" ] ||
            { fail "$2: generation $g weights differ from the uninterrupted run"; return; }
        [ "$(value gate_pentanomial "$1"/gen$g/record.ini)" = "$(value gate_pentanomial A/gen$g/record.ini)" ] ||
            { fail "$2: generation $g gate differs"; return; }
        [ "$(value tune_positions "$1"/gen$g/record.ini)" = "$(value tune_positions A/gen$g/record.ini)" ] ||
            { fail "$2: generation $g tune positions differ"; return; }
    done
    ok "$2: same weights, tune and gate as without"
}
eval "exec \"$XQLAB\" train -o B $tiny -g 2 --sprt -600,-500,0.25,0.25 -t 1 --quiet" > /dev/null 2> b.err &
bg=$!
wait_file B/gen1/selfplay.h5.tmp
# The loop and its self-play are frozen at once (SIGSTOP), so that under load they cannot finish
# both tiny generations while the second loop below starts; the SIGKILL ends them stopped.
kill -STOP $bg $(pgrep -P $bg 2>/dev/null) 2>/dev/null
# While it runs, a second loop on the folder is refused by the run's lock.
"$XQLAB" train -o B -t 1 --quiet > /dev/null 2> lock.err
rc=$?
# (Only judged if the first loop was still running afterwards, hence during the attempt.)
if kill -0 $bg 2>/dev/null; then
    [ $rc -eq 1 ] && grep -q 'train.ini: locked by pid [0-9]* .*another process is writing it' lock.err &&
        ok "second loop on a running run refused" || fail "second loop: exit $rc: $(cat lock.err)"
fi
kill_run 9
[ ! -f B/gen2/record.ini ] && ok "SIGKILL stopped the run" || fail "the run ended before the SIGKILL"
run -o B > /dev/null 2> b2.err || fail "restart after SIGKILL: $(cat b2.err)"
same_as_a B "SIGKILL during self-play"

eval "exec \"$XQLAB\" train -o C $tiny -g 2 --sprt -600,-500,0.25,0.25 -t 1 --quiet" > /dev/null 2> c.err &
bg=$!
wait_file C/gen1/record.ini
kill_run TERM
# The stop may land during a step of generation 2 or between two steps (before the first one under
# load): either way train.log names generation 2 as interrupted.
[ $brc -eq 130 ] && [ ! -f C/gen2/record.ini ] && grep -q 'generation 2: .*interrupted' C/train.log &&
    ok "SIGTERM: exit 130, generation 2 not recorded" || fail "SIGTERM: exit $brc: $(cat c.err)"
run -o C > /dev/null 2> c2.err || fail "restart after SIGTERM: $(cat c2.err)"
same_as_a C "SIGTERM after generation 1"

# --- refusals -----------------------------------------------------------------------------------
[ -f A/train.ini ] && [ -f A/gen2/record.ini ] || fail "run A is missing"
sum_a=$(cat A/train.ini A/gen2/record.ini | cksum)
run -o A -n 9 > /dev/null 2> r1.err
rc=$?
[ $rc -eq 2 ] && grep -q "games: '8' in the run, '9' given" r1.err && grep -q 'nothing was touched' r1.err &&
    ok "other games refused" || fail "other games: exit $rc: $(cat r1.err)"
run -o A -v jieqi > /dev/null 2> r2.err
rc=$?
[ $rc -eq 2 ] && grep -q "variant: 'xiangqi' in the run, 'jieqi' given" r2.err && ok "other rule set refused" ||
    fail "other rule set: exit $rc: $(cat r2.err)"
run -o A --preset standard > /dev/null 2> r3.err
rc=$?
[ $rc -eq 2 ] && grep -q 'search settings differ' r3.err && grep -q 'playouts: 8 in the run, 200 given' r3.err &&
    ok "other search settings refused, named" || fail "other search: exit $rc: $(cat r3.err)"
run -o A --start none > /dev/null 2> r4.err
rc=$?
[ $rc -eq 2 ] && grep -q 'starting weights differ' r4.err && ok "other starting weights refused" ||
    fail "other start: exit $rc: $(cat r4.err)"
[ "$(cat A/train.ini A/gen2/record.ini | cksum)" = "$sum_a" ] && [ ! -d A/gen3 ] && ok "refusals touch nothing" ||
    fail "a refusal changed the run"
# Repeating the run's own settings continues it (here: nothing left to do).
eval "run -o A $tiny -g 2 --sprt -600,-500,0.25,0.25" > /dev/null 2> r5.err && ok "same settings accepted" ||
    fail "same settings: $(cat r5.err)"
mkdir D && echo data > D/mine.txt
run -o D -v xiangqi > /dev/null 2> r6.err
rc=$?
[ $rc -eq 2 ] && grep -q 'no training run' r6.err && [ "$(cat D/mine.txt)" = data ] && [ ! -f D/train.ini ] &&
    ok "a folder of other files refused" || fail "other folder: exit $rc: $(cat r6.err)"
run -o E > /dev/null 2> r7.err
rc=$?
[ $rc -eq 2 ] && grep -q 'needs -v VARIANT' r7.err && ok "a new run needs -v" || fail "no -v: exit $rc: $(cat r7.err)"
cp -r A T
echo "playouts = 9" >> T/search.ini
run -o T > /dev/null 2> r8.err
rc=$?
[ $rc -eq 1 ] && grep -q 'was changed after the run started' r8.err && ok "tampered search.ini refused" ||
    fail "tampered: exit $rc: $(cat r8.err)"
run -o A --tune "'--l2" > /dev/null 2> r9.err
[ $? -eq 2 ] && grep -q 'quote is not closed' r9.err && ok "bad --tune words" || fail "bad --tune: $(cat r9.err)"
run -o A --gate-set nosuch=1 > /dev/null 2> r10.err
[ $? -eq 2 ] && grep -q 'nosuch' r10.err && ok "bad --gate-set" || fail "bad --gate-set: $(cat r10.err)"

# --- status, export, extending ------------------------------------------------------------------
"$XQLAB" train -o A --status --markdown > md.txt 2>&1 && grep -q '^| 2 | 8 | 16 |' md.txt &&
    ok "status as Markdown" || fail "status markdown: $(cat md.txt)"
"$XQLAB" train -o A --status --json > st.json 2>&1 &&
    /usr/bin/python3 -c "import json,sys; d=json.load(open('st.json')); sys.exit(0 if len(d['generations'])==3 and d['generations'][2]['tune_games']==16 else 1)" &&
    ok "status as JSON" || fail "status json: $(cat st.json)"
run -o A --export out.ini > /dev/null 2> e1.err && grep -q '^; Produced by xqlab train' out.ini &&
    grep -q '^;   2: 16 / ' out.ini && [ "$(weights out.ini)" = "$(weights A/best.ini)" ] &&
    ok "export with provenance" || fail "export: $(cat e1.err)"
"$XQLAB" selfplay -v xiangqi -n 2 --playouts 4 --weights out.ini --no-output --progress quiet > /dev/null 2>&1 &&
    ok "exported weights load" || fail "exported weights do not load"
run -o A --export out.ini > /dev/null 2> e2.err
rc=$?
[ $rc -eq 1 ] && grep -q 'force' e2.err && ok "export never replaces without --force" || fail "export again: exit $rc: $(cat e2.err)"
run -o A --export out.ini --force > /dev/null 2>&1 && ok "export --force" || fail "export --force"
# Weights in force that name only some features (H kept its starting weights, the hand-set
# xiangqi-handset.ini: 29 names) are exported with the others at their defaults: the file names every
# feature of the rule set, and plays the same games as the file it came from.
nf=$("$XQLAB" variants --weights xiangqi | sed -n 's/^rule set xiangqi: \([0-9]*\) evaluation features$/\1/p')
run -o H --export h.ini > /dev/null 2> e3.err
[ -n "$nf" ] && [ "$(grep -c '^[a-z][a-z_.0-9]* = ' h.ini)" = "$nf" ] && grep -q "^; The $((nf - 29)) features it does not name" h.ini &&
    ok "export names every feature ($nf)" || fail "export of partial weights: $nf features, $(grep -c ' = ' h.ini) lines: $(cat e3.err)"
# games PLAYER-WEIGHTS: the summary of 4 short self-play games without the weights' name and the times
games() {
    "$XQLAB" selfplay -v xiangqi -n 4 --playouts 8 --seed 5 -t 1 --weights "$1" --no-output --progress quiet --json 2>/dev/null |
        sed 's/"weights": "[^"]*"//; s/"wall_seconds": [0-9.]*//'
}
g1=$(games H/gen0/weights.ini)
[ -n "$g1" ] && [ "$g1" = "$(games h.ini)" ] && ok "exported defaults play the same games" ||
    fail "exported defaults play other games"
run -o A -g 3 > /dev/null 2> g3.err && [ -f A/gen3/record.ini ] && [ "$(value generations A/train.ini)" = 3 ] &&
    ok "-g 3 extends the run" || fail "-g 3: $(cat g3.err)"

# --- a hidden-piece rule set --------------------------------------------------------------------
run -o J -v jieqi -g 1 -n 6 --playouts 8 --gate-games 8 --tune '--only material' > /dev/null 2> j.err &&
    [ -f J/gen1/record.ini ] && [ "$(value selfplay_games J/gen1/record.ini)" = 6 ] && ok "jieqi generation" ||
    fail "jieqi: $(cat j.err)"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
