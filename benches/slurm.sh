#!/usr/bin/env bash
# The cluster path of docs/sweep.md ("More than one machine"), run for real on this host, not in
# CI. Both modes take the scripts from docs/sweep.md itself (the code blocks after "A Slurm job
# array" and "A Kubernetes Indexed Job"), so they test what the page says, changed only to a small
# study: the one of tests/cli/sweep.rs (`tiny_study`: the October 2002 floor on 30 months of the
# built-in world at scale 0.01, seeds 1-3, 21 rows), written into the work directory, cut into 4
# shards of one core and 2G each.
#
#   benches/slurm.sh [slurm]  installs Debian's slurm-wlm and munge if missing, starts munged,
#                             slurmctld and slurmd on this node alone (no systemd: the daemons in
#                             the foreground, stopped on exit; state, logs and slurm.conf in the
#                             work directory, through SLURM_CONF), submits the docs' job array
#                             (sweep.sh) and the merge job that depends on it as the docs write
#                             them, waits for them, runs the same study on one machine
#                             (`elosim sweep STUDY --out one`) and compares: every file but the
#                             journal byte for byte (cmp), the journal once its times are
#                             removed and its rows sorted. Prints the wall times of the array and
#                             merge, of each shard and of the one-machine run. Then the recoveries
#                             the docs describe: a task made to fail (its --out a file), the merge
#                             left pending, the task submitted again and the merge pointed at it
#                             (the same bytes again); a finished task requeued, which resumes its
#                             journal (Slurm holds it two minutes or more: about 3 minutes in all)
#   benches/slurm.sh k8s      the Indexed Job's manifest validated against the Job schema of
#                             Kubernetes 1.30, strictly (PyPI's kubernetes-validate, in a venv in
#                             the work directory: `kubectl create --dry-run=client` needs an API
#                             server even with --validate=false), then its container's command run
#                             by sh for each JOB_COMPLETION_INDEX and the shards merged and
#                             compared with one machine's run the same way
#
# ELOSIM names the binary (default: the release build under CARGO_TARGET_DIR or ./target); WORK
# the work directory (default: a new one under /tmp, kept and named at the end). Run as root (it
# installs packages and starts the daemons); a slurmctld or slurmd already running is refused.
set -euo pipefail

mode=${1:-slurm}
repo=$(cd "$(dirname "$0")/.." && pwd)
elosim=$(realpath "${ELOSIM:-${CARGO_TARGET_DIR:-$repo/target}/release/elosim}")
work=$(realpath -m "${WORK:-$(mktemp -d /tmp/elosim-slurm.XXXXXX)}")
shards=4
doc=$repo/docs/sweep.md
docs_study=scenarios/studies/sonas-2017-compression.toml

die() {
    echo "slurm.sh: $*" >&2
    exit 1
}
[[ -x $elosim ]] || die "no elosim at $elosim (set ELOSIM)"
mkdir -p "$work/bin" "$work/run"
# The docs' scripts call `elosim`: this one, first on the PATH (sbatch passes the PATH on).
ln -sf "$elosim" "$work/bin/elosim"
export PATH=$work/bin:$PATH
run=$work/run

