#!/bin/bash
# Queue the job array of shards and, after it, the merge: afterok waits for every task of the
# array and runs the merge only if all of them succeeded.
set -euo pipefail
mkdir -p logs
array=$(sbatch --parsable grade-shards.sbatch)
sbatch --dependency="afterok:${array%%;*}" merge.sbatch
