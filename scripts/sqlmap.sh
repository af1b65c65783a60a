#!/usr/bin/env bash
# sqlmap against the authenticated API (docs/security.md; OWASP ASVS V1.2.4/V1.2.5 injection). Not part of `npm test`
# (it takes ~5-10 minutes); results of the last recorded run are in docs/sqlmap-results.md.
#
# Usage:   scripts/sqlmap.sh                 start the API on a fresh embedded database (scripts/sqlmap-server.ts,
#                                            demo clinic seeded, sign-in rate limit raised) on SQLMAP_PORT, attack it,
#                                            stop it and delete its data
#          BASE_URL=http://host:port scripts/sqlmap.sh    attack an API that is already running (demo accounts
#                                            needed; its sign-in rate limit may answer 429s: use a throw-away one)
# Needs:   sqlmap (Debian: apt-get install -y sqlmap), curl, jq; npx tsx (devDependencies) when it starts the API.
# Env:     SQLMAP_PORT (5083), SQLMAP_LEVEL (5), SQLMAP_RISK (3), SQLMAP_OUT (a new /tmp/sqlmap-* directory),
#          SQLMAP_ONLY (a regular expression: attack only the targets whose name matches, e.g. 'sign-in|guest').
#
# What it does: signs in as admin and as patient through both sign-in steps (session cookie + CSRF header, as the
# browser does), then runs sqlmap with --dbms=PostgreSQL at level 5 / risk 3 on the input parameters of the lists
# and search (GET query parameters), ids in paths (URI injection points) and a few JSON bodies (POST/PATCH; JSON
# keys are sqlmap's "(custom) POST parameter 'JSON x'"), plus the public sign-in and the guest statement lookup. Each
# target's log is kept in $SQLMAP_OUT/logs. The script exits 1 if sqlmap reports any injectable parameter, and
# also if a target did not get tested (no "does not seem to be injectable" verdict for a parameter: sign-in
# expired, server down, 401) so that a run that tested nothing cannot pass.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${SQLMAP_PORT:-5083}"
LEVEL="${SQLMAP_LEVEL:-5}"
RISK="${SQLMAP_RISK:-3}"
OUT="${SQLMAP_OUT:-$(mktemp -d /tmp/sqlmap-XXXXXX)}"
mkdir -p "$OUT/logs"
export TERM=dumb

for tool in sqlmap curl jq; do
  command -v "$tool" >/dev/null || { echo "sqlmap.sh: $tool is not installed" >&2; exit 2; }
done

SERVER_PID=""
DATA_DIR=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  if [ -n "$DATA_DIR" ]; then rm -rf "$DATA_DIR"; fi
}
trap cleanup EXIT

if [ -z "${BASE_URL:-}" ]; then
  BASE_URL="http://127.0.0.1:$PORT"
  DATA_DIR="$(mktemp -d /tmp/sqlmap-data-XXXXXX)"
  echo "starting the API on $BASE_URL (database in $DATA_DIR)"
  DATA_DIR="$DATA_DIR" PORT="$PORT" node node_modules/tsx/dist/cli.mjs scripts/sqlmap-server.ts >"$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 180); do
    curl -fs "$BASE_URL/api/health" >/dev/null 2>&1 && break
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "the API did not start:" >&2; cat "$OUT/server.log" >&2; exit 2; }
    sleep 1
  done
fi
curl -fs "$BASE_URL/api/health" >/dev/null || { echo "no API answering on $BASE_URL" >&2; exit 2; }

# sign_in EMAIL PASSWORD -> prints "SESSION_ID CSRF_TOKEN"
sign_in() {
  local login challenge code headers body sid
  login=$(curl -fs -H 'content-type: application/json' \
    -d "$(jq -nc --arg e "$1" --arg p "$2" '{email:$e,password:$p}')" "$BASE_URL/api/auth/login")
  challenge=$(jq -r .challengeId <<<"$login")
  code=$(jq -r .demoCode <<<"$login")
  headers=$(mktemp)
  body=$(curl -fs -D "$headers" -H 'content-type: application/json' \
    -d "$(jq -nc --arg c "$challenge" --arg d "$code" '{challengeId:$c,code:$d}')" "$BASE_URL/api/auth/mfa")
  sid=$(grep -i '^set-cookie: sid=' "$headers" | sed -E 's/^[Ss]et-[Cc]ookie: sid=([^;]*);.*/\1/' | tr -d '\r')
  rm -f "$headers"
  [ -n "$sid" ] || { echo "sign-in as $1 failed" >&2; exit 2; }
  echo "$sid $(jq -r .csrfToken <<<"$body")"
}
read -r ADMIN_SID ADMIN_CSRF <<<"$(sign_in admin@healthcare.demo admin)"
read -r PATIENT_SID PATIENT_CSRF <<<"$(sign_in patient@healthcare.demo patient)"
read -r GUEST_SID GUEST_CSRF <<<"$(sign_in guest@healthcare.demo guest)"

TODAY=$(date +%F)
COMMON=(--batch --disable-coloring --dbms=PostgreSQL --level="$LEVEL" --risk="$RISK" --flush-session
  --output-dir="$OUT/sqlmap")
FAILED=0
SUMMARY=()