# The NTH code block in LANG after the paragraph of docs/sweep.md that starts with MARKER.
block() {
    local marker=$1 lang=$2 nth=$3 text
    text=$(awk -v marker="$marker" -v lang="$lang" -v nth="$nth" '
        index($0, marker) == 1 { seen = 1 }
        seen && !inside && $0 == "```" lang { count++; inside = 1; next }
        inside && $0 == "```" { inside = 0; if (count == nth) exit; next }
        inside && count == nth { print }' "$doc")
    [[ -n $text ]] || die "no $lang block $nth after \"$marker\" in docs/sweep.md"
    printf '%s\n' "$text"
}

# TEXT with every FROM replaced by TO, failing if the docs no longer hold FROM.
swap() {
    local text=$1 from=$2 to=$3
    [[ $text == *"$from"* ]] || die "docs/sweep.md's block no longer holds: $from"
    printf '%s\n' "${text//"$from"/$to}"
}

# The study of tests/cli/sweep.rs's tiny_study, its world tiny_world's.
write_study() {
    cat >"$run/tiny.toml" <<EOF
name = "tiny"
extends = "$repo/worlds/fide-2001-2025.toml"
[world]
months = 30
EOF
    cat >"$run/study.toml" <<EOF
name = "tiny-study"
scenario = "$repo/scenarios/fide-historical.toml"

[input]
world = "tiny.toml"
scale = 0.01
seeds = [1, 2, 3]

[[parameter]]
key = "revision[2002-07].floor"
values = [1601, 1801, 2001]

[[parameter]]
key = "revision[2002-07].k.standard"
values = [15, 25]

[[measure]]
kind = "truth-gap"
list = "2003-01"

[[measure]]
kind = "flatness"
from = "2002-07"
to = "2003-06"
lowest = 1800
min-games = 20

[[measure]]
kind = "curve-gap"
from = "2002-07"
to = "2003-06"
min-games = 20

[[measure]]
kind = "predictive"
from = "2003-01"
to = "2003-06"

[[measure]]
kind = "disruption"
list = "2003-04"

[[measure]]
kind = "pool-shape"
list = "2003-01"
lowest = 1800
EOF
}

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# The study on one machine, into $run/one, timed.
one_machine() {
    local start
    start=$(now)
    (cd "$run" && elosim sweep study.toml --out one --quiet >one.out)
    one_seconds=$(since "$start")
}

# MERGED against one machine's run: every file but the journal and the timings the same bytes,
# the journal the same once its times (`seconds`, `measure_seconds`) are removed and its rows
# sorted (one machine writes them as they arrive, the merge in order).
compare() {
    local merged=$1 one=$run/one name compared=()
    [[ -f $merged/results.jsonl ]] || die "no merged journal in $merged"
    [[ ! -e $merged/timings.json ]] || die "$merged holds timings.json: a merge writes none"
    for name in $(cd "$one" && ls); do
        case $name in results.jsonl | timings.json) continue ;; esac
        cmp "$one/$name" "$merged/$name" || die "$name differs between $one and $merged"
        compared+=("$name")
    done
    for name in $(cd "$merged" && ls); do
        [[ -e $one/$name ]] || die "$merged holds $name, which one machine did not write"
    done
    journal() {
        head -1 "$1"
        tail -n +2 "$1" | jq -c 'with_entries(select(.key | endswith("seconds") | not))' |
            LC_ALL=C sort
    }
    cmp <(journal "$one/results.jsonl") <(journal "$merged/results.jsonl") ||
        die "the journals differ (beyond seconds and order)"
    echo "identical to one machine's: ${compared[*]} (cmp);" \
        "results.jsonl (times removed, rows sorted)"
}

