#!/usr/bin/env bash
# The figures of docs/performance.md that `elosim bench` does not print itself: what other tools
# take for the same work, and the memory of reading a compressed input. Each prints best-of times.
# tests/cli/performance_figures.rs runs them in its sitting.
#
#   benches/baselines.sh awk FILE             a period Elo in awk (K 20, ratings frozen for the
#                                             period) on a Kaggle-layout file, e.g. the one that
#                                             `elosim bench --runs 1 --keep DIR` leaves in DIR
#   benches/baselines.sh compare RUN_A RUN_B  `elosim compare RUN_A RUN_B` against a polars
#                                             script that joins the two runs' last lists (Python
#                                             polars: pip install polars), alternated
#   benches/baselines.sh gzip                 peak memory of reading a 4.7 MB .pgn.gz that holds
#                                             1 GiB of the digit 0 (one line, no game)
#   benches/baselines.sh zstd                 the same for a .pgn.zst
#   benches/baselines.sh crosstable           peak memory of `elosim crosstable` over 1 GiB of
#                                             games: 8 million as a .pgn.gz, 29 million as CSV,
#                                             with and without --established
#   benches/baselines.sh long-line            peak memory of `elosim histogram` refusing a
#                                             .csv.gz list whose second line is 1 GiB long
#
# ELOSIM names the binary (default: the release build under CARGO_TARGET_DIR or ./target);
# RUNS the runs of each measurement (default 3). Needs /usr/bin/time (GNU time).
set -euo pipefail

runs=${RUNS:-3}
elosim=${ELOSIM:-${CARGO_TARGET_DIR:-target}/release/elosim}

# Seconds and peak KB of one command, as "S KB".
measure() {
    /usr/bin/time -f "%e %M" -o /tmp/elosim-baseline-time "$@" >/dev/null 2>&1 || {
        echo "failed: $*" >&2
        exit 1
    }
    cat /tmp/elosim-baseline-time
}

# Best (lowest) of the first fields of the lines on stdin.
best() { sort -n | head -1; }

awk_period_elo() {
    local file=$1
    # The whole rating system: a player starts at 1500; each game changes both players by
    # K (score - expected) against the ratings of the period's start; a period's changes
    # are applied when the next period begins.
    awk -F, 'NR > 1 {
        if ($1 != period) { for (p in d) r[p] += d[p]; delete d; period = $1 }
        w = (($2) in r) ? r[$2] : 1500; b = (($3) in r) ? r[$3] : 1500
        e = 1 / (1 + 10 ^ ((b - w) / 400)); c = 20 * ($4 - e)
        d[$2] += c; d[$3] -= c
    } END { for (p in d) r[p] += d[p]; n = 0; for (p in r) n++; print n " players" }' "$file"
}

case ${1:-} in
awk)
    file=${2:?"usage: $0 awk FILE"}
    export -f awk_period_elo
    for _ in $(seq "$runs"); do measure bash -c 'awk_period_elo "$0"' "$file"; done |
        best | awk '{ print "awk period Elo: best " $1 " s" }'
    ;;
compare)
    a=${2:?"usage: $0 compare RUN_A RUN_B"}
    b=${3:?"usage: $0 compare RUN_A RUN_B"}
    python3 -c 'import polars' 2>/dev/null || {
        echo "the script it is timed against needs Python polars: pip install polars" >&2
        exit 1
    }
    script=$(mktemp --suffix .py)
    trap 'rm -f "$script"' EXIT
    cat >"$script" <<'EOF'
import sys
import polars as pl

def last_list(run):
    lists = pl.scan_parquet(f"{run}/lists.parquet")
    month = lists.select(pl.col("month").cast(pl.String).max()).collect().item()
    # A run writes each list's changes; the list in force is each player's last row.
    return (lists.filter(pl.col("month").cast(pl.String) <= month)
                 .group_by("id").last()
                 .filter(pl.col("rating").is_not_null())
                 .select("id", "rating"))

