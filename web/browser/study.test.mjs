// Issue 38's sitting in a real browser, on a server of its own: question
// text in markdown, the sitting tools, custom blocks and answers kept
// while offline.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertText, go, mcq, screenClean, signIn, sitting, snap, until, useServer } from "./kit.mjs";

useServer();

/** quizOf puts questions into a published quiz a learner may sit. */
async function quizOf(call, title, mode, ids) {
  const quiz = await call("POST", "/questions/from-bank", { title, mode, question_ids: ids });
  await call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  return quiz;
}

test("question text is markdown: stems, options and explanations render safely while sitting and in the review", async () => {
  const mod = await signIn("moderator");
  const q = await mcq(mod.call, "A **65-year-old** man with:\n\n- fever\n- *cough*\n\n<script>window.pwned = 1</script> See [the guideline](https://example.org/g) or [this](javascript:window.pwned=2).", null, {
    options: ["`Gamma` rays", "**Beta** particles"],
    correct_answer: "`Gamma` rays",
    explanation: "Gamma rays are *photons*.\n\n1. no mass\n2. no charge",
  });
  const quiz = await quizOf(mod.call, "Markdown stems", "timed", [q.id]);
  await mod.ctx.close();

  const { ctx, page, errors } = await signIn("learner");
  const opened = Date.now();
  await go(page, `/quizzes/${quiz.id}/sit`);
  await sitting(page);
  // Budgets (docs/performance.md): a signed-in learner's first question, and
  // a key press painted (the option marked, measured in the page).
  console.log(`budget: first question shown ${Date.now() - opened} ms after opening the sitting`);
  const stem = page.locator(".question .stem");
  assert.equal(await stem.locator("strong").innerText(), "65-year-old");
  assert.deepEqual(await stem.locator("li").allInnerTexts(), ["fever", "cough"]);
  assert.equal(await stem.locator("em").innerText(), "cough");
  // Raw HTML shows as text, a script link is no link, an http link opens safely.
  assert.equal(await page.locator(".question script").count(), 0);
  await assertText(stem, "<script>window.pwned = 1</script>");
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  const links = stem.locator("a");
  assert.equal(await links.count(), 1);
  assert.equal(await links.getAttribute("href"), "https://example.org/g");
  assert.equal(await links.getAttribute("rel"), "noopener noreferrer nofollow");
  await assertText(stem, "[this](javascript:window.pwned=2)");
  assert.equal(await page.locator("label.option code").innerText(), "Gamma");
  assert.equal(await page.locator("label.option strong").innerText(), "Beta");
  const painted = page.evaluate(
    () =>
      new Promise((done) => {
        let t0 = 0;
        addEventListener("keydown", (e) => (t0 = e.timeStamp), { once: true, capture: true });
        new MutationObserver((_, o) => {
          if (!document.querySelector("label.option.picked")) return;
          o.disconnect();
          requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0)));
        }).observe(document.body, { subtree: true, attributes: true, childList: true });
      }),
  );
  await page.keyboard.press("a");
  console.log(`budget: an answer by key painted in ${Math.round(await painted)} ms`);
  await assertText(page.getByTestId("save-state"), "All answers saved");
  await page.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
  const item = page.getByRole("listitem", { name: "Question 1" });
  assert.equal(await item.locator(".stem strong").innerText(), "65-year-old");
  assert.equal(await item.locator(".option-text code").innerText(), "Gamma");
  assert.equal(await item.locator(".explanation em").innerText(), "photons");
  assert.deepEqual(await item.locator(".explanation ol li").allInnerTexts(), ["no mass", "no charge"]);
  for (const v of await screenClean(page, "review with markdown")) errors.push(v);
  assert.deepEqual(errors, []);
  await ctx.close();
});

