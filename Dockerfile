# syntax=docker/dockerfile:1
# Node 24 LTS (24.18.0) on Debian bookworm, slim, pinned by the digest of its multi-platform image
# index (Docker Hub's node:24.18.0-bookworm-slim, published 2026-07-14). To move to a newer Node 24,
# change both the tag and the digest (docker buildx imagetools inspect node:24-bookworm-slim).
ARG NODE_IMAGE=node:24.18.0-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# Build: install exactly the lock file, compile, then drop the dev dependencies.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
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
