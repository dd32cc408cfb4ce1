#!/bin/sh
# xboard_resigner.sh - a stand-in XBoard-protocol engine for test_xboard.sh: it plays standard
# xiangqi only and resigns whenever it is asked to move, so a match game that starts from a loaded
# game file ends at that file's last position (which XBoard then saves with -spf).
while IFS= read -r line; do
    case "$line" in
        protover*) echo 'feature myname="resigner" usermove=1 setboard=1 sigint=0 sigterm=0 variants="xiangqi" done=1' ;;
        go|usermove*) echo "resign" ;;
        quit) exit 0 ;;
    esac
done
