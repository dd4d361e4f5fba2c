// The client in a real browser (Debian's chromium through playwright-core)
// against a real server with its own database and the development sign-in
// provider. SCREENSHOTS=dir saves a picture of each main screen there.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/server.mjs";

const shots = process.env.SCREENSHOTS;
let srv, browser;

before(async () => {
  srv = await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
  if (shots) mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

async function snap(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
}

async function signIn(role, { snapSignIn = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  await page.goto(`${srv.base}/`);
  if (snapSignIn) await snap(page, "sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(role);
  await page.getByLabel("Password").fill(role);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  assert.ok(!page.url().includes("code="), "the one-time code stays out of the address bar");
  return { ctx, page, errors };
}

const navLinks = (page) => page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();

test("each role sees the navigation its role reaches", async () => {
  const want = {
    learner: ["Dashboard", "Quizzes", "Devices"],
    moderator: ["Dashboard", "Quizzes", "Question bank", "Devices"],
    admin: ["Dashboard", "Quizzes", "Question bank", "People", "Devices"],
  };
  for (const [role, links] of Object.entries(want)) {
    const { ctx, page, errors } = await signIn(role, { snapSignIn: role === "learner" });
    assert.deepEqual(await navLinks(page), links, role);
    if (role === "moderator") {
      await page.getByRole("link", { name: "Question bank" }).click();
      await page.getByText(/\d+ questions/).waitFor();
      await snap(page, "bank");
    }
    if (role === "admin") {
      await page.getByRole("link", { name: "People" }).click();
      await page.getByRole("cell", { name: "moderator", exact: true }).first().waitFor();
      await snap(page, "people");
    }
    assert.deepEqual(errors, [], `${role}: no errors in the page`);
    await ctx.close();
  }
});

test("a learner sits a timed quiz through a reload and a dropped network, then reviews it", async () => {
  const { ctx, page, errors } = await signIn("learner");
  await snap(page, "dashboard");
  await page.getByRole("link", { name: "Quizzes" }).click();
  const sit = page.getByRole("link", { name: /^Sit .*timed review/ }).first();
  await sit.waitFor();
  await snap(page, "quizzes");
  await sit.click();

  const saved = page.getByTestId("save-state");
  await page.getByRole("timer").waitFor();
  await page.keyboard.press("a");
  await assertText(saved, "All answers saved");
  const picked = async () => [await page.locator(".stem").innerText(), (await page.locator("label.option.picked").innerText()).replace(/^[A-I]\s+/, "")];
  const first = await picked();
  await page.keyboard.press("ArrowRight");
  await page.getByRole("heading", { name: /Question 2 of/ }).waitFor();
  await page.keyboard.press("f");
  await page.keyboard.press("2");
  await assertText(saved, "All answers saved");
  await snap(page, "sitting");

  // A reload in the same tab: still signed in, answers and place restored.
  await page.reload();
  await page.getByRole("heading", { name: /Question 2 of/ }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Question 1, answered" }).count(), 1);
  const second = await picked();

  // The network drops: the answer stays here, shown unsaved, and is saved on return.
  await ctx.setOffline(true);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("c");
  await assertText(saved, "Not saved: retrying");
  const third = await picked();
  await ctx.setOffline(false);
  await assertText(saved, "All answers saved");

  await page.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
  await snap(page, "review");
  for (const [stem, answer] of [first, second, third]) {
    const item = page.locator(".review li").filter({ hasText: stem });
    assert.equal(await item.locator("strong").first().innerText(), answer, `the stored answer to "${stem}"`);
  }

  await page.getByRole("link", { name: "Devices" }).click();
  await page.getByRole("cell", { name: /^Web \(Chrome\)/ }).first().waitFor();
  await snap(page, "devices");
  errors.splice(0, errors.length, ...errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)));
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a second browser takes the attempt over with the answers saved so far", async () => {
  const a = await signIn("learner");
  const b = await signIn("learner");
  await a.page.getByRole("link", { name: "Quizzes" }).click();
  await a.page.getByRole("link", { name: /^Sit Psychiatry: timed review/ }).click();
  await a.page.getByRole("timer").waitFor();
  await b.page.getByRole("link", { name: "Quizzes" }).click();
  await a.page.keyboard.press("b");
  await assertText(a.page.getByTestId("save-state"), "All answers saved");
  const answer = (await a.page.locator("label.option.picked").innerText()).replace(/^[A-I]\s+/, "");

  // Another browser (its own device id) meets the lock, waits it out, takes over.
  await b.page.getByRole("link", { name: /^Sit Psychiatry: timed review/ }).click();
  await b.page.getByRole("heading", { name: "Open on another device" }).waitFor();
  await b.page.getByRole("heading", { name: /Question 1 of/ }).waitFor();
  assert.equal((await b.page.locator("label.option.picked").innerText()).replace(/^[A-I]\s+/, ""), answer);
  await a.ctx.close();
  await b.ctx.close();
});

test("study mode shows the answer and explanation at once", async () => {
  const { ctx, page } = await signIn("learner");
  await page.getByRole("link", { name: "Quizzes" }).click();
  await page.getByRole("link", { name: /^Study .*study set/ }).first().click();
  await page.getByText("Study mode").waitFor();
  await page.keyboard.press("a");
  await page.getByRole("note").waitFor();
  await snap(page, "study");
  await ctx.close();
});

async function assertText(locator, text) {
  const deadline = Date.now() + 15_000;
  let got;
  while (Date.now() < deadline) {
    got = await locator.innerText();
    if (got.includes(text)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`want "${text}", have "${got}"`);
}

test("first load: bytes over the wire and time to interactive (reported, not asserted)", async (t) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const start = Date.now();
  await page.goto(`${srv.base}/`);
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  const interactive = Date.now() - start;
  const bytes = await page.evaluate(() =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce((n, e) => n + e.transferSize, 0),
  );
  assert.ok(bytes > 0);
  t.diagnostic(`first load: ${bytes} bytes transferred, sign-in button usable after ${interactive} ms`);
  await ctx.close();
});
