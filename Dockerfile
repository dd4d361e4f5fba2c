# syntax=docker/dockerfile:1
# The Rounds image: one static binary (every role: `rounds all|serve|worker|
# scheduler|migrate`), the browser client embedded, on Debian slim with the
# two programs the PDF reader runs (poppler-utils' pdftoppm and tesseract-ocr
# for scanned pages), as a non-root user, with a health check that needs no
# shell.
#   docker build -t rounds:dev --build-arg VERSION=$(git describe --tags --always) .
#   (buildah/podman/kaniko build the same file without a Docker engine)

FROM node:22-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM golang:1.26-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-trimpath
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=web /src/web/dist ./web/dist
ARG VERSION=dev
RUN go build -ldflags "-s -w -X github.com/roundsedu/rounds/platform/buildinfo.Version=${VERSION}" -o /out/rounds ./app/cmd/rounds \
 && go build -ldflags "-s -w" -o /out/healthcheck ./deploy/healthcheck \
 && mkdir -p /out/data/uploads

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-eng \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/rounds /out/healthcheck /usr/local/bin/
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
# Listen on every interface inside the container; the metrics listener too,
# so that Prometheus and the worker's probe reach it (keep it off the public
# network: the chart exposes only the API port through its Service).
# GOGC=400: a heap target five times the live heap, for throughput (the
# hot paths allocate per request; docs/operations.md "Memory and GC"); set
# GOMEMLIMIT below the container's memory limit so the GC tightens before
# it (the Helm chart does).
ENV GOGC=400 \
    ROUNDS_HTTP_ADDR=:8080 \
    ROUNDS_METRICS_ADDR=:9090 \
    ROUNDS_STORAGE_URL=file:///data/uploads \
    ROUNDS_LOG_FORMAT=json
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=4s --start-period=30s --retries=3 CMD ["/usr/local/bin/healthcheck"]
ENTRYPOINT ["/usr/local/bin/rounds"]
CMD ["all"]