/** shoot saves the screen light and dark at the desktop size, then at a phone's. */
async function shoot(page, name) {
  await snap(page, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-phone`);
  await page.setViewportSize(size);
}

test("sitting tools: strike through, highlight, a timer per question, the id, a note in place, a calculator, text size and contrast, all by keyboard", async () => {
  const mod = await signIn("moderator");
  const q1 = await mcq(mod.call, "A 30-year-old woman has palpitations and weight loss. Which test comes first?", null, {
    options: ["TSH", "Free T3", "Thyroid scan", "Antibodies"],
    correct_answer: "TSH",
  });
  const q2 = await mcq(mod.call, "Which drug blocks the conversion of T4 to T3?");
  const quiz = await quizOf(mod.call, "Thyroid tools", "timed", [q1.id, q2.id]);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await go(page, `/quizzes/${quiz.id}/sit`);
  await sitting(page);
  assert.equal(await page.getByTestId("question-id").innerText(), `ID ${q1.id}`);
  const option = (i) => page.locator("label.option").nth(i);

  // Strike through: Shift+letter, right click; again takes it off.
  await page.keyboard.press("Shift+B");
  await until(async () => (await option(1).getAttribute("class")).includes("struck"), "B struck");
  await assertText(option(1), "(struck out)");
  await option(2).click({ button: "right" });
  await until(async () => (await option(2).getAttribute("class")).includes("struck"), "C struck by right click");
  await page.keyboard.press("Shift+C");
  await until(async () => !(await option(2).getAttribute("class")).includes("struck"), "C back");
  assert.equal(await page.locator("label.option.picked").count(), 0, "striking answers nothing");

  // Highlight: select "palpitations" in the stem, press M.
  await page.evaluate(() => {
    const stem = document.getElementById("q-stem");
    const walk = document.createTreeWalker(stem, NodeFilter.SHOW_TEXT);
    const node = walk.nextNode();
    const at = node.data.indexOf("palpitations");
    const r = document.createRange();
    r.setStart(node, at);
    r.setEnd(node, at + "palpitations".length);
    getSelection().removeAllRanges();
    getSelection().addRange(r);
  });
  await page.keyboard.press("m");
  await until(async () => (await page.locator("#q-stem mark.hl").count()) === 1, "the highlight");
  assert.equal(await page.locator("#q-stem mark.hl").innerText(), "palpitations");
  assert.equal(await page.locator("#q-stem").innerText(), q1.question_text, "the text is unchanged around it");

  // The question's own timer runs beside the block's.
  await until(async () => (await page.getByTestId("q-timer").innerText()) !== "This question 0:00", "the question timer");
  await page.getByRole("timer", { name: "Time in this block" }).waitFor();

  // The note, written in place by keyboard, is stored by the notes API.
  await page.keyboard.press("n");
  const write = page.getByRole("button", { name: `Write a note on question ${q1.id}` });
  await write.focus();
  await page.keyboard.press("Enter");
  // The field takes the focus once drawn (an effect after the render):
  // typing before that would lose the first keys.
  const field = page.getByLabel(`Your note on question ${q1.id}`);
  await until(() => field.evaluate((el) => el === document.activeElement), "the note field focused");
  await page.keyboard.type("TSH first, always.");
  assert.equal(await page.locator("label.option.picked").count(), 0, "typing a note answers nothing");
  await page.getByRole("button", { name: "Save note" }).focus();
  await page.keyboard.press("Enter");
  await assertText(page.getByTestId(`note-${q1.id}`), "TSH first, always.");
  const notes = await call("GET", `/notes?question_ids=${q1.id}`);
  assert.equal(notes[0]?.body, "TSH first, always.");

  // The calculator, by keyboard.
  await page.locator("body").focus();
  await page.keyboard.press("=");
  const input = page.getByLabel(/^Calculator: type a sum/);
  await until(async () => await input.evaluate((el) => el === document.activeElement), "the calculator's input focused");
  await page.keyboard.type("2*(3+4)/0.5");
  await page.keyboard.press("Enter");
  await assertText(page.getByTestId("calc-result"), "2*(3+4)/0.5 = 28");
  await page.keyboard.type("+");
  await page.keyboard.press("Enter");
  await assertText(page.getByTestId("calc-result"), "Incomplete expression");

  await snap(page, "sit-tools-open");
  for (const v of await screenClean(page, "sitting with its tools")) errors.push(v);
  await page.keyboard.press("Escape");
  await until(async () => (await input.count()) === 0, "the calculator closed");

  // Text size and contrast.
  await page.locator("body").focus();
  await page.keyboard.press("+");
  await assertText(page.getByTestId("text-size"), "Large");
  assert.match(await page.locator("section.sit").getAttribute("class"), /size-2/);
  await page.getByRole("button", { name: "High contrast" }).focus();
  await page.keyboard.press("Enter");
  assert.equal(await page.getByRole("button", { name: "High contrast" }).getAttribute("aria-pressed"), "true");
  for (const v of await screenClean(page, "sitting in high contrast")) errors.push(v);
  await shoot(page, "sit-tools");

  // A reload keeps the strikes, the highlight, the settings.
  await page.reload();
  await sitting(page);
  assert.equal(await page.locator("#q-stem mark.hl").innerText(), "palpitations");
  assert.ok((await option(1).getAttribute("class")).includes("struck"));
  assert.match(await page.locator("section.sit").getAttribute("class"), /size-2 contrast/);
  await page.getByRole("button", { name: "High contrast" }).click();
  await page.keyboard.press("-");
  await assertText(page.getByTestId("text-size"), "Normal");
  // Answering still goes by letter; the next question has no strikes.
  await page.keyboard.press("a");
  await assertText(page.getByTestId("save-state"), "All answers saved");
  await page.keyboard.press("ArrowRight");
  await page.getByRole("heading", { name: /Question 2 of/ }).waitFor();
  assert.equal(await page.getByTestId("question-id").innerText(), `ID ${q2.id}`);
  assert.equal(await page.locator("label.option.struck").count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("custom blocks: a learner draws N unused questions of a category in tutor mode, never one out of reach", async () => {
  const mod = await signIn("moderator");
  const cat = await mod.call("POST", "/question-categories/", { name: "Cardiology blocks" });
  const open = [];
  for (const t of ["Which murmur radiates to the carotids?", "Which drug first in stable angina?", "Which wave shows hyperkalaemia first?"])
    open.push((await mcq(mod.call, t, cat.id)).id);
  const hidden = (await mcq(mod.call, "Unpublished: which valve?", cat.id)).id;
  await quizOf(mod.call, "Cardiology open", "timed", open);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Create a block" }).click();
  await page.getByRole("heading", { name: "Create a block" }).waitFor();
  await page.getByLabel(/^Categories/).selectOption(String(cat.id));
  await assertText(page.getByTestId("block-total"), "3 questions in reach");
  await assertText(page.getByTestId("pool-unused"), "(3)");
  await page.getByRole("checkbox", { name: /Unused/ }).check();
  await page.getByLabel("Number of questions").fill("2");
  await page.getByLabel("Mode").selectOption("learning");
  await shoot(page, "custom-block");
  for (const v of await screenClean(page, "create a block")) errors.push(v);
  await page.getByRole("button", { name: "Start the block" }).click();
  await sitting(page);
  assert.match(page.url(), /\/quizzes\/\d+\/sit\?study=1$/);
  assert.equal(await page.locator(".grid button").count(), 2);
  const quizId = Number(page.url().match(/quizzes\/(\d+)/)[1]);
  const detail = await call("GET", `/quizzes/${quizId}`);
  const ids = detail.questions.map((q) => q.id);
  assert.equal(ids.length, 2);
  for (const id of ids) assert.ok(open.includes(id), `question ${id} is one of the reachable ones`);
  assert.ok(!ids.includes(hidden));
  assert.deepEqual(await call("GET", `/saved-tests/custom/counts?category_ids=${cat.id}`), { total: 3, unused: 3, incorrect: 0, flagged: 0 });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("offline: five answers made without a network survive a reload and reach the server in order; flashcard ratings wait too", async () => {
  const mod = await signIn("moderator");
  const ids = [];
  for (let i = 1; i <= 5; i++) ids.push((await mcq(mod.call, `Offline question ${i}: which is right?`, null, { options: [`Right ${i}`, `Wrong ${i}`], correct_answer: `Right ${i}` })).id);
  const quiz = await quizOf(mod.call, "Offline block", "timed", ids);
  const cat = await mod.call("POST", "/question-categories/", { name: "Offline cards" });
  const deck = await mod.call("POST", "/flashcards/manual", { title: "Offline deck", category_id: cat.id, description: "One card." });
  await mod.call("POST", `/flashcards/decks/${deck.id}/cards`, { card_type: "basic", front: "Offline card front", back: "Offline card back" });
  await mod.call("PUT", `/flashcards/${deck.id}/share`);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  // Installable: a manifest and a service worker that controls the page.
  const manifest = await (await fetch(`${page.url().replace(/\/[^/]*$/, "")}/manifest.json`)).json();
  assert.equal(manifest.display, "standalone");
  await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null), "the service worker in control");
  await go(page, `/quizzes/${quiz.id}/sit`);
  await sitting(page);
  // The shell and this sitting's files are kept (what a reload needs).
  await until(
    () => page.evaluate(async () => (await (await caches.open("rounds-shell-v1")).keys()).some((r) => /\/assets\/Sit-/.test(r.url))),
    "the sitting's script cached",
  );

  await ctx.setOffline(true);
  for (let i = 0; i < 5; i++) {
    await page.getByRole("heading", { name: new RegExp(`Question ${i + 1} of`) }).waitFor();
    await page.keyboard.press("a");
    if (i < 4) await page.keyboard.press("ArrowRight");
  }
  await assertText(page.getByTestId("save-state"), "Offline — 5 answers waiting");

  await page.reload();
  // Back where the learner was: the fifth question, its answer kept.
  await page.getByRole("heading", { name: /Question 5 of 5/ }).waitFor();
  await assertText(page.getByTestId("save-state"), "Offline — 5 answers waiting");
  assert.equal(await page.locator(".grid button.done").count(), 5, "the answers are back on screen");
  await shoot(page, "sit-offline");

  await ctx.setOffline(false);
  await assertText(page.getByTestId("save-state"), "All answers saved");
  const device = await page.evaluate(() => sessionStorage.getItem("rounds.device"));
  const saved = await call("GET", `/attempts/progress?quiz_id=${quiz.id}`, undefined, { "x-quiz-session": device });
  assert.deepEqual(
    saved.answers,
    Object.fromEntries(ids.map((id, i) => [String(id), `Right ${i + 1}`])),
    "the five answers are stored on the server",
  );
  assert.equal(saved.current_idx, 4);

  // A flashcard rating made offline waits, then is sent.
  await go(page, `/flashcards/study?deck=${deck.id}`);
  await page.getByRole("article", { name: "Card" }).locator(".stem").waitFor();
  await ctx.setOffline(true);
  await page.keyboard.press(" ");
  await page.getByRole("note").waitFor();
  await page.keyboard.press("4");
  await assertText(page.getByTestId("reviews-waiting"), "Offline — 1 rating waiting");
  await ctx.setOffline(false);
  await until(async () => (await page.getByTestId("reviews-waiting").innerText()) === "", "the rating sent");
  const queue = await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`);
  assert.deepEqual(queue.items, [], "the card was rated on the server");
  assert.deepEqual(errors, []);
  await ctx.close();
});
