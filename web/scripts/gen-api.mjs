// Regenerates src/api/schema.d.ts from the OpenAPI document the server
// serves (`go tool task web:gen`); CI runs it and fails on a diff, so the
// client cannot drift from the contract.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { startServer } from "./server.mjs";

const srv = await startServer();
try {
  const res = await fetch(`${srv.base}/api/openapi.json`);
  if (!res.ok) throw new Error(`GET /api/openapi.json: ${res.status}`);
  writeFileSync(".openapi.json", await res.text());
} finally {
  await srv.stop();
}
execFileSync("npx", ["openapi-typescript", ".openapi.json", "-o", "src/api/schema.d.ts"], { stdio: "inherit" });
