// Starts a real Rounds server for the browser tests and the client generator:
// its own database on the local cluster, the development identity provider,
// free loopback ports. Needs Go, psql and `go tool task db:start`.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const repo = resolve(import.meta.dirname, "../..");

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

function adminURL() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const port = process.env.ROUNDS_PG_PORT || "54329";
  return `postgres://rounds@127.0.0.1:${port}/postgres?sslmode=disable`;
}

function psql(sql) {
  execFileSync("psql", [adminURL(), "-v", "ON_ERROR_STOP=1", "-qc", sql], { stdio: "pipe" });
}

async function waitHealthy(base, child, deadlineMs) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`rounds exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/v1/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`rounds did not answer ${base}/api/v1/health within ${deadlineMs} ms`);
}

/** Builds and starts `rounds <role>` (all by default) with the dev config;
 * returns {base, stop, worker}: worker() starts a `rounds worker` on the
 * same database (for a server started without one). */
export async function startServer({ log = false, env = {}, role = "all" } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "rounds-web-"));
  const bin = join(dir, "rounds");
  execFileSync("go", ["build", "-o", bin, "./app/cmd/rounds"], { cwd: repo, stdio: "inherit" });
  const dbName = `rounds_web_${process.pid}_${Date.now()}`;
  psql(`CREATE DATABASE ${dbName}`);
  const dbURL = new URL(adminURL());
  dbURL.pathname = `/${dbName}`;
  const [port, idpPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const issuer = `http://127.0.0.1:${idpPort}`;
  const processEnv = {
    ...process.env,
    DATABASE_URL: dbURL.toString(),
    ROUNDS_HTTP_ADDR: `127.0.0.1:${port}`,
    ROUNDS_SERVICE_PUBLIC_URL: base,
    ROUNDS_METRICS_ENABLED: "false",
    ROUNDS_DEVIDP_ADDR: `127.0.0.1:${idpPort}`,
    ROUNDS_DEVIDP_ISSUER: issuer,
    ROUNDS_OIDC_ISSUER: issuer,
    ROUNDS_OIDC_CLIENT_URL: `${base}/`,
    ROUNDS_STORAGE_URL: `file://${dir}/uploads`,
    // A second device may take over saved progress soon (30 s by default).
    ROUNDS_ATTEMPTS_DEVICE_LOCK: "3s",
    // Admins may store model keys (sealed with this throwaway key).
    ROUNDS_AI_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    ...env,
  };
  const run = (r) => spawn(bin, [r, "--config", "config/dev.yaml"], { cwd: repo, stdio: ["ignore", log ? "inherit" : "ignore", "inherit"], env: processEnv });
  const children = [run(role)];
  const child = children[0];
  const worker = () => void children.push(run("worker"));
  const stop = async () => {
    for (const c of children) {
      if (c.exitCode === null) {
        const exited = new Promise((r) => c.once("exit", r));
        c.kill("SIGTERM");
        await exited;
      }
    }
    psql(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(base, child, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, stop, worker };
}