case $mode in
slurm) ;;
k8s)
    write_study
    manifest=$run/job.yaml
    block "A Kubernetes Indexed Job" yaml 1 >"$manifest"
    if [[ ! -x $work/venv/bin/kubernetes-validate ]]; then
        python3 -m venv "$work/venv"
        "$work/venv/bin/pip" install --quiet kubernetes-validate
    fi
    echo "kubernetes-validate $("$work/venv/bin/kubernetes-validate" --version)"
    "$work/venv/bin/kubernetes-validate" --strict -k 1.30 "$manifest"
    # The container's command for each index, on the small study: sh -c ARGS as the pod runs it.
    command=$("$work/venv/bin/python" - "$manifest" <<'EOF'
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
spec = job["spec"]
container = spec["template"]["spec"]["containers"][0]
assert container["command"] == ["sh", "-c"], container["command"]
assert spec["completions"] == spec["parallelism"], spec
print(spec["completions"])
print(container["args"][0])
EOF
    )
    completions=$(head -1 <<<"$command")
    args=$(tail -n +2 <<<"$command")
    args=$(swap "$args" "$docs_study" study.toml)
    args=$(swap "$args" "/$completions --resume" "/$shards --resume")
    args=$(swap "$args" /results/ "$run/results/")
    echo "each pod: sh -c '$args'"
    start=$(now)
    for i in $(seq 0 $((shards - 1))); do
        (cd "$run" && JOB_COMPLETION_INDEX=$i sh -c "$args" >"pod-$i.out")
    done
    # The docs' merge "once the job is complete", wherever the volume is mounted.
    (cd "$run" && elosim sweep study.toml --merge "$run"/results/shard-* --quiet >merge.out)
    echo "4 pods' commands one after the other and the merge: $(since "$start") s"
    one_machine
    echo "one machine: $one_seconds s"
    compare "$run/output/tiny-study"
    echo "work directory: $work"
    exit 0
    ;;
*) die "usage: $0 [slurm|k8s]" ;;
esac

# --- slurm ---
[[ $(id -u) == 0 ]] || die "run as root (it installs packages and starts the daemons)"
for daemon in slurmctld slurmd; do
    if pgrep -x "$daemon" >/dev/null; then die "a $daemon already runs here"; fi
done
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
command -v jq >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null

host=$(hostname -s)
conf=$work/slurm
mkdir -p "$conf/state" "$conf/spool"
cat >"$conf/slurm.conf" <<EOF
ClusterName=elosim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$conf/state
SlurmdSpoolDir=$conf/spool
SlurmctldPidFile=$conf/slurmctld.pid
SlurmdPidFile=$conf/slurmd.pid
SlurmctldLogFile=$conf/slurmctld.log
SlurmdLogFile=$conf/slurmd.log
# No cgroups, no systemd: what a container allows.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
NodeName=$host CPUs=2 RealMemory=20000 State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf/slurm.conf

