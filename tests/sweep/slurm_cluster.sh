#!/usr/bin/env bash
# A single-node Slurm cluster of its own on 127.0.0.1 for one command (the Slurm
# executor's test, tests/sweep/test_sweep.py slurm):
#
#   slurm_cluster.sh COMMAND [ARG ...]
#
# Generates slurm.conf in a temporary directory (auth/none and cred/none: no munge;
# unprivileged ports found free; its own state, spool, log and pid files), starts
# slurmctld and slurmd in the foreground (-D) in the background of this script, waits
# until the node is idle, runs COMMAND with SLURM_CONF pointing at that slurm.conf,
# and stops both daemons by their process ids on exit, whatever happens. It reads no
# /etc/slurm and talks to no other Slurm. The packages come from scripts/setup.
set -euo pipefail

for b in slurmctld slurmd sinfo sbatch squeue; do
  command -v "$b" >/dev/null || { echo "slurm_cluster: $b missing (scripts/setup installs slurmctld slurmd slurm-client)"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tpfemu-slurm.XXXXXX")
pids=()
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  # this cluster's jobs only (SLURM_CONF is ours), then the two daemons by their pids
  if [ -f "$tmp/slurm.conf" ]; then
    SLURM_CONF=$tmp/slurm.conf timeout 5 scancel --quiet --user="$(id -un)" 2>/dev/null || true
  fi
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
user=$(id -un)
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" <<EOF
ClusterName=tpfemutest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
MinJobAge=2
NodeName=tpfemu-node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=2 State=UNKNOWN
PartitionName=tpfemu Nodes=tpfemu-node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 & pids+=($!)
slurmd -D -f "$SLURM_CONF" -N tpfemu-node >"$tmp/slurmd.out" 2>&1 & pids+=($!)
for _ in $(seq 1 150); do
  state=$(sinfo -h -n tpfemu-node -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  for p in "${pids[@]}"; do
    kill -0 "$p" 2>/dev/null || { echo "slurm_cluster: a daemon exited:"; cat "$tmp"/*.out "$tmp"/*.log 2>/dev/null | tail -30; exit 1; }
  done
  sleep 0.2
done
if [ "$state" != idle ]; then
  echo "slurm_cluster: the node is not idle ($state) after 30 s:"; tail -20 "$tmp"/*.log; exit 1
fi
status=0
"$@" || status=$?
[ "$status" -eq 0 ] || { echo "slurm_cluster: logs:"; tail -20 "$tmp"/*.log; }
exit "$status"
