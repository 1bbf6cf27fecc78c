# syntax=docker/dockerfile:1
# Node 24 LTS (24.21.0, the version CI and development run, .ci/run) on Debian bookworm, slim. The
# tag names the exact Node version; test/e2e/platform/dockerfile-replay refuses to replay it on any
# other. To pin the bytes too, append the digest of the tag's multi-platform index
# (`docker buildx imagetools inspect node:24.21.0-bookworm-slim`) as `@sha256:…`; change both
# together when moving to a newer Node 24.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Build: install exactly the lock file, compile, then drop the dev dependencies.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY scripts/build-if-stale.mjs ./scripts/
COPY src ./src
COPY migrations ./migrations
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && npm cache clean --force

# Runtime: compiled code and production dependencies only, owned by root and read-only to the
# service's user (uid/gid 10001, as the Kubernetes manifests' runAsUser), so it also runs with a
# read-only root filesystem; only /tmp needs to be writable (the embedded database's DATA_DIR when
# no DATABASE_URL is given). Nothing compiles at start. `node` is PID 1 and handles SIGTERM.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/tmp/wallet-data
WORKDIR /app
RUN groupadd --system --gid 10001 wallet \
  && useradd --system --uid 10001 --gid wallet --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin wallet
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER 10001:10001
# 3000: the API (PORT); 9464: /metrics when METRICS_PORT=9464 (the Kubernetes manifests set it).
EXPOSE 3000 9464
# No HEALTHCHECK: Kubernetes probes /healthz (liveness) and /readyz (readiness).
CMD ["node", "dist/src/main.js"]
