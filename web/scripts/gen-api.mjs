// Regenerates src/api/schema.d.ts from the OpenAPI document the server
// serves (`go tool task web:gen`). With --check (run by `go tool task
// web:test`, so by every test run) it writes nothing and fails when the
// checked-in client differs from what the server serves: the client cannot
// drift from the contract.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./server.mjs";

const check = process.argv.includes("--check");
const srv = await startServer();
try {
  const res = await fetch(`${srv.base}/api/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/openapi.json: ${res.status}`);
  writeFileSync(".openapi.json", await res.text());
} finally {
  await srv.stop();
}
const target = "src/api/schema.d.ts";
const out = check ? join(mkdtempSync(join(tmpdir(), "rounds-api-")), "schema.d.ts") : target;
execFileSync("npx", ["openapi-typescript", ".openapi.json", "-o", out], { stdio: "inherit" });
if (check && readFileSync(out, "utf8") !== readFileSync(target, "utf8")) {
  console.error(`${target} is not what the server serves: run \`go tool task web:gen\` and commit it`);
  process.exit(1);
}
