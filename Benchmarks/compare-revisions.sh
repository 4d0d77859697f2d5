#!/usr/bin/env bash
# Measures two revisions of Statecraft in the same run and prints each measure's ratio to its
# floor for both.
#
#   bash Benchmarks/compare-revisions.sh BEFORE AFTER [--filter REGEX] [--rounds N]
#   bash Benchmarks/compare-revisions.sh aa6c3f8 speed --filter "B(1|4|10) .*" --rounds 3
#
# Each revision is checked out as a git worktree under $STATECRAFT_COMPARE_DIR (default
# /tmp/statecraft-compare/before and .../after), and gets a copy of *this* checkout's Benchmarks/
# package, so that both revisions run the same scenarios; the package's `.package(path: "..")`
# dependency then points at that revision. A revision that can't build them (they use API it
# lacks) runs its own Benchmarks/ instead, and the table compares the scenarios both have. Both are built in release, then run alternately (BEFORE, AFTER, BEFORE,
# AFTER, ...), `--rounds` times each (default 3), with package-benchmark's `--filter`. Each ratio
# compares two measures of the same process run (a scenario and its floor); the table shows the
# median over the rounds of each revision.
set -euo pipefail
shopt -s inherit_errexit

if [[ $# -lt 2 ]]; then
  sed -n '2,13p' "$0"
  exit 2
fi
before=$1
after=$2
shift 2
filter=".*"
rounds=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --filter) filter=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=${STATECRAFT_COMPARE_DIR:-/tmp/statecraft-compare}
mkdir -p "$work"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# Builds the benchmarks in worktree $1, logging to $2. A build folder left by another revision
# can name source files this one lacks ("missing inputs", "unable to load output file map"):
# SwiftPM does not plan again, so the folder is removed and the build tried once more.
build_benchmarks() {
  local dir=$1 log=$2
  (cd "$dir/Benchmarks" && swift build -c release --product StatecraftBenchmarks >"$log" 2>&1) \
    && return 0
  grep -q -e "missing inputs" -e "unable to load output file map" "$log" || return 1
  echo "a stale build folder in $dir/Benchmarks: building from scratch" >&2
  rm -rf "$dir/Benchmarks/.build"
  (cd "$dir/Benchmarks" && swift build -c release --product StatecraftBenchmarks >"$log" 2>&1)
}

# Checks a revision out (once) with this checkout's benchmarks, and builds it.
prepare() {
  local revision=$1 side=$2 commit dir
  commit=$(git -C "$root" rev-parse --short=12 "$revision^{commit}")
  # NB: one worktree per side, moved to the revision asked for: a rebuild after a new commit is
  # incremental. (The directory's name is the library package's identity: see Package.swift.)
  dir="$work/$side"
  if [[ -d "$dir" ]]; then
    git -C "$dir" checkout --quiet --force --detach "$commit"
  else
    git -C "$root" worktree add --detach "$dir" "$commit" >&2
  fi
  find "$dir/Benchmarks" -mindepth 1 -maxdepth 1 ! -name .build ! -name .benchmarkBaselines \
    -exec rm -rf {} +
  tar -C "$root/Benchmarks" --exclude=.build --exclude=.benchmarkBaselines -cf - . \
    | tar -C "$dir/Benchmarks" -xf -
  echo "building $revision ($commit) in $dir" >&2
  if ! build_benchmarks "$dir" "$results/build-$side.log"; then
    # NB: this checkout's scenarios may use API the revision lacks (B12 needs `Shared`): the
    # revision then runs its own scenarios, and only the scenarios both have are compared.
    tail -3 "$results/build-$side.log" >&2
    echo "note: $revision does not build this checkout's benchmarks; it runs its own" >&2
    git -C "$dir" checkout --quiet --force "$commit" -- Benchmarks
    git -C "$dir" clean -q -fd -e .build -e .benchmarkBaselines -- Benchmarks
    (cd "$dir/Benchmarks" && swift build -c release --product StatecraftBenchmarks 2>&1 \
      | tail -3 >&2)
  else
    tail -1 "$results/build-$side.log" >&2
  fi
  echo "$dir"
}

before_dir=$(prepare "$before" before)
after_dir=$(prepare "$after" after)

for round in $(seq 1 "$rounds"); do
  for side in before after; do
    dir=$before_dir
    [[ $side == after ]] && dir=$after_dir
    echo "round $round: $side" >&2
    (cd "$dir/Benchmarks" && swift package --allow-writing-to-directory .benchmarkBaselines \
      benchmark --filter "$filter" --format markdown --path stdout --no-progress 2>/dev/null) \
      >"$results/$side-$round.md"
  done
done

python3 - "$results" "$rounds" "$before" "$after" "$filter" <<'PYTHON'
import re
import statistics
import sys

directory, rounds, before, after, filt = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
time_scale = {"ns": 1e-3, "μs": 1, "us": 1, "ms": 1e3, "s": 1e6}

def parse(path):
    """p50 of each metric of each benchmark, times in µs."""
    results, current = {}, None
    for line in open(path, encoding="utf-8"):
        heading = re.match(r"^### (.+?)\s*$", line)
        if heading:
            current = heading.group(1)
            results[current] = {}
            continue
        row = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if current is None or len(row) < 9 or not re.match(r"^-?\d+$", row[3]):
            continue
        name, value = row[0].rstrip(" *"), float(row[3])
        unit = re.search(r"\((ns|μs|us|ms|s)\)", name)
        if unit:
            value *= time_scale[unit.group(1)]
            name = name.replace(unit.group(0), "").strip()
        magnitude = re.search(r"\((K|M|G)\)", name)
        if magnitude:
            value *= scale[magnitude.group(1)]
            name = name.replace(magnitude.group(0), "").strip()
        results[current][name] = value
    return results

# (measure, numerator, denominator, target)
ratios = [
    ("B1 store / floor", "B1 store", "B1 floor", "≤ 2.5×"),
    ("B2 store / floor", "B2 store", "B2 floor", "≤ 10×"),
    ("B2 store / reducer called directly", "B2 store", "B2 reducer floor", "(info)"),
    ("B3 store / bare task round trip", "B3 store", "B3 task floor", "≤ 1.3×"),
    ("B3 store / detached task round trip", "B3 store", "B3 floor", "≤ 1.5×"),
    ("B4 depth 1 store / B1 store (flat)", "B4 depth 1 store", "B1 store", "(info)"),
    ("B4 depth 5 store / B1 store (flat)", "B4 depth 5 store", "B1 store", "≤ 2×"),
    ("B4 depth 10 store / depth 5 store", "B4 depth 10 store", "B4 depth 5 store", "≤ 1.2×"),
    ("B4 depth 10 leaf store / root store", "B4 depth 10 store", "B4 depth 10 root", "≤ 1.1×"),
    ("B4 depth 1 store / its floor", "B4 depth 1 store", "B4 depth 1 floor", "(info)"),
    ("B4 depth 5 store / its floor", "B4 depth 5 store", "B4 depth 5 floor", "(info)"),
    ("B4 depth 10 store / its floor", "B4 depth 10 store", "B4 depth 10 floor", "(info)"),
    ("B4 depth 5 floor / B1 floor", "B4 depth 5 floor", "B1 floor", "(info)"),
    ("B4 depth 10 floor / depth 5 floor", "B4 depth 10 floor", "B4 depth 5 floor", "(info)"),
    ("W4 depth 5 store / hand-written floor", "B4 depth 5 store", "W4 depth 5 hand floor", "≤ 3×"),
    ("W4 depth 10 store / hand-written floor", "B4 depth 10 store", "W4 depth 10 hand floor",
     "≤ 3×"),
    ("B5 1,000 / 10 observers", "B5 1000 observers", "B5 10 observers", "≤ 2×"),
    ("B9 observed re-read / unobserved", "B9 observed rows", "B9 unobserved rows", "≤ 5×"),
    ("B10 unread states / no stream", "B10 unread states", "B10 no stream", "≤ 1.5×"),
    ("B11 1,000 / 10 busy rows", "B11 1000 busy rows", "B11 10 busy rows", "≤ 1.5×"),
    ("B12 shared field / plain field", "B12 shared field", "B12 plain field", "≈ 1×"),
    ("B12 plain field / floor", "B12 plain field", "B12 floor", "(info)"),
    ("B13 inspector, no page / none", "B13 inspector, no page", "B13 no inspector", "≤ 1.1×"),
    ("R1 read / floor", "R1 store", "R1 floor", "≤ 40×"),
    ("R1 tracked read / tracked floor", "R1 tracked", "R1 tracked floor", "(info)"),
    ("R2 row store read / floor", "R2 store", "R2 floor", "≤ 40×"),
    ("R3 first render / Observable floor", "R3 store", "R3 Observable floor", "(info)"),
    ("W5 observed row send / plain send", "W5 observed send", "W5 plain send", "≤ 5×"),
    ("W5 observed row send / Observable floor", "W5 observed send", "W5 Observable floor",
     "(info)"),
]
counts = [
    ("B8 mallocs per .none send", "B8 none send allocations", "Malloc (total)", 1000, "0"),
    ("B8 mallocs per send through a body's Scope", "B8 body scope allocations", "Malloc (total)",
     1000, "(info)"),
    ("B7 peak resident growth (kB)", "B7 unread states", "peak resident growth (kB)", 1, "< 1,024"),
]

def wall(results, name):
    return results.get(name, {}).get("Time (wall clock)")

table = {}
for side in ("before", "after"):
    per_round = [parse(f"{directory}/{side}-{r}.md") for r in range(1, rounds + 1)]
    for label, num, den, _ in ratios:
        values = [wall(r, num) / wall(r, den) for r in per_round
                  if wall(r, num) is not None and wall(r, den)]
        if values:
            table.setdefault(label, {})[side] = statistics.median(values)
    for label, bench, metric, per, _ in counts:
        values = [r[bench][metric] / per for r in per_round
                  if metric in r.get(bench, {})]
        if values:
            table.setdefault(label, {})[side] = statistics.median(values)

targets = {label: target for label, _, _, target in ratios}
targets.update({label: target for label, _, _, _, target in counts})
print(f"\nbefore = {before}, after = {after}, filter = {filt!r}, "
      f"median of {rounds} alternating rounds each\n")
print("| measure | before | after | target |")
print("|---|---|---|---|")
for label in [r[0] for r in ratios] + [c[0] for c in counts]:
    if label not in table:
        continue
    row = table[label]
    def show(value):
        if value is None:
            return "n/a"
        return f"{value:.2f}×" if "/" in label else f"{value:g}"
    print(f"| {label} | {show(row.get('before'))} | {show(row.get('after'))} | {targets[label]} |")
PYTHON