started=()
stop() {
    local pid
    for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${started[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT

if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    echo "munged already runs"
else
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    setpriv --reuid=munge --regid=munge --clear-groups \
        munged --foreground >"$conf/munged.out" 2>&1 &
    started+=($!)
    for _ in $(seq 50); do
        if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then break; fi
        sleep 0.1
    done
    munge -n | unmunge >/dev/null || die "munged did not start"
fi
slurmctld -D -c -f "$SLURM_CONF" >"$conf/slurmctld.out" 2>&1 &
started+=($!)
slurmd -D -f "$SLURM_CONF" >"$conf/slurmd.out" 2>&1 &
started+=($!)
state=
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
done
[[ $state == idle ]] || die "the node is not idle but '${state}': see $conf/*.log"
ps -o pid,comm -p "$(IFS=,; echo "${started[*]}")"
sinfo

# The docs' two blocks, to the small study and 4 shards of one core and 2G.
write_study
script=$(block "A Slurm job array" sh 1)
script=$(swap "$script" "--array=1-8" "--array=1-$shards")
script=$(swap "$script" "--cpus-per-task=4" "--cpus-per-task=1")
script=$(swap "$script" "--mem=8G" "--mem=2G")
script=$(swap "$script" "N=8" "N=$shards")
script=$(swap "$script" "$docs_study" study.toml)
printf '%s\n' "$script" >"$run/sweep.sh"
submit=$(block "A Slurm job array" sh 2)
submit=$(swap "$submit" "$docs_study" study.toml)
printf '%s\n' "$submit" >"$run/submit.sh"
echo "--- sweep.sh"
cat "$run/sweep.sh"
echo "--- submit.sh"
cat "$run/submit.sh"
echo "---"

start=$(now)
(cd "$run" && bash submit.sh >submit.out)
echo "queued: $(squeue -h -o '%i %T %E' | paste -sd ';' | sed 's/;/; /g')"
while [[ -n $(squeue -h -o %i) ]]; do sleep 0.1; done
array_seconds=$(since "$start")

# Every job's state and times, while slurmctld keeps the finished ones (MinJobAge, 300 s).
scontrol show job -o >"$run/jobs.txt"
field() { { grep -o " $1=[^ ]*" <<<" $2" || true; } | cut -d= -f2; }
failed=0
first_start=
last_end=
lines=()
while read -r line; do
    id=$(field JobId "$line")
    task=$(field ArrayTaskId "$line")
    state=$(field JobState "$line")
    begin=$(date -d "$(field StartTime "$line")" +%s)
    end=$(date -d "$(field EndTime "$line")" +%s)
    [[ -z $first_start || $begin -lt $first_start ]] && first_start=$begin
    [[ -z $last_end || $end -gt $last_end ]] && last_end=$end
    times="$state, $(date -d @"$begin" +%T) to $(date -d @"$end" +%T), Slurm's $((end - begin)) s"
    if [[ -n $task ]]; then
        out=$run/slurm-$(field ArrayJobId "$line")_$task.out
        said=$(grep -o 'in [0-9.]* s, in' "$out" | cut -d' ' -f2 || true)
        lines[task]="shard $task (job $id): $times, elosim's own ${said:-?} s"
    else
        lines[shards + 1]="merge (job $id): $times"
    fi
    [[ $state == COMPLETED ]] || failed=1
done <"$run/jobs.txt"
printf '%s\n' "${lines[@]}"
((failed == 0)) || die "a job did not complete: see $run/jobs.txt and $run/slurm-*.out"
echo "array and merge: $array_seconds s from the first sbatch to an empty queue;" \
    "Slurm's $((last_end - first_start)) s from the first shard's start to the merge's end"

one_machine
echo "one machine: $one_seconds s"
compare "$run/output/tiny-study"

# A shard that fails (its --out a file): the merge waits for ever (DependencyNeverSatisfied) until
# the task is submitted again and the merge pointed at it, as docs/sweep.md says.
fail=$work/fail
mkdir -p "$fail/shards"
cp "$run/study.toml" "$run/tiny.toml" "$run/sweep.sh" "$run/submit.sh" "$fail/"
touch "$fail/shards/shard-2"
merge=$(cd "$fail" && bash submit.sh | awk '{ print $NF }')
reason=
for _ in $(seq 600); do
    reason=$(squeue -h -j "$merge" -o %r)
    [[ $reason == DependencyNeverSatisfied ]] && break
    sleep 0.1
done
[[ $reason == DependencyNeverSatisfied ]] || die "the merge job $merge is pending for '$reason'"
echo "shard 2 failed ($(tail -1 "$fail"/slurm-*_2.out)): the merge job pending for $reason"
rm "$fail/shards/shard-2"
again=$(cd "$fail" && sbatch --parsable --array=2 sweep.sh)
scontrol update JobId="$merge" Dependency=afterok:"$again"
start=$(now)
while [[ -n $(squeue -h -o %i) ]]; do sleep 0.1; done
echo "shard 2 submitted again, the merge pointed at it: done in $(since "$start") s"
compare "$fail/output/tiny-study"

# A shard requeued (as after a node's failure) runs sweep.sh again: with --resume it takes its
# journal's rows and evaluates nothing again.
line=$(grep ' ArrayTaskId=2 ' "$run/jobs.txt")
scontrol requeue "$(field JobId "$line")"
start=$(now)
while [[ -n $(squeue -h -o %i) ]]; do sleep 0.1; done
said=$(grep 'Shard 2 of' "$run/slurm-$(field ArrayJobId "$line")_2.out" | tail -1)
echo "shard 2 requeued: after $(since "$start") s: $said"
[[ $said == *"(5 resumed)"* ]] || die "the requeued shard did not resume its journal"
echo "work directory: $work"
