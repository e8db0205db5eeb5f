# The kiosk soak of issue 19 (R8) as CI runs it: 5 minutes of the kiosk preview's looping tour
# (bench/kiosk-soak.ts, with its network cut and server restart halfway), in the background
# beside the PostgreSQL stage so it adds little to CI's time. Sourced by .ci/run, which fails
# when the soak misses a goal (heap growth after the first tour over 25 %, uncaught errors, a scene that
# did not come back) or breaks. Needs the production build (`npm test` makes it).
#
# CI_SOAK_MINUTES (default 5) and CI_SOAK_PORT (default 4414) let a second run share a machine.

kiosk_soak_pid=""
kiosk_soak_data=""
kiosk_soak_log=.tmp/reports/kiosk-soak.log

# Starts the soak (node itself, so the pid is the soak's: stopped, it stops its server and browser).
kiosk_soak_start() {
  mkdir -p .tmp/reports
  kiosk_soak_data=$(mktemp -d)
  # 5 minutes are mostly V8's warm-up (+3 to +9 % heap, flat afterwards in the 60-minute run):
  # CI bounds the heap at 25 %, which a leak of scenes or buffers still crosses; R8's 5 % is the
  # hour-long bench's (bench/kiosk-soak.ts, bench/results/kiosk-soak.json)
  SOAK_MINUTES="${CI_SOAK_MINUTES:-5}" SOAK_PORT="${CI_SOAK_PORT:-4414}" SOAK_HEAP_LIMIT_PERCENT=25 \
    SOAK_DATA_DIR="$kiosk_soak_data" SOAK_OUT=.tmp/reports/kiosk-soak.json \
    node --import tsx bench/kiosk-soak.ts >"$kiosk_soak_log" 2>&1 &
  kiosk_soak_pid=$!
  echo "   kiosk soak started (pid $kiosk_soak_pid, log $kiosk_soak_log)"
}

# Waits for the soak, prints its log and answers its exit status (0: every goal met).
kiosk_soak_wait() {
  local status=0
  wait "$kiosk_soak_pid" || status=$?
  kiosk_soak_pid=""
  cat "$kiosk_soak_log"
  rm -rf "$kiosk_soak_data"
  return "$status"
}

# Stops a soak still running (CI ended early, e.g. a failed stage); on SIGTERM the soak stops the
# product server and the browser it started.
kiosk_soak_stop() {
  [ -n "$kiosk_soak_pid" ] || return 0
  kill -TERM "$kiosk_soak_pid" 2>/dev/null || true
  wait "$kiosk_soak_pid" 2>/dev/null || true
  kiosk_soak_pid=""
  rm -rf "$kiosk_soak_data"
}
