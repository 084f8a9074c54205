# One Node container serving the web app (PORT, 3000) and the api (API_PORT, 8080), configured by environment.
# Build:  docker build -t stagedoor .
# Run:    docker run -p 3000:3000 -p 8080:8080 -v stagedoor-data:/data stagedoor
# tests/api/image-replay.test.ts follows these stages without a Docker daemon (docs/operations.md "The image").

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci

FROM deps AS build
COPY . .
# npm's ffprobe is packed executable by its owner alone (its install script, which npm does not run, only adds u+x):
# the runtime runs as `node`, so the fallback binaries are made executable by all.
RUN npm run build && npm prune --omit=dev \
  && find node_modules/@ffmpeg-installer node_modules/@ffprobe-installer -type f -perm -u+x -exec chmod a+rx {} +

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    APP_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    API_PORT=8080
WORKDIR /app
# Debian's maintained ffmpeg: the api prefers the one on the PATH to the 2018 build the npm package ships.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/build ./build
COPY --from=build --chown=root:root /app/public ./public
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "Promise.all([3000,8080].map((p)=>fetch('http://127.0.0.1:'+p+'/healthz'))).then((r)=>process.exit(r.every((x)=>x.ok)?0:1),()=>process.exit(1))"
CMD ["node", "--v8-pool-size=1", "--max-semi-space-size=32", "build/server/index.js"]
