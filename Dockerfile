# The API and the SPA it serves, as one image: the production shape is several of these on one PostgreSQL behind
# HAProxy (compose.yaml). Not built on the development machine (no Docker engine there); the cluster test
# (npm run test:cluster) starts the very same command, `node scripts/start.mjs`, on the same kind of build, and on this
# image's Node: .ci/run runs its PostgreSQL and S3 stage and the cluster test through scripts/with-node.sh, which reads
# the major version below. Node 24, the active LTS (supported until April 2028): Node 20 reached its end of life on
# 2026-04-30, the development machine's Node (npm test runs there). Debian bookworm named, for its PostgreSQL 15 client.
FROM node:24-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    STORAGE_DIR=/app/storage \
    DATA_DIR=/app/data
WORKDIR /app

# pg_dump and pg_restore for npm run backup and npm run restore (docs/BACKUPS.md): Debian bookworm's client is
# PostgreSQL 15, as compose.yaml's server (pg_dump must be of the server's major version or newer).
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*

# Dependencies first: this layer is kept while only the sources change. The build needs no dev dependency.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

COPY . .
# BRAND_NAME and API_BASE_URL are read at build time (esbuild.config.mjs): pass them as build arguments. They stay
# in the environment, so the server (e-mails, PDFs) uses the same name and start.mjs finds the build up to date.
ARG BRAND_NAME=Domicilium
ARG API_BASE_URL=
ENV BRAND_NAME=$BRAND_NAME \
    API_BASE_URL=$API_BASE_URL
RUN npm run build \
 && mkdir -p /app/storage /app/data \
 && chown -R node:node /app/storage /app/data

# The files the server writes (storage, embedded database) belong to the unprivileged user; the code does not.
USER node
EXPOSE 8080
# /health answers 200 when the process is up and its database answers (HAProxy checks the same route).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 (no npm, no shell): `docker stop`'s SIGTERM reaches the server, which lets in-flight
# requests finish and closes the database.
CMD ["node", "scripts/start.mjs"]
