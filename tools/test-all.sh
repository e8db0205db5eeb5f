#!/usr/bin/env bash
# `npm test`: every check a change must pass, in the order that fails fastest.
# Prints one closing line "N passed, M failed" summed over vitest and Playwright.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/reports
rm -f .tmp/reports/*.json

bash tools/ensure-chromium.sh || exit 1

status=0
failed_steps=()
step() {
  local name="$1"
  echo "── $name"
  shift
  "$@" || { status=1; failed_steps+=("$name"); }
}
# the production build runs beside lint and typecheck (tsc keeps one core busy, the build the
# other) and is done before vitest starts: the offline-viewer tests and Playwright use this one
# build instead of making their own, and no test reads a half-written dist/
build_log=.tmp/reports/build.log
npm run --silent build >"$build_log" 2>&1 &
build_pid=$!
step "lint" npm run --silent lint
step "typecheck" npm run --silent typecheck
echo "── build the web app (beside lint and typecheck)"
build_status=0
wait "$build_pid" || build_status=$?
cat "$build_log"
[ "$build_status" -eq 0 ] || { status=1; failed_steps+=("build the web app"); }
step "unit, server, dom and browser tests (vitest)" \
  env VITEST_OUTCOMES=.tmp/reports/vitest.outcomes.json \
  npx vitest run --project node --project dom --project browser \
  --reporter=default --reporter=json --reporter=./tools/vitest-outcome-reporter.ts \
  --outputFile=.tmp/reports/vitest.json
step "fuzz of every /web/ route, alone (vitest)" \
  env VITEST_OUTCOMES=.tmp/reports/fuzz.outcomes.json \
  npx vitest run --project fuzz --reporter=default --reporter=json \
  --reporter=./tools/vitest-outcome-reporter.ts --outputFile=.tmp/reports/fuzz.json
step "end-to-end (Playwright, production build, real server)" \
  env PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/reports/e2e.json npx playwright test --reporter=list,json

reports=(.tmp/reports/vitest.json .tmp/reports/fuzz.json .tmp/reports/e2e.json)
# issue 22: with a PostgreSQL to run on (.ci/run sets E2E_DATABASE_URL), a subset of the flows
# again through two server processes behind the alternating proxy: sign-in and sessions, sign-up
# (SMS codes), guests, the language cookie, projects, templates, live IoT, conversions, structure
# jobs and orders: the flows whose state two processes must share (~2 minutes a process on the
# last quiet CI run before guest, language, sign-up and templates joined; those four took about
# 6 minutes more through two processes at load average 15; the whole e2e suite twice would add
# ~12)
two_process_specs=(sign-in-redirect session-timeout sign-up guest language projects templates
  announcements building-iot convert model-config orders)
if [ -n "${E2E_DATABASE_URL:-}" ]; then
  step "end-to-end through two server processes on PostgreSQL (Playwright, a subset)" \
    env PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/reports/e2e-two-processes.json \
    npx playwright test -c playwright.two-processes.config.ts --reporter=list,json \
    "${two_process_specs[@]/#/e2e/}"
  reports+=(.tmp/reports/e2e-two-processes.json)
fi

node tools/summarise-tests.mjs "${reports[@]}" || status=1
# last, so a CI log cut to its tail still names a failed lint or typecheck (session 15 was lost
# to a formatting error that scrolled away behind the build and Playwright output)
for name in "${failed_steps[@]}"; do echo "✘ step failed: $name" >&2; done
exit $status
