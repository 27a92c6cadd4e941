# syntax=docker/dockerfile:1
# The presend API (and `presend facilitator`, same image, other command). Multi-stage: build tools
# stay in the first stage; the runtime stage holds production dependencies and sources, runs as
# the unprivileged `node` user, and keeps its data in /data.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles when no prebuilt binary fits the platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY client/package.json client/
COPY devnet/package.json devnet/
COPY server/package.json server/
COPY snapshots/package.json snapshots/
COPY extension/package.json extension/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --workspace server --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PRESEND_NETWORK=mainnet \
    HOST=0.0.0.0 \
    PORT=8402 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json ./
COPY shared shared
COPY client client
COPY snapshots snapshots
COPY server/package.json server/
COPY server/bin server/bin
COPY server/src server/src
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8402
# /readyz: 503 while starting or draining, when PostgreSQL or Redis do not answer, when another
# replica runs with another attestation key or payTo, or when the clock is off Base's.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8402)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains paid requests in flight (DRAIN_TIMEOUT_MS, default 30 s) before exiting.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/src/main.ts"]
