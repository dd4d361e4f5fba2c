// The client in a real browser (Debian's chromium through playwright-core)
// against a real server with its own database and the development sign-in
// provider. SCREENSHOTS=dir saves each main screen there, light and dark.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/server.mjs";

const shots = process.env.SCREENSHOTS;
let srv, browser, proxy;

// A stand-in for the model proxy (OpenAI's wire protocol): "add a model, test it".
function startProxy() {
  const s = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "m", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "pong" } }] }));
    });
  });
  return new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s)));
}

before(async () => {
  proxy = await startProxy();
  srv = await startServer({ env: { ROUNDS_AI_BASE_URL: `http://127.0.0.1:${proxy.address().port}/v1`, ROUNDS_AI_API_KEY: "proxy-key" } });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
  });
  if (shots) mkdirSync(shots, { recursive: true });
});

after(async () => {
  await browser?.close();
  await srv?.stop();
  proxy?.close();
});

/** snap saves the screen in the light theme and again in the dark one. */
async function snap(page, name) {
  if (!shots) return;
  await page.screenshot({ path: join(shots, `${name}.png`) });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: join(shots, `${name}-dark.png`) });
  await page.emulateMedia({ colorScheme: "light" });
}

/** signIn goes through the SSO flow; `call` then uses the page's own access
 * token (read off its requests) to set up and check stored state. */
