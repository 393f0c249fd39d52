#!/bin/sh
# The measurements of the informative radius and large instances (docs/simulation.md, "The UCBs with an
# informative radius"). Run from the repository root with the
# venv installed; on a shared machine compare CPU seconds and repeat (the machine state goes in the docs).
set -e
RSB=${RSB:-.venv/bin/rsb}
P10=0.1,0.2,0.3,0.35,0.4,0.5,0.6,0.7,0.8,0.9
P50=$(python3 -c "print(','.join(str(round(0.01 + 0.019 * i, 3)) for i in range(50)))")

# 1. CE-UCB-M and RS-UCB-M, Gini, eps = 0.05, radius x 0.01, T = 2e4, 1000 trials, K = 2 and 4: whole
#    process, engine only and the reference loop, in one run (the first table of rsb bench)
$RSB bench
for algo in ce-ucb-m rs-ucb-m; do for p in 0.4,0.9 0.2,0.4,0.6,0.9; do
  /usr/bin/time -f "$algo p=$p: %e s wall, %U s user, %S s sys, %M kB" \
    $RSB simulate --algo $algo --dr gini --p $p --T 20000 --trials 1000 --eps 0.05 --radius-scale 0.01 \
    --format json --quiet > /dev/null
done; done

# 2. large instances refused at once (exit 2, one line)
for p in $P10 $P50; do
  /usr/bin/time -f "refusal: %e s wall" $RSB optimize --dr gini --p $p --eps 0.01 || true
done
/usr/bin/time -f "refusal: %e s wall" $RSB simulate --algo rs-ucb-m --dr gini --p $P50 --T 10^6 || true

# 3. a new distortion derived (the profile: python -m cProfile -m proofs_checks.cli derive ...)
/usr/bin/time -f "derive: %e s wall, %U s user, %S s sys" $RSB derive --h 'u**0.3*(1-u)' --p 0.4,0.9 > /dev/null

# 4. the paper-scale sweeps (wall time on 2 cores; peak memory)
/usr/bin/time -v $RSB reproduce regret-vs-K --out "${OUT:-/tmp/rsb-radius}" --quiet 2>&1 | \
  grep -E "Elapsed|User time|System time|Maximum resident"
/usr/bin/time -v $RSB reproduce all --out "${OUT:-/tmp/rsb-radius}-all" --quiet 2>&1 | \
  grep -E "Elapsed|User time|System time|Maximum resident"
