# syntax=docker/dockerfile:1
# The control plane's image: the API and the job worker are the same code, so one image serves
# both and ROLES (api | worker) picks what a container runs. Built from the repository root:
#   docker build -f deploy/docker/api.Dockerfile -t debesis/api .
# There is no JavaScript build of the server: it runs its TypeScript through tsx, which is why tsx
# is a production dependency of @debesis/api and is kept in the final stage.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
# Only the manifests first: npm's layers are then reused until a dependency changes. Every
# workspace's package.json is needed, even e2e's, because npm ci checks the lock file against all.
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/agent/package.json apps/agent/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/pricing/package.json packages/pricing/
COPY e2e/package.json e2e/

# The web app is built with the development tools (Vite), which never reach the final image.
FROM manifests AS web
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ packages/
COPY apps/web/ apps/web/
RUN npm run build

# What the server needs at run time: @debesis/api's production dependencies, which include tsx
# and, through the workspaces, agent, contract and pricing (linked, their sources copied below).
FROM manifests AS deps
RUN npm ci --omit=dev --workspace @debesis/api --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# HOST: the default 127.0.0.1 would not be reachable from outside the container. DATA_DIR holds
# only mail written to files when SMTP_URL is unset (production sets it) and is the one writable
# folder besides /tmp (tsx's compile cache), so the root file system can be read-only.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    ROLES=api \
    DATA_DIR=/var/lib/debesis \
    WEB_DIST=/app/apps/web/dist
COPY --from=deps /app/ ./
COPY tsconfig.base.json ./
COPY packages/ packages/
COPY apps/api/ apps/api/
# The API imports the agent's package for the embedded node (ROLES=agent) and the desired-state
# types; it is never started here in production, but the import graph must resolve.
COPY apps/agent/ apps/agent/
COPY --from=web /app/apps/web/dist/ apps/web/dist/
# The node image's unprivileged user (uid 1000); the code stays root-owned, so a compromised
# process cannot rewrite what it runs.
RUN mkdir -p /var/lib/debesis && chown node:node /var/lib/debesis
USER node
EXPOSE 8080
# /api/v1/health answers 503 when the database is down. A worker-only container (ROLES=worker)
# has no HTTP listener: compose turns this check off for it, Kubernetes ignores it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 and handles SIGTERM (apps/api/src/main.ts closes the listener, the job
# queue and the database before it exits).
CMD ["node", "--import", "tsx", "apps/api/src/main.ts"]
