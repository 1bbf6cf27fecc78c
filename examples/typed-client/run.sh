#!/usr/bin/env bash
# Proves the typed client: generates TypeScript types from the OpenAPI document (the same command
# the README gives partners), type-checks main.ts against them, starts the service on the embedded
# database with a fresh demo application and runs main.ts against it.
# Needs `npm run openapi:write` first (dist/openapi.json, what GET /docs-json serves).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=examples/typed-client
npx openapi-typescript dist/openapi.json --default-non-nullable false -o "$here/wallet-api.d.ts"
# A free-form object documented without its value type is `Record<string, never>`: no client could
# send a key of it. Only the type aliases openapi-typescript always writes and the body of a POST
# that takes no fields (`"application/json": Record<string, never>`) may have that type.
if grep -n 'Record<string, never>' "$here/wallet-api.d.ts" | grep -v -e '"application/json": Record<string, never>;' -e 'export type webhooks' -e 'export type \$defs'; then
  echo "free-form objects without a value type in the OpenAPI document (see src/common/http/openapi-truth.ts)" >&2
  exit 1
fi
npx tsc -p "$here/tsconfig.json"

data_dir=$(mktemp -d)
# A free port unless TYPED_CLIENT_PORT names one: two CI runs on one machine must not meet (with a
# fixed port the second run's health check answered from the first run's service).
port=${TYPED_CLIENT_PORT:-$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
DATA_DIR="$data_dir" PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn env -u DATABASE_URL -u REDIS_URL node dist/src/main.js \
  >"$data_dir/service.log" 2>&1 &
service=$!
trap 'kill "$service" 2>/dev/null; wait "$service" 2>/dev/null; rm -rf "$data_dir"' EXIT
# A limit against hangs, not a speed check: the embedded database's first start (initdb in
# WebAssembly, then the migrations) took over 120 s at load average 25 and failed a CI run; Prism's
# session (scripts/prism-session.mjs) waits 180 s for its service.
for _ in $(seq 1 600); do
  [ -s "$data_dir/demo-keys.json" ] && curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$service" 2>/dev/null || { cat "$data_dir/service.log" >&2; exit 1; }
  sleep 1
done
WALLET_URL="http://127.0.0.1:$port" WALLET_APP=demo \
  WALLET_KEY=$(node -p "require('$data_dir/demo-keys.json').keys.test") \
  node "$here/main.ts"
