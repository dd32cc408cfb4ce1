#!/bin/sh
# train.sh - the training loop: self-play with the current weights, tune a candidate, match it
# against the current weights with an SPRT, promote it on a pass; every generation kept.
set -eu

usage() {
    cat <<'EOF'
usage: scripts/train.sh -v VARIANT -o DIR [options]

Each generation G (1, 2, ...) runs, in DIR/genG/:
  selfplay.h5     xqlab selfplay with the current weights (seed G)
  candidate.ini   xqlab tune on the data of the last WINDOW generations, started from the
                  current weights (candidate.json: piece values with errors, losses)
  match.json      xqlab match candidate vs current at equal playouts, with --sprt
and promotes the candidate to current when the SPRT accepts H1. DIR/current.ini is always the
weights in force; DIR/summary.tsv has one line per generation. A step whose output exists is
skipped, so an interrupted run continues where it stopped when started again.

options:
  -v VARIANT          rule set (required)
  -o DIR              output folder (required)
  -g N                generations (default 3)
  -n GAMES            self-play games per generation (default 20000)
  --start FILE        starting weights (default configs/weights/VARIANT.ini)
  --preset NAME       search preset for self-play and matches (default quick)
  --window K          tune on the data of the last K generations (default 2)
  --tune-args "ARGS"  extra xqlab tune options (default "--root-blend 1")
  --match-games N     maximum match games (default 4000)
  --sprt E0,E1,A,B    promotion test (default 0,10,0.05,0.05)
  --xqlab PATH        the xqlab binary (default build/cli/xqlab)
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
variant= out= gens=3 games=20000 start= preset=quick window=2
tune_args="--root-blend 1" match_games=4000 sprt=0,10,0.05,0.05 xqlab="$root/build/cli/xqlab"
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        -v) variant=$2; shift 2 ;;
        -o) out=$2; shift 2 ;;
        -g) gens=$2; shift 2 ;;
        -n) games=$2; shift 2 ;;
        --start) start=$2; shift 2 ;;
        --preset) preset=$2; shift 2 ;;
        --window) window=$2; shift 2 ;;
        --tune-args) tune_args=$2; shift 2 ;;
        --match-games) match_games=$2; shift 2 ;;
        --sprt) sprt=$2; shift 2 ;;
        --xqlab) xqlab=$2; shift 2 ;;
        *) echo "train.sh: unknown option or missing value: '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
if [ -z "$variant" ] || [ -z "$out" ]; then
    echo "train.sh: needs -v VARIANT and -o DIR" >&2
    exit 2
fi
[ -x "$xqlab" ] || { echo "train.sh: $xqlab is not an executable (build first, or --xqlab)" >&2; exit 2; }
[ -n "$start" ] || start="$root/configs/weights/$variant.ini"
mkdir -p "$out"
if [ ! -f "$out/current.ini" ]; then
    if [ -f "$start" ]; then
        cp "$start" "$out/current.ini"
    else
        # No shipped weights: the variant's piece values (an empty weights section).
        printf '[weights]\n' > "$out/current.ini"
    fi
    cp "$out/current.ini" "$out/gen0.ini"
fi
[ -f "$out/summary.tsv" ] ||
    printf 'generation\tgames\tpositions\tvalidation_loss\tmatch_games\telo\telo_low\telo_high\tllr\tverdict\tpromoted\n' \
        > "$out/summary.tsv"

# Value of a JSON field (flat numbers and strings, as xqlab prints them).
json_field() {
    sed -n "s/.*\"$2\": *\"\{0,1\}\([^,\"}]*\).*/\1/p" "$1" | head -n 1
}

g=1
while [ "$g" -le "$gens" ]; do
    dir="$out/gen$g"
    mkdir -p "$dir"
    if [ -f "$dir/done" ]; then
        g=$((g + 1))
        continue
    fi
    echo "== generation $g: self-play ($games games)"
    if [ ! -f "$dir/selfplay.h5" ]; then
        resume=
        [ -f "$dir/selfplay.h5.tmp" ] && resume=--resume
        "$xqlab" selfplay -v "$variant" -n "$games" --preset "$preset" --seed "$g" \
            --weights "$out/current.ini" -o "$dir/selfplay.h5" --progress log $resume \
            > "$dir/selfplay.txt"
    fi
    cp "$out/current.ini" "$dir/current.ini"
    data=
    k=$g
    while [ "$k" -ge 1 ] && [ "$k" -gt $((g - window)) ]; do
        data="$out/gen$k/selfplay.h5 $data"
        k=$((k - 1))
    done
    echo "== generation $g: tune on$(printf ' %s' $data | sed "s|$out/||g")"
    if [ ! -f "$dir/candidate.json" ]; then
        # shellcheck disable=SC2086
        "$xqlab" tune $data -v "$variant" --start "$dir/current.ini" -o "$dir/candidate.ini" \
            --quiet $tune_args > "$dir/tune.txt"
    fi
    echo "== generation $g: match candidate vs current (SPRT $sprt, at most $match_games games)"
    if [ ! -f "$dir/match.json" ]; then
        "$xqlab" match -v "$variant" --preset "$preset" --seed "$g" \
            --a "mcts:weights=$dir/candidate.ini" --b "mcts:weights=$dir/current.ini" \
            -n "$match_games" --sprt "$sprt" --quiet --json > "$dir/match.json.part"
        mv "$dir/match.json.part" "$dir/match.json"
    fi
    verdict=$(json_field "$dir/match.json" verdict)
    promoted=no
    if [ "$verdict" = H1 ]; then
        cp "$dir/candidate.ini" "$out/current.ini"
        promoted=yes
    fi
    elo95=$(sed -n 's/.*"elo_95": \[\([^]]*\)\].*/\1/p' "$dir/match.json" | tr -d ' ')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$g" \
        "$(json_field "$dir/candidate.json" games)" "$(json_field "$dir/candidate.json" positions)" \
        "$(json_field "$dir/candidate.json" validation)" "$(json_field "$dir/match.json" games)" \
        "$(json_field "$dir/match.json" elo)" "${elo95%,*}" "${elo95#*,}" \
        "$(json_field "$dir/match.json" llr)" "$verdict" "$promoted" >> "$out/summary.tsv"
    touch "$dir/done"
    echo "== generation $g: SPRT verdict $verdict, promoted: $promoted"
    g=$((g + 1))
done
echo "== summary ($out/summary.tsv)"
column -t -s "$(printf '\t')" "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv"
echo "weights in force: $out/current.ini"
