# The deerflow image: `npm run worker` (default) or `node bin/deerflow.js serve` (the gateway).
# docker-compose.temporal.yml builds it for its worker and gateway services.
FROM node:20-bookworm-slim
WORKDIR /app
# Dependencies first, so they stay cached while only the sources change. Dev dependencies too: the
# TypeScript sources run through ts-node (with swc), which needs the compiler.
COPY package.json package-lock.json ./
RUN npm ci && npm cache clean --force
COPY . .
CMD ["npm", "run", "worker"]