# attack NAME AS(admin|patient|guest|public) EXPECTED_PARAMETER_COUNT SQLMAP_ARGS...
attack() {
  local name=$1 as=$2 expected=$3
  shift 3
  if [ -n "${SQLMAP_ONLY:-}" ] && ! [[ "$name" =~ $SQLMAP_ONLY ]]; then return 0; fi
  local auth=()
  case "$as" in
    admin) auth=(--cookie="sid=$ADMIN_SID" --headers="X-CSRF-Token: $ADMIN_CSRF") ;;
    patient) auth=(--cookie="sid=$PATIENT_SID" --headers="X-CSRF-Token: $PATIENT_CSRF") ;;
    guest) auth=(--cookie="sid=$GUEST_SID" --headers="X-CSRF-Token: $GUEST_CSRF") ;;
  esac
  local log="$OUT/logs/$name.log"
  echo "== $name ($as)"
  sqlmap "${COMMON[@]}" "${auth[@]}" "$@" >"$log" 2>&1 || true
  local found tested
  # Positive verdicts only: "might not be injectable", "does not seem to be injectable" are the negative ones.
  found=$(grep -Ei "is vulnerable|identified the following injection point|appears to be '.*' injectable|parameter '.*' is '.*' injectable" "$log" || true)
  tested=$(grep -Eo "parameter '[^']*' does not seem to be injectable" "$log" | sed -E "s/ does not seem to be injectable//" | sort -u || true)
  local count
  count=$(grep -c . <<<"$tested" || true)
  if [ -n "$found" ]; then
    echo "   INJECTABLE:"; echo "$found" | sed 's/^/   /'
    FAILED=1
    SUMMARY+=("$name: INJECTABLE")
  elif [ "$count" -lt "$expected" ]; then
    echo "   only $count of $expected parameters were tested; see $log"; grep -E "CRITICAL|ERROR" "$log" | sed 's/^/   /' || true
    FAILED=1
    SUMMARY+=("$name: NOT TESTED ($count of $expected)")
  else
    echo "$tested" | sed 's/^/   not injectable: /'
    SUMMARY+=("$name: $count parameters, none injectable")
  fi
}

# sqlmap tests cookies and the User-Agent/Referer/Host headers at levels 2-5: -p (or --skip where the injection
# point is a '*' in the path) keeps it on the API's inputs; testing the session cookie would only sign it out.
SKIP_HEADERS=(--skip="sid,User-Agent,Referer,Host")
A="$BASE_URL/api"

attack patients-list admin 5 -u "$A/patients?search=ann&sort=name&dir=asc&limit=50&offset=0" -p "search,sort,dir,limit,offset"
attack patients-names admin 2 -u "$A/patients/names?search=an&limit=20" -p "search,limit"
attack patient-detail admin 1 -u "$A/patients/1*" "${SKIP_HEADERS[@]}"
attack global-search admin 1 -u "$A/search?q=ann" -p "q"
attack claims-list admin 5 -u "$A/claims?search=a&reason=&sort=serviceDate&dir=desc&limit=50" -p "search,reason,sort,dir,limit"
attack claims-export admin 2 -u "$A/claims/export?search=a&sort=serviceDate" -p "search,sort"
attack authorizations-list admin 3 -u "$A/authorizations?search=a&sort=ageDays&dir=asc" -p "search,sort,dir"
attack appointments-day admin 2 -u "$A/appointments?date=$TODAY&limit=50" -p "date,limit"
attack billing-patients admin 1 -u "$A/billing/patients?search=a" -p "search"
attack billing-statement admin 1 -u "$A/billing/statements/1*" "${SKIP_HEADERS[@]}"
attack worklist admin 3 -u "$A/worklist/overdue-followups?provider=Dr&sort=priority&dir=asc" -p "provider,sort,dir"
attack audit-list admin 4 -u "$A/audit?actor=admin&action=auth.login.success&from=2026-01-01&to=2026-12-31" -p "actor,action,from,to"
attack patients-create admin 5 -u "$A/patients" \
  --data='{"name":"Sql Map","dob":"1980-01-01","phone":"555-0100","mrn":"SQLMAP-1","notes":"note"}' \
  --headers="X-CSRF-Token: $ADMIN_CSRF
Content-Type: application/json" -p "name,dob,phone,mrn,notes"
attack appointment-reschedule admin 2 -u "$A/appointments/1" --method=PATCH \
  --data='{"date":"2026-12-01","time":"10:00"}' \
  --headers="X-CSRF-Token: $ADMIN_CSRF
Content-Type: application/json" -p "date,time"
attack worklist-export admin 1 -u "$A/worklist/overdue-followups/exports" --data='{"provider":"Dr"}' \
  --headers="X-CSRF-Token: $ADMIN_CSRF
Content-Type: application/json" -p "provider"
attack portal-payment patient 1 -u "$A/portal/payments" --data='{"amountCents":100}' \
  --headers="X-CSRF-Token: $PATIENT_CSRF
Content-Type: application/json" -p "amountCents"
# The refusals these answer (401 wrong password, 404 no such statement) are their normal answers: sqlmap would
# otherwise stop at the first one.
attack sign-in public 2 -u "$A/auth/login" --data='{"email":"nobody@example.com","password":"x"}' \
  --headers="Content-Type: application/json" --ignore-code=401 -p "email,password"
attack guest-statement guest 2 -u "$A/guest/statement" --data='{"accountNumber":"ACC-1","dob":"1980-01-01"}' \
  --headers="X-CSRF-Token: $GUEST_CSRF
Content-Type: application/json" --ignore-code=404 -p "accountNumber,dob"

echo
echo "sqlmap ${LEVEL}/${RISK} (level/risk) against $BASE_URL; logs in $OUT/logs"
printf '  %s\n' "${SUMMARY[@]}"
if [ "$FAILED" -ne 0 ]; then
  echo "FAILED: an injectable parameter, or a target that was not tested" >&2
  exit 1
fi
echo "no injectable parameter found"
