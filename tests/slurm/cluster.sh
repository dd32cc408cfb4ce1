#!/bin/bash
# shellcheck disable=SC2086  # lists of process ids are split on purpose
# A single-node Slurm of its own (munged, slurmctld, slurmd) for the tests, in a temporary folder,
# started without systemd. Sourced by tests/slurm/test_slurm_real.sh:
#   . cluster.sh; cluster_start DIR; ...; cluster_stop
# cluster_start writes DIR/slurm.conf (free ports of its own, state and logs under DIR), exports
# SLURM_CONF and waits until the node (6 CPUs, whatever the machine has) is idle. cluster_stop cancels every job, then ends the
# daemons and any process still carrying this SLURM_CONF (job steps, their programs) by process
# id, waits for them and reports any left. Both are safe to call twice; nothing outside DIR is
# touched.

# cluster_free_port: a TCP port nobody listens on or uses (random, 20000..59999; read from
# /proc/net/tcp*, so no ss or netstat is needed).
cluster_free_port() {
  local p i hex
  for i in $(seq 50); do
    p=$((20000 + RANDOM % 40000))
    hex=$(printf ':%04X ' "$p")
    if ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '{print $2 " "}' | grep -qF "$hex"; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# cluster_pids: the process ids of the processes of this cluster: its daemons, the job steps and
# every process started from them (each has SLURM_CONF=$CLUSTER_DIR/slurm.conf in its
# environment), except this shell and its ancestors.
cluster_pids() {
  local f pid self=$$ conf="SLURM_CONF=$CLUSTER_DIR/slurm.conf"
  local keep=" $self $BASHPID "
  local p=$self
  while [ "$p" -gt 1 ] 2>/dev/null; do
    keep+="$p "
    p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null) || break
    [ -n "$p" ] || break
  done
  for f in /proc/[0-9]*/environ; do
    pid=${f#/proc/}; pid=${pid%/environ}
    case "$keep" in *" $pid "*) continue ;; esac
    if { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qxF "$conf"; then
      echo "$pid"
    fi
  done
  for f in "$CLUSTER_DIR"/munged.pid "$CLUSTER_DIR"/ctld.pid "$CLUSTER_DIR"/d.pid; do
    [ -s "$f" ] && cat "$f"
  done
  # shellcheck disable=SC2086  # a list of process ids
  printf '%s\n' ${CLUSTER_BG_PIDS:-}
}

cluster_log() { echo "cluster: $*" >&2; }

# cluster_start DIR: 0 once the node is idle, 1 (with the daemons' logs shown) otherwise.
cluster_start() {
  CLUSTER_DIR=$1
  CLUSTER_BG_PIDS=
  CLUSTER_STOPPED=
  local host ctld_port d_port first_job i t
  for t in munged slurmctld slurmd sbatch scontrol sinfo squeue scancel srun; do
    if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$t" ]; then
      cluster_log "$t is not installed: install the Debian packages slurmctld slurmd slurm-client munge (scripts/packages.txt)"
      return 1
    fi
  done
  export PATH="$PATH:/usr/sbin"
  host=$(hostname -s 2>/dev/null || hostname)
  mkdir -p "$CLUSTER_DIR/munge" "$CLUSTER_DIR/ctld" "$CLUSTER_DIR/d" "$CLUSTER_DIR/tmp" || return 1
  # munged checks every folder above its socket: each must be searchable by all.
  chmod 755 "$CLUSTER_DIR"
  chmod 755 "$CLUSTER_DIR/munge"
  # munged wants a key only its user can read, in a folder nobody else may write.
  dd if=/dev/urandom of="$CLUSTER_DIR/munge.key" bs=1 count=1024 2>/dev/null || return 1
  chmod 400 "$CLUSTER_DIR/munge.key"
  if ! ctld_port=$(cluster_free_port) || ! d_port=$(cluster_free_port); then
    cluster_log "no free TCP port"
    return 1
  fi
  while [ "$d_port" = "$ctld_port" ]; do d_port=$(cluster_free_port); done
  # Job ids of its own too: a few names outside the folder are made of them (PMIx's
  # spmix_appdir_UID_JOB.STEP, under TmpFS here), and two clusters may run side by side.
  first_job=$((1000 + (RANDOM % 30000) * 100))
  cat >"$CLUSTER_DIR/slurm.conf" <<CONF
ClusterName=xqlabtest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$CLUSTER_DIR/munge/munge.socket.2
CredType=cred/munge
StateSaveLocation=$CLUSTER_DIR/ctld
SlurmdSpoolDir=$CLUSTER_DIR/d
SlurmctldPidFile=$CLUSTER_DIR/ctld.pid
SlurmdPidFile=$CLUSTER_DIR/d.pid
SlurmctldLogFile=$CLUSTER_DIR/ctld.log
SlurmdLogFile=$CLUSTER_DIR/d.log
SlurmdParameters=config_overrides
TmpFS=$CLUSTER_DIR/tmp
FirstJobId=$first_job
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=6 RealMemory=4000 State=UNKNOWN
PartitionName=debug Default=YES Nodes=ALL MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$CLUSTER_DIR/slurm.conf"
  munged -F --key-file="$CLUSTER_DIR/munge.key" --socket="$CLUSTER_DIR/munge/munge.socket.2" \
    --pid-file="$CLUSTER_DIR/munged.pid" --log-file="$CLUSTER_DIR/munged.log" \
    --seed-file="$CLUSTER_DIR/munged.seed" </dev/null >"$CLUSTER_DIR/munged.out" 2>&1 &
  CLUSTER_BG_PIDS+=" $!"
  for i in $(seq 100); do
    [ -S "$CLUSTER_DIR/munge/munge.socket.2" ] && break
    kill -0 $! 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -S "$CLUSTER_DIR/munge/munge.socket.2" ]; then
    cluster_log "munged did not start:"; cat "$CLUSTER_DIR/munged.out" "$CLUSTER_DIR/munged.log" >&2 2>/dev/null
    return 1
  fi
  slurmctld -D -f "$SLURM_CONF" </dev/null >"$CLUSTER_DIR/ctld.out" 2>&1 &
  CLUSTER_BG_PIDS+=" $!"
  slurmd -D -f "$SLURM_CONF" </dev/null >"$CLUSTER_DIR/d.out" 2>&1 &
  CLUSTER_BG_PIDS+=" $!"
  for i in $(seq 300); do
    if [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]; then
      cluster_log "up after $((i / 10)).$((i % 10)) s: $(sinfo -h -N -o '%N %t %c CPUs' 2>&1)"
      return 0
    fi
    sleep 0.1
  done
  cluster_log "the node is not idle after 30 s: $(sinfo -N 2>&1)"
  tail -n 20 "$CLUSTER_DIR"/ctld.log "$CLUSTER_DIR"/d.log "$CLUSTER_DIR"/ctld.out "$CLUSTER_DIR"/d.out >&2 2>/dev/null
  return 1
}

# cluster_stop: 0 if every process of the cluster has ended.
cluster_stop() {
  [ -n "${CLUSTER_DIR:-}" ] && [ -e "$CLUSTER_DIR/slurm.conf" ] || return 0
  [ -z "${CLUSTER_STOPPED:-}" ] || return 0
  CLUSTER_STOPPED=1
  local pids left i p
  timeout 10 scancel --quiet --user="$(id -un)" 2>/dev/null
  pids=$(cluster_pids | sort -u)
  # shellcheck disable=SC2086  # lists of process ids, split on purpose
  [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
  for i in $(seq 100); do
    left=$(for p in $pids; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
    [ -n "$left" ] || break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    kill -KILL $left 2>/dev/null
    sleep 0.2
  fi
  # Anything started meanwhile (a step launched during the stop).
  left=$(cluster_pids | sort -u | while read -r p; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
  if [ -n "$left" ]; then
    kill -KILL $left 2>/dev/null
    sleep 0.2
    left=$(for p in $left; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
  fi
  for p in ${CLUSTER_BG_PIDS:-}; do wait "$p" 2>/dev/null; done
  if [ -n "$left" ]; then
    cluster_log "processes left running: $left"
    return 1
  fi
  return 0
}