async function signIn(role, { snapSignIn = false } = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "light" });
  const page = await ctx.newPage();
  const errors = [];
  let token = null;
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("response", (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
  page.on("request", (r) => {
    const auth = r.headers()["authorization"];
    if (auth) token = auth.slice("Bearer ".length);
  });
  await page.goto(`${srv.base}/`);
  if (snapSignIn) await snap(page, "sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill(role);
  await page.getByLabel("Password").fill(role);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  assert.ok(!page.url().includes("code="), "the one-time code stays out of the address bar");
  await until(() => token !== null, "a request with the access token");
  const call = (method, path, body, headers = {}) => api(token, method, path, body, headers);
  return { ctx, page, errors, call };
}

async function api(token, method, path, body, headers) {
  const raw = body instanceof FormData;
  const res = await fetch(`${srv.base}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body && !raw ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? (raw ? body : JSON.stringify(body)) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function until(cond, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`waited ${ms} ms for ${what}`);
}

async function assertText(locator, text) {
  let got;
  try {
    await until(async () => (got = await locator.innerText()).includes(text), `"${text}"`);
  } catch {
    assert.fail(`want "${text}", have "${got}"`);
  }
}

const navLinks = (page) => page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();

test("each role sees the navigation its role reaches", async () => {
  const learner = ["Dashboard", "Quizzes", "Study plans", "Exams", "Flashcards", "Library", "Lab values", "Shared links", "Devices", "Contact"];
  const modOnly = ["Question bank", "Article editor", "Drafts", "Feedback"];
  const adminOnly = ["AI models", "AI usage", "Settings", "People", "Messages"];
  const moderator = [...learner.slice(0, 7), ...modOnly, ...learner.slice(7)];
  const admin = [...learner.slice(0, 7), ...modOnly, ...adminOnly, ...learner.slice(7)];
  for (const [role, links] of Object.entries({ learner, moderator, admin })) {
    const { ctx, page, errors } = await signIn(role, { snapSignIn: role === "learner" });
    assert.deepEqual(await navLinks(page), links, role);
    if (role === "learner") {
      // A route beyond the role is not offered (the server refuses it anyway).
      await page.goto(`${srv.base}/models`);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
    }
    if (role === "moderator") {
      await page.getByRole("link", { name: "Question bank" }).click();
      await page.getByText(/\d+ questions/).waitFor();
      await snap(page, "bank");
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

test("a learner reviews due flashcards with the grade buttons and the keyboard", async () => {
  const mod = await signIn("moderator");
  const [cat] = await mod.call("GET", "/question-categories/");
  const deck = await mod.call("POST", "/flashcards/manual", { title: "Cardiac drugs", category_id: cat.id, description: "First-line agents." });
  await mod.call("POST", `/flashcards/decks/${deck.id}/cards`, { card_type: "basic", front: "First-line drug for stable angina relief?", back: "Sublingual nitrate" });
  await mod.call("POST", `/flashcards/decks/${deck.id}/cards`, { card_type: "basic", front: "Antidote to heparin?", back: "Protamine sulfate" });
  await mod.call("PUT", `/flashcards/${deck.id}/share`);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Flashcards" }).click();
  await page.getByRole("heading", { name: "Cardiac drugs" }).waitFor();
  await snap(page, "flashcards");
  await page.getByRole("link", { name: "Study Cardiac drugs" }).click();
  const card = page.getByRole("article", { name: "Card" });
  await card.getByRole("heading", { name: /Card 1 of 2/ }).waitFor();
  const firstFront = await card.locator(".stem").innerText();
  await page.getByRole("button", { name: /Show answer/ }).click();
  await page.getByRole("note").waitFor();
  await snap(page, "flashcard-review");
  await page.getByRole("button", { name: /^Good/ }).click();
  await assertText(page.getByTestId("last-grade"), "Good: back");

  // The second card by keyboard: space shows the answer, 1 is "again".
  await card.getByRole("heading", { name: /Card 2 of 2/ }).waitFor();
  await page.keyboard.press(" ");
  await page.getByRole("note").waitFor();
  await page.keyboard.press("1");
  await assertText(page.getByTestId("last-grade"), "Again: back");
  await page.getByText("Done: 2 reviewed.").waitFor();

  // A new visit reads the queue again: the card graded good is not offered.
  await page.getByRole("link", { name: "Back to decks" }).click();
  await page.getByRole("link", { name: "Study Cardiac drugs" }).click();
  await page.getByText(/Nothing is due|Card 1 of/).waitFor();
  assert.equal(await page.getByText(firstFront).count(), 0, "a card graded good is not due again");

  // Stored: the card graded good is no longer due; the forecast counts the deck.
  const q = await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`);
  assert.ok(!q.items.some((c) => c.question === firstFront), "the card graded good left the queue");
  const exam = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("Exam date").fill(exam);
  await page.getByRole("button", { name: "Set exam date" }).click();
  await page.getByText(`Exam on ${exam}.`).waitFor();
  assert.equal((await call("GET", `/flashcards/${deck.id}`)).exam_date?.slice(0, 10), exam);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a learner reads an article and previews a cross-reference by hovering it", async () => {
  const mod = await signIn("moderator");
  await mod.call("POST", "/articles/", {
    title: "Hyperkalaemia", slug: "hyperkalaemia", status: "published", summary: "High serum potassium.",
    sections: [{ id: "ecg", heading: "ECG changes", markdown: "Peaked T waves, then a widened QRS." }],
  });
  await mod.call("POST", "/articles/", {
    title: "Electrolytes", slug: "electrolytes", status: "published", summary: "Sodium, potassium and calcium.",
    sections: [
      { id: "potassium", heading: "Potassium", markdown: "A high level is [[hyperkalaemia]]; see [[hyperkalaemia#ecg|its ECG]]." },
      { id: "sodium", heading: "Sodium", markdown: "Mostly **extracellular**." },
    ],
  });
  await mod.ctx.close();

  const { ctx, page, errors } = await signIn("learner");
  await page.getByRole("link", { name: "Library" }).click();
  await page.getByRole("link", { name: "Electrolytes" }).click();
  await page.getByRole("heading", { name: "Electrolytes", level: 1 }).waitFor();
  const xref = page.locator(".prose a", { hasText: "Hyperkalaemia" });
  await xref.hover();
  await page.getByRole("complementary", { name: "Preview" }).getByText("High serum potassium.").waitFor();
  await snap(page, "article");
  await xref.click();
  await page.getByRole("heading", { name: "Hyperkalaemia", level: 1 }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/articles/hyperkalaemia");
  await page.getByRole("link", { name: "Library" }).first().click();
  await page.getByText("Recently opened:").getByRole("link", { name: "Hyperkalaemia" }).waitFor();
  await snap(page, "library");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a moderator accepts ready drafts from an uploaded PDF, rejects one and reopens it, and answers feedback", async () => {
  const learner = await signIn("learner");
  const [quiz] = await learner.call("GET", "/quizzes/");
  const detail = await learner.call("GET", `/quizzes/${quiz.id}`);
  const question = detail.questions[0];
  await learner.call("POST", "/feedback", { kind: "question", target_id: question.id, type: "unclear", text: "Two options look right." });

  const { ctx, page, errors, call } = await signIn("moderator");
  const form = new FormData();
  form.append("file", new Blob([readFileSync(join(import.meta.dirname, "paper.pdf"))], { type: "application/pdf" }), "cardiology.pdf");
  const doc = await call("POST", "/documents/upload", form);
  await until(async () => (await call("GET", `/documents/${doc.id}/status`)).status !== "processing", "the PDF processed");
  const sec = await call("POST", `/documents/${doc.id}/sections`, { name: "Cardiology", start_page: 1, end_page: 3 });
  const { job_id } = await call("POST", "/drafts/extract", { section_id: sec.id, model: "builtin" });
  let batchId;
  await until(async () => {
    const job = await call("GET", `/quizzes/job/${job_id}`);
    batchId = job.batch_id;
    return job.status === "completed";
  }, "the extraction");

  await page.getByRole("link", { name: "Drafts" }).click();
  await page.getByRole("link", { name: `Batch ${batchId}` }).click();
  await page.getByRole("heading", { name: `Batch ${batchId}` }).waitFor();
  await page.locator(".draft").first().waitFor();
  await snap(page, "drafts");
  const drafts = await call("GET", `/drafts/batches/${batchId}/drafts`);
  const ready = drafts.filter((d) => d.ready);
  const unready = drafts.find((d) => !d.ready);
  assert.ok(ready.length > 0 && unready, "the paper has ready and unready drafts");

  const [cat] = await call("GET", "/question-categories/");
  await page.getByLabel("Files into topic").selectOption(String(cat.id));
  await until(async () => (await call("GET", `/drafts/batches/${batchId}`)).category_id === cat.id, "the batch filed into a topic");
  await page.getByRole("button", { name: "Select every ready draft" }).click();
  await page.getByRole("button", { name: `Accept ${ready.length}` }).click();
  await assertText(page.getByTestId("review-result"), `Accepted ${ready.length} into the bank.`);
  await page.getByLabel(`Select draft ${unready.position}`).check();
  await page.getByRole("button", { name: "Reject 1" }).click();
  await assertText(page.getByTestId("review-result"), "Rejected 1.");
  await page.getByRole("button", { name: "Reopen" }).click();
  await assertText(page.getByTestId("review-result"), "Reopened.");
  const batch = await call("GET", `/drafts/batches/${batchId}`);
  assert.deepEqual(batch.counts, { accepted: ready.length, rejected: 0, pending: drafts.length - ready.length, total: drafts.length });
  for (const d of await call("GET", `/drafts/batches/${batchId}/drafts?status=accepted`)) assert.ok(d.question_id, "an accepted draft is a bank question");

  await page.getByRole("link", { name: "Feedback" }).click();
  await page.getByText("Two options look right.").waitFor();
  await snap(page, "feedback");
  await page.getByLabel("Note to the reporter").fill("Option C reworded.");
  await page.getByRole("button", { name: "Resolve" }).click();
  await page.getByText("No open report.").waitFor();
  const [mine] = await learner.call("GET", "/feedback/mine");
  assert.equal(mine.status, "resolved");
  assert.equal(mine.resolution_note, "Option C reworded.");
  assert.deepEqual(errors, []);
  await learner.ctx.close();
  await ctx.close();
});

test("an admin adds a model with a masked key, tests it, edits a setting and sees why roles are fixed", async () => {
  const { ctx, page, errors, call } = await signIn("admin");
  await page.getByRole("link", { name: "AI models" }).click();
  await page.getByLabel("Name").fill("Tutor");
  await page.getByLabel("Model id").fill("gpt-tutor");
  await page.getByLabel("Task", { exact: true }).selectOption("teach");
  await page.getByLabel("API key").fill("sk-secret-key-1234");
  await page.getByLabel("Default for its task").check();
  await page.getByRole("button", { name: "Add model" }).click();
  const row = page.getByRole("row").filter({ hasText: "gpt-tutor" });
  await row.waitFor();
  const shownKey = await row.locator("td").nth(3).innerText();
  assert.ok(!shownKey.includes("sk-secret-key-1234"), `the key shows masked, not "${shownKey}"`);
  await page.getByRole("button", { name: "Test gpt-tutor" }).click();
  await page.getByTestId("model-test").getByText(/./).waitFor();
  await snap(page, "models");
  const [stored] = await call("GET", "/admin/models");
  assert.equal(stored.model_id, "gpt-tutor");
  assert.equal(stored.is_default, true);

  await page.getByRole("link", { name: "Settings" }).click();
  const settings = await call("GET", "/admin/settings");
  const key = Object.keys(settings).find((k) => typeof settings[k] === "number");
  assert.ok(key, `a numeric setting among ${Object.keys(settings)}`);
  const input = page.getByLabel(key, { exact: true });
  await input.fill(String(settings[key] + 1));
  await page.getByRole("button", { name: `Save ${key}` }).click();
  await page.getByText(`Saved ${key}.`).waitFor();
  await snap(page, "settings");
  assert.equal((await call("GET", "/admin/settings"))[key], settings[key] + 1);

  // The dev provider's groups decide roles: the server says so and nothing changes.
  const pat = await call("POST", "/admin/users", { email: "pat@rounds.test", name: "Pat Person", password: "a-long-password-1" });
  await page.getByRole("link", { name: "People" }).click();
  await page.getByLabel("Role of Pat Person").selectOption("moderator");
  await page.getByRole("alert").waitFor();
  await snap(page, "people");
  const people = await call("GET", "/admin/users");
  assert.equal(people.find((u) => u.id === pat.id).role, "user");
  assert.deepEqual(errors.filter((e) => !/\/role$/.test(e)), []);
  await ctx.close();
});

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
