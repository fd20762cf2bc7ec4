#!/usr/bin/env bash
# The figures of docs/performance.md that `elosim bench` does not print itself: what other tools
# take for the same work, and the memory of reading a compressed input. Each prints best-of times.
#
#   benches/baselines.sh awk FILE             a period Elo in awk (K 20, ratings frozen for the
#                                             period) on a Kaggle-layout file, e.g. the one that
#                                             `elosim bench --runs 1 --keep DIR` leaves in DIR
#   benches/baselines.sh compare RUN_A RUN_B  `elosim compare RUN_A RUN_B` against a polars
#                                             script that joins the two runs' last lists (Python
#                                             polars), alternated
#   benches/baselines.sh gzip                 peak memory of reading a 4.7 MB .pgn.gz that holds
#                                             1 GiB of the digit 0 (one line, no game)
#   benches/baselines.sh zstd                 the same for a .pgn.zst
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
    /usr/bin/time -f "%e %M" -o "$dir/time" "$elosim" crosstable "$dir/zeros.pgn.$ext" \
        >/dev/null 2>&1 || true
    # GNU time says first that the command failed; the figures are its last line.
    tail -1 "$dir/time" | awk -v size="$(stat -c %s "$dir/zeros.pgn.$ext")" -v ext="$ext" '{
        printf "a %.2f MB .pgn.%s holding 1 GiB: %s s, peak %d KB\n", size / 1e6, ext, $1, $2 }'
    ;;
*)
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
