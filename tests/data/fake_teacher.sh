#!/bin/sh
# fake_teacher.sh MODE - a scripted UCI teacher for `xqlab label` (tests/cli/test_label.sh). For a
# position after P moves it reports "score cp 10P" (P a multiple of 5: "score mate 3", so the
# label is +1), then a second principal variation's score (multipv 2) and an "info string"
# naming a score (both to be ignored), and a bestmove. MODE:
#   good     as above
#   noscore  answers go with a bestmove and no score line
# With FAKE_TEACHER_COUNT set, every go of every process adds a line to that file; with
# FAKE_TEACHER_DIE_AT=N as well, a go that finds N lines there exits instead (so does every go of
# a restarted process): a teacher that dies for good from the N-th position on.
mode=$1
plies=0
while read -r line; do
    set -- $line
    case $1 in
    uci)
        echo "id name fake teacher"
        echo "option name Hash type spin default 16 min 1 max 1024"
        echo uciok ;;
    isready) echo readyok ;;
    position)
        plies=0
        seen=0
        for w in "$@"; do
            [ $seen = 1 ] && plies=$((plies + 1))
            [ "$w" = moves ] && seen=1
        done ;;
    go)
        if [ -n "${FAKE_TEACHER_COUNT:-}" ]; then
            n=$(wc -l < "$FAKE_TEACHER_COUNT" 2>/dev/null || echo 0)
            [ -n "${FAKE_TEACHER_DIE_AT:-}" ] && [ "$n" -ge "$FAKE_TEACHER_DIE_AT" ] && exit 1
            echo go >> "$FAKE_TEACHER_COUNT"
        fi
        if [ "$mode" != noscore ]; then
            echo "info depth 1 score cp -777 nodes 10"
            if [ $((plies % 5)) -eq 0 ]; then
                echo "info depth 2 multipv 1 score mate 3 nodes 20 pv a0a1"
            else
                echo "info depth 2 multipv 1 score cp $((plies * 10)) nodes 20 pv a0a1"
            fi
            echo "info depth 2 multipv 2 score cp 999 nodes 20 pv a0a2"
            echo "info string not a score cp 5555"
        fi
        echo "bestmove a0a1" ;;
    quit) exit 0 ;;
    esac
done