both = last_list(sys.argv[1]).join(last_list(sys.argv[2]), on="id", suffix="_b").collect()
d = (both["rating_b"] - both["rating"]).cast(pl.Float64)
print(len(both), "players on both, mean", d.mean(), "RMSE", (d ** 2).mean() ** 0.5)
EOF
    for _ in $(seq "$runs"); do
        echo "elosim $(measure "$elosim" compare "$a" "$b")"
        echo "polars $(measure python3 "$script" "$a" "$b")"
    done | awk '
        { if (!($1 in t) || $2 < t[$1]) { t[$1] = $2; kb[$1] = $3 } }
        END {
            printf "elosim compare: best %s s, %.2f GB\n", t["elosim"], kb["elosim"] / 1048576
            printf "polars script:  best %s s, %.2f GB\n", t["polars"], kb["polars"] / 1048576
            printf "ratio: %.2f x the script\n", t["elosim"] / t["polars"]
        }'
    ;;
gzip | zstd)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    # Text, so that the reader reads it all (a file of NUL bytes is refused by its first line):
    # one line of 1 GiB, of which the PGN reader keeps 1 MiB.
    ext=$([ "$1" = gzip ] && echo gz || echo zst)
    head -c 1G /dev/zero | tr '\0' '0' | "$1" -1 -c >"$dir/zeros.pgn.$ext"
    # The run stops with "the games carry no ratings"; what is measured is reading the stream.
    # GNU time says first that the command failed; the figures are its last line.
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$dir/time" "$elosim" crosstable "$dir/zeros.pgn.$ext" \
            >/dev/null 2>&1 || true
        tail -1 "$dir/time"
    done | best | awk -v size="$(stat -c %s "$dir/zeros.pgn.$ext")" -v ext="$ext" '{
        printf "a %.2f MB .pgn.%s holding 1 GiB: best %s s, peak %d KB\n", size / 1e6, ext, $1, $2 }'
    ;;
crosstable)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    # 8 million games among 50,000 players as PGN (1.2 GB), 29 million among 200,000 as CSV
    # (0.97 GB), dated over 2000-2019 at random, with ratings from 1400 to 2599.
    awk 'BEGIN { srand(3); for (i = 0; i < 8000000; i++) {
        w = int(rand() * 50000); b = (w + 1 + int(rand() * 49999)) % 50000; r = rand()
        res = r < 0.4 ? "1-0" : r < 0.7 ? "1/2-1/2" : "0-1"
        printf "[Event \"Open %d\"]\n[Date \"%d.%02d.01\"]\n[White \"Player %d\"]\n[Black \"Player %d\"]\n[Result \"%s\"]\n[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n\n1. e4 e5 %s\n\n",
            i % 1000, 2000 + int(rand() * 20), 1 + int(rand() * 12), w, b, res, 1400 + w % 1200, 1400 + b % 1200, res } }' |
        gzip -1 >"$dir/games.pgn.gz"
    awk 'BEGIN { srand(5); print "period,white,black,score,white_rating,black_rating"
        for (i = 0; i < 29000000; i++) {
            w = int(rand() * 200000); b = (w + 1 + int(rand() * 199999)) % 200000; r = rand()
            printf "%d-%02d,%d,%d,%s,%d,%d\n", 2000 + int(rand() * 20), 1 + int(rand() * 12), w, b,
                r < 0.4 ? "1" : r < 0.7 ? "0.5" : "0", 1400 + w % 1200, 1400 + b % 1200 } }' >"$dir/games.csv"
    for file in games.pgn.gz games.csv; do
        games=$([ $file = games.csv ] && echo 29000000 || echo 8000000)
        for flags in "" "--established 5"; do
            # shellcheck disable=SC2086
            for _ in $(seq "$runs"); do measure "$elosim" crosstable "$dir/$file" $flags; done | best |
                awk -v f="$file" -v flags="${flags:-(plain)}" -v n="$games" '{
                    printf "%-12s %-16s %5.1f s, peak %4d MB, %3.0f bytes a game\n", f, flags, $1, $2 / 1024, $2 * 1024 / n }'
        done
    done
    ;;
long-line)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    { echo "id,rating"; head -c 1G /dev/zero | tr '\0' '9'; } | gzip -1 -c >"$dir/list.csv.gz"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$dir/time" "$elosim" histogram "$dir/list.csv.gz" >/dev/null 2>"$dir/err" || true
        tail -1 "$dir/time"
    done >"$dir/times"
    # The refusal as the user reads it, the temporary folder named as such.
    head -c 300 "$dir/err" | sed "s|$dir|<temporary folder>|g"
    best <"$dir/times" | awk -v size="$(stat -c %s "$dir/list.csv.gz")" '{
        printf "a %.2f MB .csv.gz holding a 1 GiB line, refused: best %s s, peak %d KB\n", size / 1e6, $1, $2 }'
    ;;
*)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
