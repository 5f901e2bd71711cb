#!/bin/sh
# Reproduces the crash-recovery failure described in README.md on the datadir beside this script.
#   MARIADBD=/path/to/mariadbd ./reproduce.sh    a server binary of your own (MYSQLD= for MySQL)
#   ./reproduce.sh                               the image named in expected.env, with Docker
#   EXTRA_OPTIONS='--lc-messages-dir=BUILD/sql/share' ...   options a build of your own needs too
#   START_SECONDS=30 ./reproduce.sh              how long the server may take to answer (120)
# Exit: 1 the failure reproduced, 0 the server recovered cleanly, 2 it failed another way,
# 125 it could not run. The datadir is copied first: the bundle stays as it is.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/expected.env"
IMAGE=${IMAGE:-$EXPECT_IMAGE}
START_SECONDS=${START_SECONDS:-120}
say() { printf 'reproduce.sh: %s\n' "$*"; }
cannot() { say "cannot run: $*"; exit 125; }

binary=${MARIADBD:-${MYSQLD:-}}
work=$(mktemp -d "${TMPDIR:-/tmp}/rig-reproduce.XXXXXX") || cannot "no temporary folder"
container=""
pid=""
cleanup() {
  [ -n "$container" ] && docker rm -f "$container" >/dev/null 2>&1
  [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 125' INT TERM HUP

cp -a "$here/datadir" "$work/datadir" || cannot "copying the datadir failed"
mkdir -p "$work/run" && chmod 777 "$work/run"
set -- $(cat "$here/server-options.txt") ${EXTRA_OPTIONS:-}

if [ -n "$binary" ]; then
  [ -x "$binary" ] || cannot "$binary is not an executable server"
  user=""
  [ "$(id -u)" = 0 ] && user="--user=root"
  "$binary" --no-defaults --datadir="$work/datadir" --socket="$work/run/mysqld.sock" --pid-file="$work/run/mysqld.pid" \
    --tmpdir="$work/run" --log-error="$work/run/error.log" $user "$@" >"$work/run/stderr.log" 2>&1 &
  pid=$!
  server="$binary"
else
  command -v docker >/dev/null 2>&1 || cannot "no MARIADBD/MYSQLD given and no docker on the PATH"
  docker info >/dev/null 2>&1 || cannot "docker does not answer (start its engine, or set MARIADBD= or MYSQLD= to a server build)"
  docker image inspect "$IMAGE" >/dev/null 2>&1 || cannot "docker has no image $IMAGE (build or pull it, or set IMAGE=)"
  container=$(docker run -d --network none -v "$work/datadir:/var/lib/mysql" -v "$work/run:/run/rig" \
    --entrypoint "$EXPECT_SERVER" "$IMAGE" --no-defaults --datadir=/var/lib/mysql --socket=/run/rig/mysqld.sock \
    --pid-file=/run/rig/mysqld.pid --tmpdir=/run/rig --log-error=/run/rig/error.log --user=root "$@") || cannot "docker run failed"
  server="$IMAGE"
fi
say "starting $server on a copy of the datadir"

alive() {
  if [ -n "$container" ]; then [ "$(docker inspect -f '{{.State.Running}}' "$container" 2>/dev/null)" = true ]
  else kill -0 "$pid" 2>/dev/null; fi
}
log() { cat "$work/run/error.log" "$work/run/stderr.log" 2>/dev/null; }
# The LSN in a page's header (bytes 16-23, big-endian) of FILE in the datadir copy, page PAGE.
page_lsn() {
  set -- $(od -An -tu1 -j $(($2 * ${EXPECT_PAGE_SIZE:-16384} + 16)) -N 8 "$work/datadir/$1" 2>/dev/null)
  [ $# = 8 ] || return 1
  echo $(( ($1 << 56) | ($2 << 48) | ($3 << 40) | ($4 << 32) | ($5 << 24) | ($6 << 16) | ($7 << 8) | $8 ))
}

started=refused
waited=0
[ "$EXPECT_OUTCOME" = hangs ] && say "the rig saw this server hang: waiting up to $START_SECONDS s for it to answer (START_SECONDS=N to change)"
while [ "$waited" -lt "$START_SECONDS" ]; do
  if log | grep -q 'ready for connections'; then started=ready; break; fi
  alive || break
  sleep 1
  waited=$((waited + 1))
  [ $((waited % 30)) = 0 ] && [ "$waited" -lt "$START_SECONDS" ] && say "no answer after $waited s"
done
if [ "$started" != ready ] && alive; then started=hung; fi

client() {
  if [ -n "$container" ]; then
    c=mariadb; [ "$EXPECT_FLAVOR" = mysql ] && c=mysql
    docker exec "$container" "$c" --no-defaults -uroot -S /run/rig/mysqld.sock -N -B -e "$1"
  else
    c=${MYSQL_CLIENT:-}
    if [ -z "$c" ]; then
      for try in "$(dirname "$binary")/mariadb" "$(dirname "$binary")/../client/mariadb" "$(dirname "$binary")/mysql" \
        "$(dirname "$binary")/../client/mysql" "$(command -v mariadb)" "$(command -v mysql)"; do
        [ -n "$try" ] && [ -x "$try" ] && { c=$try; break; }
      done
    fi
    [ -n "$c" ] || return 125
    "$c" --no-defaults -uroot -S "$work/run/mysqld.sock" -N -B -e "$1"
  fi
}

saw=""
failed_tables=""
stale=""
lost=""
if [ "$started" = ready ]; then
  tables=$(client "SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '$SCHEMA' AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME" 2>&1); rc=$?
  [ "$rc" = 125 ] && cannot "no client to run CHECK TABLE with (set MYSQL_CLIENT=/path/to/mariadb or mysql)"
  [ "$rc" = 0 ] || tables=""
  for t in $tables; do
    # as the rig does: the table is fine when the last line CHECK TABLE gives is "status OK"
    client "CHECK TABLE $t" 2>&1 | awk -F'\t' '{ last = $3 "/" $4 } END { exit last == "status/OK" ? 0 : 1 }' || failed_tables="$failed_tables $t"
  done
  for pair in $LEDGER; do
    client_id=${pair%%:*}; acked=${pair#*:}
    stored=$(client "SELECT seq FROM $SCHEMA.rig_ledger WHERE client = $client_id" 2>/dev/null) || stored=""
    [ "${stored:-0}" -lt "$acked" ] && lost="$lost client $client_id: acknowledged $acked, found ${stored:-none};"
  done
  if [ -n "$container" ]; then docker stop -t 60 "$container" >/dev/null 2>&1; code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
  else kill -TERM "$pid"; wait "$pid"; code=$?; fi
  pid=""
  # the pages the rig saw brought back older than their newest version: the same LSN check on this run's datadir
  for spec in ${EXPECT_STALE_PAGES:-}; do
    file=${spec%%:*}; rest=${spec#*:}; page=${rest%%:*}; newest=${rest#*:}
    lsn=$(page_lsn "$file" "$page") || continue
    [ "$lsn" -lt "$newest" ] && stale="$stale $file page $page: LSN $lsn, older than the $newest written before the cut;"
  done
  if ! log | grep -q 'Shutdown complete'; then saw="crashed"; elif [ -n "$lost" ]; then saw="loses-commits"
  elif [ -n "$failed_tables" ] || [ -n "$stale" ]; then saw="corrupts"; else saw="recovers"; fi
  [ "$code" = 0 ] || [ "$saw" != recovers ] || saw="shutdown-crash"
else
  saw=$([ "$started" = hung ] && echo hangs || echo refuses)
fi

say "the rig saw:       $EXPECT_OUTCOME ($EXPECT_VERDICT): $EXPECT_REASON"
say "this run saw:      $saw${failed_tables:+ (CHECK TABLE failed on$failed_tables)}${lost:+ (lost commits:$lost)}${stale:+ (torn pages brought back old:$stale)}"
if [ -n "$EXPECT_LOG" ]; then
  matched=$(log | grep -E "$EXPECT_LOG" | head -3)
  say "the rig's log line: $EXPECT_LOG_TEXT"
  if [ -n "$matched" ]; then say "this run's log:    $matched"; else say "this run's log:    no such line"; fi
fi
say "the server's log is in $work/run/error.log until this script ends; set KEEP=1 to keep it"
[ "${KEEP:-}" = 1 ] && { cp "$work/run/error.log" "$here/last-run-error.log" 2>/dev/null && say "kept as last-run-error.log"; }

if [ "$saw" = recovers ]; then say "recovered cleanly: the failure did not reproduce"; exit 0; fi
if [ "$saw" = "$EXPECT_OUTCOME" ] && { [ -z "$EXPECT_LOG" ] || log | grep -Eq "$EXPECT_LOG"; }; then
  say "REPRODUCED"; exit 1
fi
say "failed another way than the rig saw"
exit 2
