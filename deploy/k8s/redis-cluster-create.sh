#!/bin/sh
# Creates the event store's Redis Cluster with the slot layout that spreads the shards evenly over the masters
# (`taproom shards layout --shards N --masters M --plain` prints RANGES; services/infrastructure/eventstore/slots.py
# says why `redis-cli --cluster create`'s equal ranges do not). Does nothing when the cluster stands already.
#   redis-cluster-create.sh "ip:port ip:port ..." "first-last first-last ..."
# The first M addresses become masters (M = the number of ranges), the next M their replicas, in order.
set -eu
NODES=$1
RANGES=$2
set -- $NODES
first=$1
host() { echo "${1%:*}"; }
port() { echo "${1##*:}"; }
cli() { node=$1; shift; redis-cli -h "$(host "$node")" -p "$(port "$node")" "$@"; }

if cli "$first" cluster info | grep -q cluster_state:ok; then
  echo "cluster already created"; exit 0
fi
masters=$(echo $RANGES | wc -w)
total=$#
[ "$total" -eq $((masters * 2)) ] || { echo "need $((masters * 2)) nodes for $masters masters with a replica each" >&2; exit 1; }
for node in "$@"; do
  cli "$node" ping | grep -q PONG
  cli "$first" cluster meet "$(host "$node")" "$(port "$node")" >/dev/null
done
i=0
for range in $RANGES; do
  i=$((i + 1))
  eval "node=\${$i}"
  cli "$node" cluster addslotsrange "${range%-*}" "${range#*-}" >/dev/null
done
i=0
while [ "$i" -lt "$masters" ]; do
  i=$((i + 1))
  eval "master=\${$i}"
  eval "replica=\${$((i + masters))}"
  id=$(cli "$master" cluster myid)
  tries=0
  until cli "$replica" cluster replicate "$id" 2>/dev/null | grep -q OK; do  # until the replica has met it
    tries=$((tries + 1)); [ "$tries" -lt 60 ] || { echo "$replica never learned of $master" >&2; exit 1; }
    sleep 1
  done
done
tries=0
until cli "$first" cluster info | grep -q cluster_state:ok; do
  tries=$((tries + 1)); [ "$tries" -lt 60 ] || { echo "the cluster did not come up" >&2; exit 1; }
  sleep 1
done
# Until every replica holds its master's data: appends wait for a replica (WAIT), and a replica that never
# finished its first sync can never take its master's place (its data is too old to be promoted).
i=0
while [ "$i" -lt "$masters" ]; do
  i=$((i + 1))
  eval "replica=\${$((i + masters))}"
  tries=0
  until cli "$replica" info replication | grep -q master_link_status:up; do
    tries=$((tries + 1)); [ "$tries" -lt 120 ] || { echo "$replica did not finish its first sync" >&2; exit 1; }
    sleep 1
  done
done
echo "cluster created: $masters masters ($RANGES), $masters replicas"
