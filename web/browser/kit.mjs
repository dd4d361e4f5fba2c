// The browser tests' kit: a real server (its own database, the development
// sign-in provider, a stand-in model proxy), Debian's chromium through
// playwright-core, sign-in per role, the API with the page's own token,
// waits, axe-core and screenshots. SCREENSHOTS=dir saves screens there,
// light and dark.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/server.mjs";

export const shots = process.env.SCREENSHOTS;

/** env holds the server and the browser once useServer's hook has run. */
export const env = { srv: null, browser: null, proxy: null };

// The article model's answer: an article in the library's shape.
const writerReply = "# Mitral stenosis\nA narrowed mitral valve.\n\n## Causes\nRheumatic fever, mostly.\n\n## Signs\nAn opening snap after S2.\n";

/** tutorReply is what the model tutor-1 answers, follow-ups included. */
export const tutorReply = "Protamine binds heparin and neutralises it.\n> How fast does protamine act?\n> What reverses warfarin?";

// A stand-in for the model proxy (OpenAI's wire protocol): "add a model,
// test it"; the model writer-1 writes articles, tutor-1 teaches.
function startProxy() {
  const s = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const model = JSON.parse(body || "{}").model;
      const content = model === "writer-1" ? writerReply : model === "tutor-1" ? tutorReply : "pong";
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }] }));
    });
  });
  return new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s)));
}

/** useServer starts the server (`rounds all`, or role), the proxy and the
 * browser before the file's tests and stops them after. */
export function useServer({ role } = {}) {
  before(async () => {
    env.proxy = await startProxy();
    env.srv = await startServer({ role, env: { ROUNDS_AI_BASE_URL: `http://127.0.0.1:${env.proxy.address().port}/v1`, ROUNDS_AI_API_KEY: "proxy-key" } });
    env.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
    });
    if (shots) mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await env.browser?.close();
    await env.srv?.stop();
    env.proxy?.close();
  });
}

/** snap saves the screen in the light theme and again in the dark one. */
export async function snap(page, name) {
  if (!shots) return;
  await page.screenshot({ path: join(shots, `${name}.png`) });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: join(shots, `${name}-dark.png`) });
  await page.emulateMedia({ colorScheme: "light" });
}

/** signIn goes through the SSO flow; `call` then uses the page's own access
 * token (read off its requests) to set up and check stored state. errors
 * collects the page's uncaught errors and failed requests; signInMs is the
 * time from the provider's "Sign in" to the dashboard's heading. A script
 * given as init runs in every page before the client's own. */
export async function signIn(role, { snapSignIn = false, viewport = { width: 1200, height: 800 }, init } = {}) {
  const ctx = await env.browser.newContext({ viewport, colorScheme: "light" });
  if (init) await ctx.addInitScript(init);
  const page = await ctx.newPage();
  const errors = [];
  let token = null;
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  page.on("request", (r) => {
    const auth = r.headers()["authorization"];
    if (auth) token = auth.slice("Bearer ".length);
  });
  await page.goto(`${env.srv.base}/`);
  if (snapSignIn) await snap(page, "sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(role);
  await page.getByLabel("Password").fill(role);
  const submitted = Date.now();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  const signInMs = Date.now() - submitted;
  // The navigation follows the role once the account is read.
  await page.locator("header .who .badge").waitFor();
  assert.ok(!page.url().includes("code="), "the one-time code stays out of the address bar");
  await until(() => token !== null, "a request with the access token");
  const call = (method, path, body, headers = {}) => api(token, method, path, body, headers);
  return { ctx, page, errors, call, signInMs };
}

export async function api(token, method, path, body, headers) {
  const raw = body instanceof FormData;
  const res = await fetch(`${env.srv.base}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body && !raw ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? (raw ? body : JSON.stringify(body)) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function until(cond, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`waited ${ms} ms for ${what}`);
}

export async function assertText(locator, text) {
  let got;
  try {
    const has = (t) => (typeof text === "string" ? t.includes(text) : text.test(t));
    await until(async () => has((got = await locator.innerText())), `"${text}"`);
  } catch {
    assert.fail(`want "${text}", have "${got}"`);
  }
}

/** go opens a path in the client as a person would: through the router,
 * so the query cache carries over from screen to screen. */
export async function go(page, path) {
  await page.evaluate((p) => {
    history.pushState(null, "", p);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

/** sitting waits for the sitting screen's first question, failing with the
 * page's alert if one shows instead. */
export async function sitting(page) {
  const first = page.getByRole("heading", { name: /Question 1 of/ });
  const alert = page.getByRole("alert");
  await first.or(alert).first().waitFor();
  if (!(await first.isVisible())) assert.fail(`the sitting did not start: ${await alert.first().innerText()}`);
}

/** answerAll picks the first option of every question, then submits. */
export async function answerAll(page) {
  const count = await page.locator(".grid button").count();
  for (let i = 0; i < count; i++) {
    await page.getByRole("heading", { name: new RegExp(`Question ${i + 1} of`) }).waitFor();
    await page.keyboard.press("a");
    if (i < count - 1) await page.keyboard.press("ArrowRight");
  }
  await assertText(page.getByTestId("save-state"), "All answers saved");
  await page.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
}

/** png is a small real PNG: a corner of the page's own screen. */
export const png = (page) => page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 64 } });

const axeSource = readFileSync(join(import.meta.dirname, "../node_modules/axe-core/axe.min.js"), "utf8");

/** axeCheck runs axe-core in the page (evaluated over the debugging
 * protocol, so the CSP need not allow it) and returns the serious and
 * critical violations. */
export async function axeCheck(page, rules) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async (rules) => (await window.axe.run(document, { resultTypes: ["violations"], ...(rules ? { runOnly: rules } : {}) })).violations,
    rules,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/** mcq makes a question (through the API). */
export const mcq = (call, text, question_category_id = null, more = {}) =>
  call("POST", "/questions/create", { question_text: text, question_type: "mcq", options: ["Yes", "No"], correct_answer: "Yes", question_category_id, ...more });

/** phoneFits tells whether the page fits a 390 px phone without sideways scrolling. */
export async function phoneFits(page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  await page.setViewportSize({ width: 1200, height: 800 });
  return scroll <= inner;
}

/** widening names up to three elements that reach past the viewport's
 * right edge outside any scrolling box (what makes a phone scroll sideways). */
export const widening = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      // Content inside a scrolling box does not widen the page.
      .filter((e) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return false;
        return true;
      })
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
  );

/** screenClean checks the screen on show with axe-core, in both themes,
 * and at a phone's size for sideways scrolling; it returns what it found. */
export async function screenClean(page, name) {
  const found = (await axeCheck(page)).map((v) => `${name}: ${v}`);
  await page.emulateMedia({ colorScheme: "dark" });
  found.push(...(await axeCheck(page, ["color-contrast"])).map((v) => `${name} dark: ${v}`));
  await page.emulateMedia({ colorScheme: "light" });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > inner) found.push(`${name}: scrolls sideways on a phone (${scroll} > ${inner}) by ${(await widening(page)).join(", ")}`);
  found.push(...(await axeCheck(page)).map((v) => `${name} phone: ${v}`));
  await page.setViewportSize(size);
  return found;
}
