#!/usr/bin/env bash
# Runs a command against a throwaway S3 server (Ceph's radosgw from Debian, on a one-node Ceph cluster held in memory),
# with STORAGE_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION exported:
#   bash scripts/with-s3.sh node scripts/run-tests.mjs test/server 'stores' --jobs 1
# One monitor, one OSD on memstore (nothing written to disk but logs), radosgw's beast frontend; everything lives in a
# temp dir, listens on free ports of 127.0.0.1, and is stopped and removed on exit. Why radosgw: docs/STORAGE.md.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage : bash scripts/with-s3.sh <commande…>" >&2
  exit 2
fi

for tool in ceph ceph-mon ceph-osd radosgw radosgw-admin monmaptool; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Ceph est introuvable ($tool manque) : installez les paquets Debian « radosgw ceph-mon ceph-osd ceph-common »." >&2
    exit 1
  fi
done

start=$(date +%s%N)
dir=$(mktemp -d "${TMPDIR:-/tmp}/portail-s3.XXXXXX")
mkdir -p "$dir/run" "$dir/log" "$dir/mon" "$dir/osd" "$dir/rgw"

# Each daemon writes its pid file in $dir/run: stopped by those pids only, never by name.
cleanup() {
  local pidfile pid
  for pidfile in "$dir"/run/*.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile" 2>/dev/null || true)
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "[with-s3] $1" >&2
  local log
  for log in "$dir"/log/*; do
    [ -f "$log" ] || continue
    echo "----- $(basename "$log") (fin) -----" >&2
    tail -n 15 "$log" >&2
  done
  exit 1
}

free_port() { node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"; }
mon_port=$(free_port)
rgw_port=$(free_port)
fsid=$(cat /proc/sys/kernel/random/uuid)
conf="$dir/ceph.conf"

# auth none: a throwaway cluster reachable from this machine only. memstore: the OSD's objects in memory (no disk
# to prepare, nothing to fsync). Pools of one replica and few placement groups: one OSD.
cat >"$conf" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
run dir = $dir/run
admin socket = $dir/run/\$name.asok
pid file = $dir/run/\$name.pid
log file = $dir/log/\$name.log
log to stderr = false
err to stderr = true
mon cluster log file = $dir/log/cluster.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
osd crush chooseleaf type = 0
# The monitor stops at 5 % of free disk by default: a test machine's /tmp may be fuller than that.
mon data avail warn = 1
mon data avail crit = 0
# Each pool radosgw creates is a new OSD map, proposed once a second by default: 10 ms apart here.
paxos propose interval = 0.01
paxos min wait = 0.01

[mon]
mon data = $dir/mon/\$cluster-\$id

[osd]
osd data = $dir/osd/\$cluster-\$id
osd objectstore = memstore
memstore device bytes = 2147483648
osd op num shards = 1
osd op num threads per shard = 2

[client.rgw]
# radosgw asks for a secure (cephx) link to the monitor by default: there is no cephx here.
ms mon client mode = crc
rgw data = $dir/rgw
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw dns name = 127.0.0.1
CONF

daemon() {
  # In the foreground (-f) as children of this script: their pids are ours to stop, and their output goes to the log dir.
  local name=$1
  shift
  "$@" -f >"$dir/log/$name.out" 2>&1 &
  echo $! >"$dir/run/$name.pid"
  disown $!
}

# wait_for SECONDS MESSAGE COMMAND…: polls COMMAND every 0.1 s until it succeeds.
wait_for() {
  local limit=$(($1 * 10)) message=$2 tries=0
  shift 2
  until "$@" >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -lt "$limit" ] || fail "$message"
    sleep 0.1
  done
}

ceph_cli() { timeout 20 ceph -c "$conf" "$@"; }

monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$dir/monmap" >"$dir/log/monmaptool.log" 2>&1 \
  || fail "monmaptool a échoué."
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >"$dir/log/mon-mkfs.log" 2>&1 || fail "ceph-mon --mkfs a échoué."
daemon mon ceph-mon -c "$conf" -i a

osd_uuid=$(cat /proc/sys/kernel/random/uuid)
osd_id=$(ceph_cli osd new "$osd_uuid" 2>>"$dir/log/ceph-cli.log") || fail "ceph osd new a échoué : le moniteur ne répond pas."
mkdir -p "$dir/osd/ceph-$osd_id"
ceph-osd -c "$conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" >"$dir/log/osd-mkfs.log" 2>&1 || fail "ceph-osd --mkfs a échoué."
daemon osd ceph-osd -c "$conf" -i "$osd_id"
osd_up() { ceph_cli osd dump 2>/dev/null | grep -q "^osd\.$osd_id up "; }
wait_for 60 "l’OSD Ceph n’est pas monté en 60 s." osd_up

# radosgw creates its pools itself, then serves.
daemon rgw radosgw -c "$conf" -n client.rgw
wait_for 60 "radosgw ne répond pas sur 127.0.0.1:$rgw_port après 60 s." curl -sf -o /dev/null "http://127.0.0.1:$rgw_port/"

# Fixed test keys: a throwaway server on 127.0.0.1.
access_key=portail-test-access
secret_key=portail-test-secret
bucket=portail-test
region=us-east-1
radosgw-admin -c "$conf" -n client.rgw user create --uid=portail --display-name=portail \
  --access-key="$access_key" --secret-key="$secret_key" >"$dir/log/user-create.log" 2>&1 || fail "radosgw-admin user create a échoué."
# SigV4 with curl: radosgw wants the payload's hash among the signed headers (here the empty body's).
empty_sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
curl -sS -f -X PUT -H "x-amz-content-sha256: $empty_sha256" --aws-sigv4 "aws:amz:$region:s3" --user "$access_key:$secret_key" \
  "http://127.0.0.1:$rgw_port/$bucket" >"$dir/log/bucket.log" 2>&1 || fail "la création du bucket $bucket a échoué."

export AWS_ACCESS_KEY_ID=$access_key AWS_SECRET_ACCESS_KEY=$secret_key AWS_REGION=$region
# The SDK warns once per process that its releases after January 2027 need Node 22 (docs/STORAGE.md): not in test logs.
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
export STORAGE_URL="s3://$bucket?endpoint=http://127.0.0.1:$rgw_port&region=$region&forcePathStyle=true"
printf '[with-s3] radosgw %s sur 127.0.0.1:%s (bucket %s), prêt en %d ms\n' "$(radosgw --version | awk '{print $3}')" \
  "$rgw_port" "$bucket" "$(( ($(date +%s%N) - start) / 1000000 ))" >&2

# The command runs as a child that this script waits for, so that a TERM stops the cluster at once (its stdin is
# /dev/null, as for any command started in the background of a script).
"$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 130' INT TERM
set +e
wait "$child"
status=$?
set -e
exit "$status"
