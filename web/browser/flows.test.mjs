// Issue 34's flows in a real browser, on a server of their own (a fresh
// database): the category paths that used to blank a page, a fresh
// dashboard after a submit, the teaching content in study mode and review,
// the end of a block, the review's filters and tools, flashcards with
// learning steps, intervals and undo, and the moderator's bank.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertText, mcq, screenClean, signIn, sitting, snap, tutorReply, until, useServer } from "./kit.mjs";

useServer();

/** quizOf puts questions into a published quiz a learner may sit. */
async function quizOf(call, title, mode, ids) {
  const quiz = await call("POST", "/questions/from-bank", { title, mode, question_ids: ids });
  await call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  return quiz;
}

test("flashcards: where decks come from, new cards of a shared deck due, the scheduler's intervals, Again in the same session, undo", async () => {
  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Flashcards" }).click();
  await page.getByRole("heading", { name: "No deck yet" }).waitFor();
  await assertText(page.locator(".empty"), "Decks come from the site's moderators and administrators");
  assert.deepEqual(await call("GET", "/flashcards"), []);
  await snap(page, "flashcards-empty");

  const mod = await signIn("moderator");
  const cat = await mod.call("POST", "/question-categories/", { name: "Pharmacology" });
  const deck = await mod.call("POST", "/flashcards/manual", { title: "Cardiac drugs", category_id: cat.id, description: "First-line agents." });
  const fronts = ["First-line drug for stable angina relief?", "Antidote to heparin?", "Drug that reverses dabigatran?"];
  for (const [front, back] of [[fronts[0], "Sublingual nitrate"], [fronts[1], "Protamine sulfate"], [fronts[2], "Idarucizumab"]])
    await mod.call("POST", `/flashcards/decks/${deck.id}/cards`, { card_type: "basic", front, back });
  await mod.call("PUT", `/flashcards/${deck.id}/share`);
  await mod.ctx.close();

  // The shared deck's three new cards count as due.
  await page.reload();
  await page.getByRole("heading", { name: "Cardiac drugs" }).waitFor();
  assert.equal((await call("GET", "/flashcards/study/queue")).items.length, 3);
  await page.getByRole("link", { name: "Review due cards (3)" }).waitFor();
  await snap(page, "flashcards");
  for (const v of await screenClean(page, "flashcards")) errors.push(v);

  await page.getByRole("link", { name: "Study Cardiac drugs" }).click();
  const card = page.getByRole("article", { name: "Card" });
  const front = () => card.locator(".stem").innerText();
  await card.locator(".stem").waitFor();
  const ids = Object.fromEntries((await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`)).items.map((c) => [c.question, c.card_id]));
  assert.equal(await front(), fronts[0]);
  await page.getByRole("button", { name: /Show answer/ }).click();
  await page.getByRole("note").waitFor();
  // Each rating says when the scheduler would bring the card back.
  const outcomes = await call("GET", `/flashcards/cards/${ids[fronts[0]]}/outcomes`);
  await assertText(page.getByTestId("ivl-again"), /^(<1|1) min$/);
  await assertText(page.getByTestId("ivl-good"), /min$/);
  assert.equal(await page.getByTestId("ivl-easy").innerText(), `${outcomes[3].scheduled_days} d`);
  await snap(page, "flashcard-review");
  for (const v of await screenClean(page, "flashcard review")) errors.push(v);
  await page.getByRole("button", { name: /^Again/ }).click();
  await assertText(page.getByTestId("last-grade"), /^Again: back in (<1|1) min\./);

  // The second by keyboard: space shows the answer, 3 is good.
  await until(async () => (await front()) === fronts[1], "the second card");
  await page.keyboard.press(" ");
  await page.getByRole("note").waitFor();
  await page.keyboard.press("3");
  await assertText(page.getByTestId("last-grade"), "Good: back in");

  // The third, rated easy, then taken back: new again, here and on the server.
  await until(async () => (await front()) === fronts[2], "the third card");
  await page.keyboard.press(" ");
  await page.keyboard.press("4");
  await assertText(page.getByTestId("last-grade"), "Easy: back");
  assert.ok(!(await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`)).items.some((c) => c.card_id === ids[fronts[2]]));
  await page.getByRole("button", { name: /^Undo the last rating/ }).click();
  await until(async () => (await front()) === fronts[2], "the undone card again");
  const back = (await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`)).items.find((c) => c.card_id === ids[fronts[2]]);
  assert.equal(back?.state, "new", "the undone card is new again on the server");
  await page.keyboard.press(" ");
  await page.keyboard.press("4");

  // Nothing new is left: the card rated Again comes back in the same session.
  await until(async () => (await front()) === fronts[0], "the card rated Again, back");
  await assertText(card.getByRole("heading"), "learning");
  await page.keyboard.press(" ");
  await page.keyboard.press("4");
  await until(async () => (await front()) === fronts[1], "the card rated Good, back");
  await page.keyboard.press(" ");
  await page.keyboard.press("4");
  await page.getByText("Done for now: 5 reviewed.").waitFor();
  assert.deepEqual((await call("GET", `/flashcards/study/queue?deck_id=${deck.id}`)).items, [], "every card is days away");
  assert.equal((await call("GET", `/flashcards/${deck.id}/forecast`)).unseen, 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("category paths cannot blank a page or change a filing: browse, categories, the editor and a draft batch share one cache", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const top = await call("POST", "/question-categories/", { name: "Vasculitis" });
  const child = await call("POST", "/question-categories/", { name: "Large vessel", parent_id: top.id });
  const q = await mcq(call, "Which artery does giant cell arteritis favour?", child.id, { options: ["Temporal", "Radial"], correct_answer: "Temporal" });
  // A draft batch to pass through as well.
  const form = new FormData();
  form.append("file", new Blob([readFileSync(join(import.meta.dirname, "paper.pdf"))], { type: "application/pdf" }), "paths.pdf");
  const doc = await call("POST", "/documents/upload", form);
  await until(async () => (await call("GET", `/documents/${doc.id}/status`)).status !== "processing", "the PDF processed");
  const sec = await call("POST", `/documents/${doc.id}/sections`, { name: "All", start_page: 1, end_page: 1 });
  const { job_id } = await call("POST", "/drafts/extract", { section_id: sec.id, model: "builtin" });
  await until(async () => (await call("GET", `/quizzes/job/${job_id}`)).status === "completed", "the extraction");
  const { batch_id } = await call("GET", `/quizzes/job/${job_id}`);

  const picker = (label) => page.getByLabel(label, { exact: true });
  const options = (label) => picker(label).locator("option").allTextContents();
  const blank = page.getByRole("heading", { name: "This page could not be shown" });
  const browse = async () => {
    await page.getByRole("link", { name: "Browse questions" }).click();
    await page.getByRole("heading", { name: "Browse questions" }).waitFor();
    await until(async () => (await options("Categories")).includes("\u00a0\u00a0Large vessel"), "the tree in the browser's picker");
  };
  const categories = async () => {
    await page.getByRole("link", { name: "Categories" }).click();
    await page.getByRole("list", { name: "Question categories" }).getByText("Large vessel").waitFor();
  };
  // Browse, then Categories, then Browse again (each order used to blank one).
  await browse();
  await categories();
  await browse();
  // The editor, then Browse; and Browse, then the editor: the right filing, named.
  await page.getByRole("link", { name: "Question bank" }).click();
  await page.getByLabel("Search", { exact: true }).fill("giant cell");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("link", { name: `Edit question ${q.id}` }).click();
  await page.getByRole("heading", { name: `Edit question ${q.id}` }).waitFor();
  assert.equal(await picker("Category").inputValue(), String(child.id));
  assert.equal((await picker("Category").locator("option:checked").innerText()).trim(), "Large vessel");
  assert.ok(!(await options("Category")).some((o) => o.trim() === ""), "no blank entries");
  await browse();
  await page.goBack();
  await page.getByRole("heading", { name: `Edit question ${q.id}` }).waitFor();
  assert.equal(await picker("Category").inputValue(), String(child.id));
  // A draft batch, then Browse.
  await page.getByRole("link", { name: "PDFs and drafts" }).click();
  await page.getByRole("link", { name: `Batch ${batch_id}` }).click();
  await page.getByLabel("Files into topic").waitFor();
  assert.ok((await options("Files into topic")).includes("\u00a0\u00a0Large vessel"));
  await browse();
  await categories();

  // Saving an edited question keeps its filing.
  await page.goto(page.url().replace(/\/categories$/, `/questions/${q.id}/edit`));
  await page.getByLabel("Stem").fill("Which artery does giant cell arteritis favour most?");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await assertText(page.getByTestId("editor-result"), "Saved as version");
  const saved = await call("GET", `/questions/detail/${q.id}`);
  assert.equal(saved.question_text, "Which artery does giant cell arteritis favour most?");
  assert.equal(saved.question_category_id, child.id, "the category is unchanged");
  assert.equal(await blank.count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a screen that fails to draw keeps to its route: the error is named and Try again draws it afresh", async () => {
  const { ctx, page, errors } = await signIn("learner");
  await page.getByRole("link", { name: "Quizzes" }).click();
  await page.getByRole("heading", { name: "Quizzes" }).waitFor();
  // The dashboard's answer comes back malformed (recent attempts not a list).
  await page.route("**/api/v1/attempts/stats/dashboard", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), recent_attempts: "broken" } });
  });
  await page.getByRole("link", { name: "Dashboard" }).click();
  await page.reload();
  await page.getByRole("heading", { name: "This page could not be shown" }).waitFor();
  await assertText(page.getByRole("alert"), "is not a function");
  // The rest of the page stays: the navigation still works.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Quizzes" }).waitFor();
  await snap(page, "route-failed");
  await page.unroute("**/api/v1/attempts/stats/dashboard");
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
  await page.getByText("Completed attempts").waitFor();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("teaching content: option explanations, key points and the attending's tip in study mode and in the review", async () => {
  const mod = await signIn("moderator");
  const q = await mcq(mod.call, "Which drug reverses heparin?", null, {
    options: ["Protamine", "Vitamin K", "Idarucizumab"],
    correct_answer: "Protamine",
    explanation: "Protamine binds heparin.",
    option_explanations: ["A cation that binds heparin.", "Reverses warfarin, slowly.", "Reverses dabigatran."],
    key_points: ["Protamine for heparin", "Idarucizumab for dabigatran"],
    attending_tip: "Give protamine slowly: it drops the pressure.",
  });
  const quiz = await quizOf(mod.call, "Reversal agents", "learning", [q.id]);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Quizzes" }).click();
  await page.getByRole("link", { name: "Study Reversal agents" }).click();
  await page.getByText("Study mode").waitFor();
  // Choosing an option shows the answer side in its place.
  await page.getByLabel(/Vitamin K/).click();
  const note = page.getByRole("note");
  await assertText(note, "The answer is Protamine.");
  for (const text of ["A cation that binds heparin.", "Reverses warfarin, slowly.", "Reverses dabigatran.", "Protamine binds heparin.", "Key points", "Idarucizumab for dabigatran", "Attending's tip: Give protamine slowly"])
    await assertText(note, text);
  await note.locator("li.wrong", { hasText: "Vitamin K" }).waitFor();
  await snap(page, "study");
  for (const v of await screenClean(page, "study mode")) errors.push(v);

  await page.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
  const item = page.getByRole("listitem", { name: "Question 1" });
  for (const text of ["Reverses warfarin, slowly.", "Key points", "Protamine for heparin", "Attending's tip: Give protamine slowly"]) await assertText(item, text);
  const attempt = await call("GET", `/attempts/${new URL(page.url()).pathname.split("/").pop()}`);
  assert.equal(attempt.quiz_id, quiz.id);
  assert.deepEqual([attempt.answers[0].user_answer, attempt.answers[0].attending_tip], ["Vitamin K", "Give protamine slowly: it drops the pressure."]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("the end of a block warns of unanswered questions and lists them with the flagged first; the review filters, shows flags, takes a report and asks the tutor", async () => {
  const admin = await signIn("admin");
  const models = await admin.call("POST", "/admin/models", { name: "Tutor", model_id: "tutor-1", task: "teach" });
  await admin.call("PUT", `/admin/models/${models.find((m) => m.model_id === "tutor-1").id}`, { is_default: true });
  await admin.ctx.close();
  const mod = await signIn("moderator");
  const qs = [];
  for (const [text, right] of [["Which valve opens with a snap?", "Mitral"], ["Which murmur radiates to the carotids?", "Aortic"], ["Which sound is a gallop?", "S3"]])
    qs.push(await mcq(mod.call, text, null, { options: [right, "Other"], correct_answer: right }));
  await quizOf(mod.call, "Heart sounds block", "timed", qs.map((q) => q.id));
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Quizzes" }).click();
  await page.getByRole("link", { name: "Sit Heart sounds block" }).click();
  await sitting(page);
  // Question 1 wrong, question 2 flagged and left open, question 3 right.
  await page.keyboard.press("b");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("f");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("a");
  await assertText(page.getByTestId("save-state"), "All answers saved");
  await page.getByRole("button", { name: "End of block" }).click();
  const check = page.getByRole("region", { name: "Before you submit" });
  await assertText(check.getByRole("alert"), "1 question of 3 is unanswered");
  assert.deepEqual(await check.getByRole("list", { name: /^Unanswered/ }).getByRole("button").allTextContents(), ["Question 2"]);
  assert.deepEqual(await check.getByRole("list", { name: /^Flagged/ }).getByRole("button").allTextContents(), ["Question 2"]);
  await snap(page, "end-of-block");
  for (const v of await screenClean(page, "end of block")) errors.push(v);
  await check.getByRole("button", { name: "Go to question 2 (unanswered)" }).click();
  await page.getByRole("heading", { name: /Question 2 of 3/ }).waitFor();
  await page.getByRole("button", { name: /^Submit/ }).click();
  await check.getByRole("button", { name: "Submit with 1 unanswered" }).click();
  await page.getByTestId("score").waitFor();

  const attemptId = new URL(page.url()).pathname.split("/").pop();
  const stored = await call("GET", `/attempts/${attemptId}`);
  assert.deepEqual(stored.answers.map((a) => [a.flagged, a.is_correct]), [[false, false], [true, false], [false, true]]);
  // The filters: all, the incorrect, the flagged (with its flag shown).
  const shown = () => page.locator(".review > li .stem").allInnerTexts();
  await page.getByRole("button", { name: "Incorrect (2)" }).click();
  assert.equal((await shown()).length, 2);
  await page.getByRole("button", { name: "Flagged (1)" }).click();
  await until(async () => (await shown()).length === 1, "the flagged question alone");
  assert.equal((await shown())[0], "Which murmur radiates to the carotids?");
  await page.locator(".review > li").filter({ hasText: "Which murmur radiates to the carotids?" }).locator(".badge.flag").waitFor();
  await page.getByRole("button", { name: "All (3)" }).click();
  await until(async () => (await shown()).length === 3, "every question again");

  // Report a problem with question 1.
  await page.getByRole("button", { name: "Report a problem with question 1" }).click();
  await page.getByLabel("What is wrong").selectOption("typo");
  await page.getByLabel("Details for the moderators").fill("Snap is misspelt in option B.");
  await page.getByRole("button", { name: "Send report" }).click();
  await page.getByText("Thank you: a moderator will look at question 1.").waitFor();
  const [report] = await call("GET", "/feedback/mine");
  assert.deepEqual([report.kind, report.target_id, report.type, report.text], ["question", qs[0].id, "typo", "Snap is misspelt in option B."]);

  // Ask the tutor about it; a follow-up is a click away.
  await page.getByRole("button", { name: "Ask the tutor about question 1" }).click();
  await page.getByLabel("Your question about question 1").fill("Why is it the mitral valve?");
  await page.getByRole("button", { name: "Ask", exact: true }).click();
  const tutor = page.getByRole("region", { name: "The tutor on question 1" });
  await assertText(tutor, tutorReply.split("\n")[0]);
  await tutor.getByRole("button", { name: "How fast does protamine act?" }).waitFor();
  await snap(page, "review-tools");
  for (const v of await screenClean(page, "review")) errors.push(v);
  await tutor.getByRole("button", { name: "How fast does protamine act?" }).click();
  await until(async () => (await tutor.locator(".talk li").count()) === 4, "the follow-up answered");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("the dashboard is fresh after a submit: what it shows is what the API says", async () => {
  const mod = await signIn("moderator");
  const q = await mcq(mod.call, "Fresh dashboard question?");
  await quizOf(mod.call, "Fresh dashboard quiz", "timed", [q.id]);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  const shown = async () => [Number(await page.getByTestId("completed").innerText()), Number(await page.getByTestId("in-progress").innerText())];
  const before = await call("GET", "/attempts/stats/dashboard");
  assert.deepEqual(await shown(), [before.completed_attempts, before.in_progress]);
  await page.getByRole("link", { name: "Quizzes" }).click();
  await page.getByRole("link", { name: "Sit Fresh dashboard quiz" }).click();
  await sitting(page);
  await page.keyboard.press("a");
  await assertText(page.getByTestId("save-state"), "All answers saved");
  // A look at the dashboard mid-sitting reads it (one in progress), and
  // the cache keeps that read for a while.
  await page.getByRole("link", { name: "Dashboard" }).click();
  await until(async () => (await shown())[1] === before.in_progress + 1, "the sitting counted in progress");
  await page.goBack();
  await sitting(page);
  await page.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  const after = await call("GET", "/attempts/stats/dashboard");
  assert.equal(after.completed_attempts, before.completed_attempts + 1);
  await until(async () => JSON.stringify(await shown()) === JSON.stringify([after.completed_attempts, after.in_progress]), "the dashboard's counts as the API gives them");
  await page.getByRole("link", { name: "Fresh dashboard quiz" }).waitFor();
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("the moderator's bank: a category filter, paging, and a new question written on screen", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const cat = await call("POST", "/question-categories/", { name: "Paging" });
  for (let i = 1; i <= 30; i++) await mcq(call, `Paging question ${String(i).padStart(2, "0")}?`, cat.id);
  const { total } = await call("GET", "/questions/bank?limit=1");
  await page.getByRole("link", { name: "Question bank" }).click();
  const count = page.getByTestId("bank-count");
  await assertText(count, `1–25 of ${total} questions`);
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "1–25 of 30 questions");
  const pages = page.getByRole("navigation", { name: "Question bank pages" });
  await pages.getByRole("button", { name: "Next" }).click();
  await assertText(count, "26–30 of 30 questions");
  assert.equal(await page.locator("ol.bank > li").count(), 5);
  await snap(page, "bank-paged");
  for (const v of await screenClean(page, "bank")) errors.push(v);
  await pages.getByRole("button", { name: "Previous" }).click();
  await assertText(count, "1–25 of 30 questions");

  await page.getByRole("link", { name: "New question" }).click();
  await page.getByRole("heading", { name: "New question" }).waitFor();
  await page.getByLabel("Stem").fill("Paging question 31: which nerve pages the heart?");
  await page.getByLabel("Options").fill("Vagus\nPhrenic");
  await page.getByLabel("Answer", { exact: true }).selectOption("Vagus");
  await page.getByLabel("Key points").fill("The vagus slows the heart");
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await snap(page, "question-new");
  for (const v of await screenClean(page, "new question")) errors.push(v);
  await page.getByRole("button", { name: "Add to the bank" }).click();
  await page.getByRole("heading", { name: /^Edit question \d+$/ }).waitFor();
  const id = Number(new URL(page.url()).pathname.split("/")[2]);
  const made = await call("GET", `/questions/detail/${id}`);
  assert.deepEqual([made.options, made.correct_answer, made.key_points, made.question_category_id], [["Vagus", "Phrenic"], "Vagus", ["The vagus slows the heart"], cat.id]);
  await page.getByRole("link", { name: "Question bank" }).first().click();
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "of 31 questions");
  assert.deepEqual(errors, []);
  await ctx.close();
});
