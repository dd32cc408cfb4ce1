#!/bin/sh
# fake_uci.sh MODE - a scripted UCI engine for the strength referee's failure tests
# (tests/test_strength.c). It plays chariot shuffles from the position it is given (Red a0a1 then
# a1a0, Black a9a8 then a8a9: legal from the xiangqi start, a repetition draw after 8 plies) and
# misbehaves as MODE says:
#   shuffle   plays correctly          crash2   exits at its second go
#   hang      never answers go         illegal  answers go with a0a5 (through its own pawn)
#   garbage   answers "bestmove" alone nouciok  never answers uci
#   exit3     exits with status 3 before reading anything
#   ranks1    shuffle, in ranks counted from 1 (a1a2 ...), as Fairy-Stockfish writes them
mode=$1
gos=0
plies=0
[ "$mode" = exit3 ] && exit 3
while read -r line; do
    set -- $line
    case $1 in
    uci)
        [ "$mode" = nouciok ] && continue
        echo "id name fake $mode"
        echo "id author xqlab tests"
        echo "option name Threads type spin default 1 min 1 max 8"
        echo "option name Noise type spin default 0 min 0 max 9"
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
        gos=$((gos + 1))
        case $mode in
        crash2) [ $gos -ge 2 ] && exit 1 ;;
        hang) continue ;;
        illegal) echo "bestmove a0a5"; continue ;;
        garbage) echo "bestmove"; continue ;;
        esac
        echo "info depth 1 score cp 0"
        case $((plies % 4)) in
        0) m=a0a1; [ "$mode" = ranks1 ] && m=a1a2 ;;
        1) m=a9a8; [ "$mode" = ranks1 ] && m=a10a9 ;;
        2) m=a1a0; [ "$mode" = ranks1 ] && m=a2a1 ;;
        3) m=a8a9; [ "$mode" = ranks1 ] && m=a9a10 ;;
        esac
        echo "bestmove $m" ;;
    quit) exit 0 ;;
    esac
done
