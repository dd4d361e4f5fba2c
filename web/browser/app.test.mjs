// The client in a real browser (Debian's chromium through playwright-core)
// against a real server with its own database and the development sign-in
// provider. SCREENSHOTS=dir saves each main screen there, light and dark.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { answerAll, assertText, axeCheck, env, mcq, phoneFits, png, signIn, sitting, snap, until, useServer, widening } from "./kit.mjs";

useServer();

const navLinks = (page) => page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
const navGroups = (page) => page.getByRole("navigation", { name: "Main" }).locator(".nav-title").allTextContents();

test("each role sees the navigation its role reaches, grouped by area, from the one route table", async () => {
  const learn = ["Dashboard", "Quizzes", "Create a block", "Study plans", "Exams", "Flashcards", "Browse questions", "Collections", "Library", "Lab values"];
  const content = ["Question bank", "PDFs and drafts", "Article editor", "Categories", "Feedback", "Trash", "Bank statistics", "Grants"];
  const adminOnly = ["AI models", "AI usage", "Settings", "People", "Messages", "Event outbox"];
  const you = ["Shared links", "Devices", "Contact"];
  const expect = {
    learner: [["Learn", "You"], [...learn, ...you]],
    moderator: [["Learn", "Content", "You"], [...learn, ...content, ...you]],
    admin: [["Learn", "Content", "Admin", "You"], [...learn, ...content, ...adminOnly, ...you]],
  };
  for (const [role, [groups, links]] of Object.entries(expect)) {
    const { ctx, page, errors } = await signIn(role, { snapSignIn: role === "learner" });
    assert.deepEqual(await navGroups(page), groups, role);
    assert.deepEqual(await navLinks(page), links, role);
    // Each group is a list named by its title.
    for (const g of groups) await page.getByRole("navigation", { name: "Main" }).getByRole("list", { name: g }).waitFor();
    if (role === "learner") {
      // A route beyond the role is not offered (the server refuses it anyway).
      await page.goto(`${env.srv.base}/models`);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
    }
    if (role === "moderator") {
      await page.getByRole("link", { name: "Question bank" }).click();
      await page.getByText(/\d+ questions/).waitFor();
      assert.equal(await page.getByRole("link", { name: "Question bank" }).getAttribute("aria-current"), "page");
      await snap(page, "bank");
    }
    assert.deepEqual(errors.filter((e) => !(role === "learner" && /\/models$/.test(e))), [], `${role}: no errors in the page`);
    await ctx.close();
  }
});

test("a learner sits a timed quiz through a reload and a dropped network, then reviews it", async () => {
  const { ctx, page, errors, call } = await signIn("learner");
  await snap(page, "dashboard");
  await page.getByRole("link", { name: "Quizzes" }).click();
  const sit = page.getByRole("link", { name: /^Sit .*timed review/ }).first();
  await sit.waitFor();
  await snap(page, "quizzes");
  await sit.click();

  const saved = page.getByTestId("save-state");
  await page.getByRole("timer", { name: "Time left" }).waitFor();
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

  // The network drops: the answer waits in the browser's queue, shown waiting, and is saved on return.
  await ctx.setOffline(true);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("c");
  await assertText(saved, "Offline — 1 answer waiting");
  const third = await picked();
  await ctx.setOffline(false);
  await assertText(saved, "All answers saved");

  // Question 2 is flagged: the end of the block lists it before submitting.
  const total = await page.locator(".grid button").count();
  await page.getByRole("button", { name: /^Submit/ }).click();
  const check = page.getByRole("region", { name: "Before you submit" });
  await check.getByRole("button", { name: "Go to question 2 (flagged)" }).waitFor();
  await check.getByRole("button", { name: /^Submit/ }).click();
  await page.getByTestId("score").waitFor();
  for (const [stem, answer] of [first, second, third]) {
    const item = page.locator(".review > li").filter({ hasText: stem });
    assert.equal(await item.locator("strong").first().innerText(), answer, `the stored answer to "${stem}"`);
  }
  // Everyone's figures arrive once analytics has counted the sitting: this
  // learner's own answer is among them, so each answered question has a line.
  await assertText(page.getByTestId("percentile"), /Your percentile: \d+ among the \d+ timed sittings? of this quiz/);
  const firstPeers = page.locator(".review > li").filter({ hasText: first[0] }).locator(".peers");
  await assertText(firstPeers, new RegExp(`answers? from everyone · \\d+% correct · .*${first[1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: \\d+%`));
  await snap(page, "review");
  // A question met in a review can be kept: starred here, it is a favourite.
  const star = page.locator(".review > li").filter({ hasText: first[0] }).getByRole("button", { name: /^Favourite question \d+$/ });
  const starred = Number((await star.getAttribute("aria-label")).split(" ").pop());
  await star.click();
  await until(async () => (await star.getAttribute("aria-pressed")) === "true", "the star pressed");
  assert.ok((await call("GET", "/favorites")).includes(starred), "the review's star is a stored favourite");
  // Unstarred again: later tests count this learner's favourites.
  await star.click();
  await until(async () => (await star.getAttribute("aria-pressed")) === "false", "the star released");
  assert.ok(!(await call("GET", "/favorites")).includes(starred));

  // The flag went with the submission: the review and the API show it.
  const attempt = await call("GET", `/attempts/${new URL(page.url()).pathname.split("/").pop()}`);
  assert.deepEqual(attempt.answers.filter((x) => x.flagged).map((x) => x.position), [1]);
  assert.equal(attempt.answers.length, total);
  await page.locator(".review > li").filter({ hasText: second[0] }).locator(".badge.flag").waitFor();

  await page.getByRole("link", { name: "Devices" }).click();
  await page.getByRole("rowheader", { name: /^Web \(Chrome\)/ }).first().waitFor();
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
  await a.page.getByRole("timer", { name: "Time left" }).waitFor();
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

test("a PDF becomes questions on screen: upload with progress, pages and state, a section, an extraction followed live, a draft fixed until ready, bulk accept and reject; then feedback", async () => {
  const learner = await signIn("learner");
  const [quiz] = await learner.call("GET", "/quizzes/");
  const detail = await learner.call("GET", `/quizzes/${quiz.id}`);
  const question = detail.questions[0];
  await learner.call("POST", "/feedback", { kind: "question", target_id: question.id, type: "unclear", text: "Two options look right." });

  const { ctx, page, errors, call } = await signIn("moderator");
  await page.getByRole("link", { name: "PDFs and drafts" }).click();
  await page.getByRole("heading", { name: "PDFs and drafts" }).waitFor();
  const pdf = readFileSync(join(import.meta.dirname, "paper.pdf"));
  await page.getByLabel("PDF file").setInputFiles({ name: "cardiology.pdf", mimeType: "application/pdf", buffer: pdf });
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  // The upload's progress: all of the file sent.
  await page.getByRole("link", { name: "open cardiology.pdf" }).waitFor();
  const bar = page.locator("#upload-progress");
  assert.equal(await bar.getAttribute("value"), await bar.getAttribute("max"));
  assert.ok(Number(await bar.getAttribute("max")) >= pdf.length, "the whole file counted");
  await assertText(page.getByTestId("upload-progress"), `${Math.ceil(pdf.length / 1024)} kB of`);
  const [doc] = await call("GET", "/documents/");
  assert.equal(doc.original_filename, "cardiology.pdf");
  assert.equal(doc.size_bytes, pdf.length);

  // The document: its state followed live until ready, and its pages.
  await page.getByRole("link", { name: "open cardiology.pdf" }).click();
  await page.getByRole("heading", { name: "cardiology.pdf", level: 1 }).waitFor();
  await assertText(page.getByTestId("doc-state"), "ready");
  const stored = await call("GET", `/documents/${doc.id}`);
  assert.equal(stored.status, "ready");
  await assertText(page.getByTestId("doc-pages"), String(stored.total_pages));
  await page.getByText("Processing steps").click();
  await page.getByRole("listitem").filter({ hasText: /^ready/ }).first().waitFor();

  // A section of the pages, named on screen.
  await page.getByLabel("Name", { exact: true }).fill("Cardiology");
  await page.getByLabel("First page").fill("1");
  await page.getByLabel(/^Last page/).fill(String(stored.total_pages));
  await page.getByRole("button", { name: "Add section" }).click();
  await page.getByText("Section Cardiology added.").waitFor();
  const [sec] = (await call("GET", `/documents/${doc.id}`)).sections;
  assert.deepEqual([sec.name, sec.start_page, sec.end_page], ["Cardiology", 1, stored.total_pages]);

  // Vision with the built-in extractor is refused by the server, and says why.
  const jobs = async () => (await call("GET", "/quizzes/jobs")) ?? [];
  const before = (await jobs()).length;
  await page.getByRole("button", { name: "Extract questions from Cardiology" }).click();
  await page.getByLabel("Reading mode").selectOption("vision");
  await page.getByLabel("Model", { exact: true }).selectOption("builtin");
  await page.getByRole("button", { name: "Start extraction" }).click();
  await page.getByRole("alert").filter({ hasText: /vision/i }).waitFor();
  assert.equal((await jobs()).length, before, "a refused extraction queues nothing");
  // Text with the built-in extractor runs, followed live to its batch.
  await page.getByLabel("Reading mode").selectOption("text");
  await page.getByRole("button", { name: "Start extraction" }).click();
  await assertText(page.getByTestId("extract-job"), "Extraction: Done");
  const review = page.getByRole("link", { name: /^Review batch \d+$/ });
  const batchId = Number((await review.innerText()).split(" ").pop());
  const job = (await jobs()).find((j) => j.batch_id === batchId);
  assert.deepEqual([job.reading_mode, job.model, job.section_id], ["text", "builtin", sec.id]);
  await page.getByRole("heading", { name: "Extract questions from Cardiology" }).scrollIntoViewIfNeeded();
  await snap(page, "document");
  await review.click();

  await page.getByRole("heading", { name: `Batch ${batchId}` }).waitFor();
  await page.locator(".draft").first().waitFor();
  const drafts = await call("GET", `/drafts/batches/${batchId}/drafts`);
  const unready = drafts.filter((d) => !d.ready);
  assert.ok(drafts.some((d) => d.ready) && unready.length, "the paper has ready and unready drafts");
  const [cat] = await call("GET", "/question-categories/");
  await page.getByLabel("Files into topic").selectOption(String(cat.id));
  await until(async () => (await call("GET", `/drafts/batches/${batchId}`)).category_id === cat.id, "the batch filed into a topic");

  // A draft that is not ready is fixed on screen until the server calls it ready.
  const fix = unready[0];
  const item = page.getByRole("listitem", { name: `Draft ${fix.position}`, exact: true });
  await item.getByRole("list", { name: `Why draft ${fix.position} is not ready` }).waitFor();
  await item.getByRole("button", { name: `Edit draft ${fix.position}` }).click();
  const options = (fix.options ?? []).length >= 2 ? fix.options : ["Mitral stenosis", "Aortic stenosis"];
  await item.getByLabel("Type").selectOption("mcq");
  await item.getByLabel("Options (one a line)").fill(options.join("\n"));
  await item.getByLabel("Correct answer").selectOption(options[0]);
  await item.getByLabel("Explanation").fill("Fixed on screen.");
  await snap(page, "draft-edit");
  await item.getByRole("button", { name: "Save draft" }).click();
  await item.locator(".badge.ok", { hasText: "ready" }).waitFor();
  const fixed = await call("GET", `/drafts/${fix.id}`);
  assert.deepEqual([fixed.ready, fixed.correct_answer, fixed.explanation], [true, options[0], "Fixed on screen."]);

  // In bulk: every ready draft accepted, all or nothing.
  const ready = (await call("GET", `/drafts/batches/${batchId}/drafts`)).filter((d) => d.ready);
  await page.getByRole("button", { name: "Select every ready draft" }).click();
  await page.getByRole("button", { name: `Accept ${ready.length}` }).click();
  await assertText(page.getByTestId("review-result"), `Accepted ${ready.length} into the bank.`);
  await snap(page, "drafts");
  const left = drafts.length - ready.length;
  if (left > 0) {
    await page.getByRole("button", { name: "Select every pending draft" }).click();
    await page.getByRole("button", { name: `Reject ${left}` }).click();
    await assertText(page.getByTestId("review-result"), `Rejected ${left}.`);
    const rejected = (await call("GET", `/drafts/batches/${batchId}/drafts?status=rejected`))[0];
    await page.getByRole("button", { name: `Reopen draft ${rejected.position}` }).click();
    await assertText(page.getByTestId("review-result"), "Reopened.");
  }
  const batch = await call("GET", `/drafts/batches/${batchId}`);
  assert.deepEqual(batch.counts, { accepted: ready.length, rejected: Math.max(0, left - 1), pending: Math.min(left, 1), total: drafts.length });
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
  // The one failure in the page was the refused extraction.
  assert.deepEqual(errors.filter((e) => !/^400 .*\/drafts\/extract$/.test(e)), []);
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

  // Settings: each under its label with what 0 means, checked before it is sent.
  await page.getByRole("link", { name: "Settings" }).click();
  const schema = await call("GET", "/admin/settings/schema");
  for (const d of schema) {
    await page.getByRole("form", { name: d.label }).waitFor();
    assert.ok(!(await page.locator("main").innerText()).includes(d.key), `the raw key ${d.key} is not shown`);
  }
  const quota = page.getByRole("spinbutton", { name: "Tutor questions a day" });
  await assertText(page.getByRole("form", { name: "Tutor questions a day" }), "0 means no daily limit");
  const save = page.getByRole("button", { name: "Save Tutor questions a day" });
  for (const [typed, why] of [["-1", "must be from 0 to 1000000"], ["2.5", "must be a whole number"], ["", "must be a number"]]) {
    await quota.fill(typed);
    await save.click();
    await assertText(page.locator("#set-tutor_daily_quota-error"), why);
    assert.equal(await quota.getAttribute("aria-invalid"), "true");
  }
  assert.equal((await call("GET", "/admin/settings")).tutor_daily_quota, 0, "nothing invalid was stored");
  await page.locator("#set-tutor_daily_quota-error").scrollIntoViewIfNeeded();
  await snap(page, "settings-invalid");
  await quota.fill("40");
  await save.click();
  await page.getByText("Saved Tutor questions a day.").waitFor();
  assert.equal((await call("GET", "/admin/settings")).tutor_daily_quota, 40);
  await snap(page, "settings");
  await quota.fill("0");
  await save.click();
  await page.getByText("Saved Tutor questions a day.").waitFor();
  assert.equal((await call("GET", "/admin/settings")).tutor_daily_quota, 0);

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

test("a moderator edits an article and a question, then restores the earlier revision and version", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  await page.getByRole("link", { name: "Article editor" }).click();
  await page.getByLabel("New article title").fill("Renal tubular acidosis");
  await page.getByRole("button", { name: "Start a draft" }).click();
  await page.getByRole("heading", { name: "Edit: Renal tubular acidosis" }).waitFor();
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await page.getByLabel("Text of section 1").fill("Type 1 is distal; see [[electrolytes]].");
  await page.getByRole("button", { name: "Add section" }).click();
  await page.getByLabel("Heading").nth(1).fill("Treatment");
  await page.getByLabel("Text of section 2").fill("Alkali therapy.");
  await page.getByLabel("Note on this change").fill("first text");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await assertText(page.getByTestId("editor-result"), "Saved");
  let stored = await call("GET", `/articles/${id}`);
  assert.deepEqual(stored.sections.map((s) => s.heading), ["Overview", "Treatment"]);
  await page.getByRole("button", { name: "Publish" }).click();
  await assertText(page.getByTestId("editor-result"), "Now published.");
  assert.equal((await call("GET", `/articles/${id}`)).status, "published");
  await snap(page, "article-editor");
  // The revision kept before the save holds the empty first draft.
  await page.getByRole("button", { name: /^Restore the revision/ }).last().click();
  await assertText(page.getByTestId("editor-result"), "Revision restored.");
  stored = await call("GET", `/articles/${id}`);
  assert.deepEqual(stored.sections.map((s) => s.markdown), [""]);

  const bank = await call("GET", "/questions/bank?limit=1");
  const q = bank.questions[0];
  await page.getByRole("link", { name: "Question bank" }).click();
  await page.getByRole("link", { name: `Edit question ${q.id}` }).click();
  const stem = page.getByLabel("Stem");
  await stem.fill(`${q.question_text} (reworded)`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await assertText(page.getByTestId("editor-result"), "Saved as version");
  assert.equal((await call("GET", `/questions/detail/${q.id}`)).question_text, `${q.question_text} (reworded)`);
  await page.getByText("differs in stem").waitFor();
  await snap(page, "question-editor");
  await page.getByRole("button", { name: /^Restore the version/ }).first().click();
  await assertText(page.getByTestId("editor-result"), "Version restored.");
  assert.equal((await call("GET", `/questions/detail/${q.id}`)).question_text, q.question_text);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("a moderator builds a plan and an exam; a learner sits a block with the lab panel open, then the exam, and reads the result", async () => {
  const mod = await signIn("moderator");
  // A learner may sit what published quizzes hold.
  const [quiz] = await mod.call("GET", "/quizzes/");
  const open = (await mod.call("GET", `/quizzes/${quiz.id}`)).questions.map((q) => q.id).slice(0, 2);
  assert.equal(open.length, 2, "a published quiz with two questions");

  await mod.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Study plans" }).click();
  await mod.page.getByLabel("Title").fill("Final-year revision");
  await mod.page.getByLabel("Exam date").fill(new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10));
  await mod.page.getByRole("button", { name: "Create plan" }).click();
  await mod.page.getByRole("heading", { name: "Final-year revision" }).waitFor();
  const planId = Number(new URL(mod.page.url()).pathname.split("/").pop());
  await mod.page.getByLabel("Block title").fill("Week 1");
  await mod.page.getByLabel("Question ids").fill(open.join(", "));
  await mod.page.getByRole("button", { name: "Add block" }).click();
  await mod.page.getByRole("heading", { name: "Week 1" }).waitFor();
  await mod.page.getByRole("button", { name: "Publish" }).click();
  await mod.page.getByRole("button", { name: "Retire" }).waitFor();
  assert.equal((await mod.call("GET", `/study-plans/${planId}`)).is_published, 1);

  await mod.page.getByRole("link", { name: "Exams" }).click();
  await mod.page.getByLabel("Exam title").fill("Mock paper");
  await mod.page.getByLabel("Questions").fill("2");
  await mod.page.getByLabel("Minutes").fill("10");
  await mod.page.getByLabel("Domain 1", { exact: true }).fill("Core");
  await mod.page.getByLabel("Question ids (optional)").fill(open.join(" "));
  await mod.page.getByRole("button", { name: "Draw exam" }).click();
  await mod.page.getByRole("heading", { name: "Mock paper" }).waitFor();
  const [exam] = await mod.call("GET", "/exams");
  assert.equal(exam.question_count, 2);
  assert.deepEqual(mod.errors, []);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Study plans" }).click();
  await page.getByRole("link", { name: "Final-year revision" }).click();
  await page.getByRole("button", { name: "Enrol" }).click();
  await page.getByText("enrolled", { exact: true }).waitFor();
  await snap(page, "plan");
  await page.getByRole("button", { name: "Sit timed: Week 1" }).click();
  await sitting(page);
  await page.getByRole("button", { name: "Lab values" }).click();
  const panel = page.getByRole("complementary", { name: "Lab values" });
  await panel.getByLabel("Find a test").fill("potassium");
  await panel.getByRole("rowheader", { name: "Potassium", exact: true }).waitFor();
  await snap(page, "sitting-labs");
  // Keys answer only outside a field: leave the panel's filter first.
  await page.locator(".stem").click();
  await answerAll(page);
  await until(async () => (await call("GET", `/study-plans/${planId}`)).blocks_completed === 1, "the block counted done");

  await page.getByRole("link", { name: "Exams" }).click();
  await page.getByRole("button", { name: "Sit Mock paper" }).click();
  await sitting(page);
  await answerAll(page);
  await until(async () => {
    try {
      return (await call("GET", `/exam-results/${exam.id}`)).total === 2;
    } catch {
      return false;
    }
  }, "the exam result");
  await page.getByRole("link", { name: "Exams" }).click();
  await page.getByRole("link", { name: "Result of Mock paper" }).click();
  await page.getByText("Percentile").waitFor();
  await snap(page, "exam-result");
  // A saved test's quiz detail is refused to its learner (404): the sitting
  // then reads the attempt's questions instead.
  assert.deepEqual(errors.filter((e) => !/^404 .*\/api\/v1\/quizzes\/\d+\?study=/.test(e)), []);
  await ctx.close();
});

test("lab values, a share link opened signed out then revoked, and a contact message an admin reads", async () => {
  const { ctx, page, errors, call } = await signIn("learner");
  await page.getByRole("link", { name: "Lab values" }).click();
  await page.getByRole("button", { name: /^Haematology/ }).click();
  await page.getByRole("rowheader", { name: /Haemoglobin/ }).first().waitFor();
  await snap(page, "labs");

  await page.getByRole("link", { name: "Shared links" }).click();
  await page.getByLabel("What").selectOption("quiz");
  const [quiz] = await call("GET", "/quizzes/");
  await page.getByLabel("Quiz", { exact: true }).selectOption(String(quiz.id));
  await page.getByRole("button", { name: "Make link" }).click();
  const url = await page.getByLabel("New link").inputValue();
  assert.match(url, /\/s\/[^/]+$/);
  await page.getByRole("rowheader", { name: `${quiz.title} (Quiz)` }).waitFor();
  await snap(page, "shares");

  const visitor = await env.browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "light" });
  const v = await visitor.newPage();
  await v.goto(url);
  await v.getByRole("heading", { name: quiz.title }).waitFor();
  await snap(v, "shared");
  assert.deepEqual(await axeCheck(v), [], "the shared view: no serious axe violation");
  await page.getByRole("button", { name: `Revoke the link to ${quiz.title}` }).click();
  await page.getByText("revoked", { exact: true }).waitFor();
  const [link] = await call("GET", "/share/links");
  assert.equal(link.status, "revoked");
  await v.reload();
  await v.getByRole("alert").waitFor();
  await visitor.close();

  await page.getByRole("link", { name: "Contact" }).click();
  await page.getByLabel("About").selectOption("content");
  await page.getByLabel("Message").fill("Please add more renal questions.");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByText("Sent.").waitFor();
  await snap(page, "contact");
  assert.deepEqual(errors, []);
  await ctx.close();

  const admin = await signIn("admin");
  await admin.page.getByRole("link", { name: "Messages" }).click();
  await admin.page.getByText("Please add more renal questions.").waitFor();
  await snap(admin.page, "messages");
  await admin.page.getByRole("button", { name: /^Mark the message from/ }).first().click();
  await until(async () => (await admin.call("GET", "/contact/submissions?unread=true")).length === 0, "the message marked read");
  await admin.page.getByRole("link", { name: "AI usage" }).click();
  await admin.page.getByRole("heading", { name: "AI usage" }).waitFor();
  await admin.page.getByText(/Total|No model call/).first().waitFor();
  await snap(admin.page, "usage");
  assert.deepEqual(admin.errors, []);
  await admin.ctx.close();
});


/** upload places an image on an article's section through the API and returns the figure. */
async function upload(call, page, articleId, sectionId, caption) {
  const form = new FormData();
  form.append("file", new Blob([await png(page)], { type: "image/png" }), "figure.png");
  form.append("section_id", sectionId);
  form.append("caption", caption);
  return call("POST", `/articles/${articleId}/figures/image`, form);
}

test("article editor: a figure uploaded, recaptioned and removed; AI cards, refine and draft as jobs with live progress and clear failures", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const art = await call("POST", "/articles/", { title: "Valve disease", sections: [{ heading: "Causes", markdown: "Rheumatic fever." }, { heading: "Signs", markdown: "A snap." }] });
  const signs = art.sections[1].id;
  await page.getByRole("link", { name: "Article editor" }).click();
  await page.getByRole("link", { name: "Valve disease" }).click();
  await page.getByRole("heading", { name: "Edit: Valve disease" }).waitFor();

  await page.getByLabel("Image file").setInputFiles({ name: "snap.png", mimeType: "image/png", buffer: await png(page) });
  await page.getByLabel("Into section").selectOption({ label: "Signs" });
  await page.getByLabel("Caption (also the alt text)").fill("Phonocardiogram of the snap");
  await page.getByLabel("Credit", { exact: true }).fill("Rounds");
  await page.getByRole("button", { name: "Upload figure" }).click();
  await page.getByText('Figure "Phonocardiogram of the snap" added.').waitFor();
  const img = page.getByRole("img", { name: "Phonocardiogram of the snap" });
  await img.waitFor();
  await until(() => img.evaluate((i) => i.complete && i.naturalWidth > 0), "the figure loaded through /uploads");
  const [fig] = await call("GET", `/articles/${art.id}/figures`);
  assert.equal(fig.section_id, signs);
  assert.equal(fig.asset.caption, "Phonocardiogram of the snap");
  // The figure is written into its section, and the editor shows the stored text.
  assert.ok((await call("GET", `/articles/${art.id}`)).sections[1].markdown.includes(fig.asset.path), "the figure line is in the section");
  await until(async () => (await page.getByLabel("Text of section 2").inputValue()).includes(fig.asset.path), "the editor reloaded the section");

  await page.getByLabel(`Caption of figure ${fig.asset.id}`).fill("Opening snap, phonocardiogram");
  await page.getByRole("button", { name: "Save caption" }).click();
  await page.getByText("Caption saved.").waitFor();
  assert.equal((await call("GET", `/media/${fig.asset.id}`)).caption, "Opening snap, phonocardiogram");
  await page.getByRole("heading", { name: "Figures" }).scrollIntoViewIfNeeded();
  await snap(page, "article-figures");
  assert.deepEqual(await axeCheck(page), [], "the figures panel: no serious axe violation");
  await page.getByRole("button", { name: `Remove figure ${fig.asset.id} from the article` }).click();
  await page.getByText("No figure yet.").waitFor();
  assert.deepEqual(await call("GET", `/articles/${art.id}/figures`), []);

  // No flashcard model: the job fails and says why.
  await page.getByRole("button", { name: "Make flashcards with AI" }).click();
  const job = page.getByTestId("ai-job");
  await assertText(job, "Failed: no flashcard model configured");
  await job.getByRole("alert").waitFor();
  await snap(page, "article-ai-failed");

  // With an article model the refinement runs to the end and the editor shows its text.
  const admin = await signIn("admin");
  const models = await admin.call("POST", "/admin/models", { name: "Writer", model_id: "writer-1", task: "article" });
  await admin.call("PUT", `/admin/models/${models.find((m) => m.model_id === "writer-1").id}`, { is_default: true });
  await admin.ctx.close();
  await page.getByLabel("Instructions for the model (optional)").fill("shorter");
  await page.getByRole("button", { name: "Refine with AI" }).click();
  await assertText(job, "AI refinement: Done (saved");
  await until(async () => (await page.getByLabel("Text of section 1").inputValue()) === "Rheumatic fever, mostly.", "the refined text in the editor");
  const refined = await call("GET", `/articles/${art.id}`);
  assert.deepEqual(refined.sections.map((s) => s.markdown), ["Rheumatic fever, mostly.", "An opening snap after S2."]);
  assert.equal((await call("GET", `/articles/${art.id}/revisions`))[0].note, "AI refinement of the whole article");
  await snap(page, "article-ai");

  // A draft from a topic, from the article list.
  await page.getByRole("link", { name: "Article editor" }).click();
  await page.getByLabel("Topic").fill("Mitral stenosis");
  await page.getByRole("checkbox", { name: "bank" }).check();
  await page.getByRole("button", { name: "Draft with AI" }).click();
  await assertText(page.getByTestId("ai-job"), "AI draft: Done");
  assert.deepEqual(await axeCheck(page), [], "the AI draft panel: no serious axe violation");
  await page.getByRole("link", { name: "Open the new draft" }).click();
  await page.getByRole("heading", { name: "Edit: Mitral stenosis" }).waitFor();
  const draft = await call("GET", `/articles/${Number(new URL(page.url()).pathname.split("/").pop())}`);
  assert.equal(draft.status, "draft");
  assert.deepEqual(draft.sections.map((s) => s.heading), ["Causes", "Signs"]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("question editor: every field, the server's messages by their fields, a field-by-field diff and a restore", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const cat = await call("POST", "/question-categories/", { name: "Haematology drugs" });
  const q = await call("POST", "/questions/create", {
    question_text: "Which drug reverses heparin?", question_type: "mcq", options: ["Protamine", "Vitamin K"], correct_answer: "Protamine", explanation: "It binds heparin.",
  });
  const art = await call("POST", "/articles/", { title: "Anticoagulant reversal", sections: [{ heading: "Heparin", markdown: "Protamine." }] });
  const fig = await upload(call, page, art.id, art.sections[0].id, "Protamine vial");
  await page.goto(`${env.srv.base}/questions/${q.id}/edit`);
  await page.getByRole("heading", { name: `Edit question ${q.id}` }).waitFor();

  // A repeated option: the server's message shows by the options field.
  await page.getByLabel("Options").fill("Protamine\nVitamin K\nProtamine");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await assertText(page.locator("#q-options-error"), 'option "Protamine" appears twice');
  assert.equal(await page.getByLabel("Options").getAttribute("aria-invalid"), "true");
  await page.locator("#q-options-error").scrollIntoViewIfNeeded();
  await snap(page, "question-editor-invalid");
  assert.equal((await call("GET", `/questions/detail/${q.id}`)).version, q.version, "nothing stored");

  await page.getByLabel("Options").fill("Protamine\nVitamin K\nIdarucizumab");
  await page.getByLabel("Why each option").fill("Binds heparin.\nReverses warfarin.\nReverses dabigatran.");
  await page.getByLabel("Key points").fill("Protamine for heparin\nIdarucizumab for dabigatran");
  await page.getByLabel("Attending's tip").fill("Give it slowly.");
  await page.getByLabel("Question image").selectOption({ label: "Protamine vial" });
  await page.getByRole("img", { name: "Question image: Protamine vial" }).waitFor();
  await page.getByLabel("Category").selectOption({ label: "Haematology drugs" });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await assertText(page.getByTestId("editor-result"), "Saved as version");
  const stored = await call("GET", `/questions/detail/${q.id}`);
  assert.deepEqual(stored.options, ["Protamine", "Vitamin K", "Idarucizumab"]);
  assert.deepEqual(stored.option_explanations, ["Binds heparin.", "Reverses warfarin.", "Reverses dabigatran."]);
  assert.deepEqual(stored.key_points, ["Protamine for heparin", "Idarucizumab for dabigatran"]);
  assert.equal(stored.attending_tip, "Give it slowly.");
  assert.equal(stored.image_path, fig.asset.path);
  assert.equal(stored.question_category_id, cat.id);

  await page.getByText("differs in options, option explanations, key points, tip, image").waitFor();
  await page.getByText("Compare with now").click();
  const row = page.getByRole("row", { name: /^options/ });
  assert.equal(await row.locator("del").innerText(), "Protamine · Vitamin K");
  assert.equal(await row.locator("ins").innerText(), "Protamine · Vitamin K · Idarucizumab");
  await page.getByRole("button", { name: /^Restore the version/ }).first().scrollIntoViewIfNeeded();
  await snap(page, "question-diff");
  assert.deepEqual(await axeCheck(page), [], "the question editor: no serious axe violation");
  await page.getByRole("button", { name: /^Restore the version/ }).first().click();
  await assertText(page.getByTestId("editor-result"), "Version restored.");
  const back = await call("GET", `/questions/detail/${q.id}`);
  assert.deepEqual(back.options, ["Protamine", "Vitamin K"]);
  assert.equal(back.image_path, null);
  await until(async () => (await page.getByLabel("Options").inputValue()) === "Protamine\nVitamin K", "the restored options in the form");
  // The only failure in the page was the refused save.
  assert.deepEqual(errors.filter((e) => !new RegExp(`^422 .*/questions/${q.id}$`).test(e)), []);
  await ctx.close();
});

test("lab values: a moderator adds a value (the server's message by its field), publishes it with a new range and deletes it", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  await page.getByRole("link", { name: "Lab values" }).click();
  await page.getByRole("heading", { name: "Edit reference values" }).waitFor();
  const fill = async (fields) => {
    for (const [label, v] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(v);
  };
  await fill({ Test: "Serum lactate", "Group (its tab)": "Chemistry", Specimen: "Venous blood", "Reference range (SI)": "0.5–2.2", "SI units": "mmol/L", "Source (citation)": "Rounds reference", "Library article id": "987654" });
  await page.getByRole("button", { name: "Add value" }).click();
  await assertText(page.locator("#lab-article_id-error"), "article 987654 does not exist");
  await page.getByLabel("Library article id", { exact: true }).fill("");
  await page.getByRole("button", { name: "Add value" }).click();
  await page.getByText("Added Serum lactate.").waitFor();
  const find = async () => (await call("GET", "/study-tools/lab-values?include_drafts=true")).values.find((v) => v.name === "Serum lactate");
  let v = await find();
  assert.equal(v.is_published, false);
  assert.equal(v.reference_range, "0.5–2.2");
  assert.ok(!(await call("GET", "/study-tools/lab-values")).values.some((x) => x.id === v.id), "a draft is not in the learners' table");

  await page.getByRole("button", { name: "Edit Serum lactate (Adult)" }).click();
  await page.getByLabel("Reference range (SI)", { exact: true }).fill("0.5–2.0");
  await page.getByLabel("Published to learners").check();
  await page.getByRole("heading", { name: "Edit Serum lactate" }).scrollIntoViewIfNeeded();
  await snap(page, "lab-editor");
  assert.deepEqual(await axeCheck(page), [], "the lab editor: no serious axe violation");
  await page.getByRole("button", { name: "Save value" }).click();
  await page.getByText("Saved Serum lactate.").waitFor();
  v = await find();
  assert.equal(v.is_published, true);
  assert.equal(v.reference_range, "0.5–2.0");
  await page.getByLabel("Find a test").fill("lactate");
  await page.getByRole("region", { name: "Reference values", exact: true }).getByRole("rowheader", { name: "Serum lactate" }).waitFor();

  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete Serum lactate (Adult)" }).click();
  await page.getByText("Deleted Serum lactate.").waitFor();
  assert.equal(await find(), undefined);
  assert.deepEqual(errors.filter((e) => !/^422 .*\/study-tools\/lab-values$/.test(e)), []);
  await ctx.close();
});

test("study plans: a moderator draws a plan from a blueprint, a block per domain", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const [quiz] = await call("GET", "/quizzes/");
  const ids = (await call("GET", `/quizzes/${quiz.id}`)).questions.map((q) => q.id).slice(0, 2);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Study plans" }).click();
  await page.getByLabel("Drawn plan's name").fill("Blueprint revision");
  await page.getByLabel("Shape").selectOption("domains");
  await page.getByLabel("Questions in all").fill("1");
  const domain = (i) => page.locator("fieldset.domains").last().locator(".row").nth(i);
  await domain(0).getByLabel("Domain 1", { exact: true }).fill("Cardiology");
  await domain(0).getByLabel("Question ids (optional)").fill(String(ids[0]));
  await page.getByRole("button", { name: "Add domain" }).click();
  await domain(1).getByLabel("Domain 2", { exact: true }).fill("Renal");
  await domain(1).getByLabel("Weight").fill("2");
  await domain(1).getByLabel("Question ids (optional)").fill(String(ids[1]));
  await page.getByRole("button", { name: "Draw plan" }).click();
  // Two domains cannot share one question: the server says so by the size.
  await assertText(page.locator("#bp-size-error"), "at least the number of domains (2)");
  await snap(page, "plan-blueprint");
  assert.deepEqual(await axeCheck(page), [], "the blueprint form: no serious axe violation");
  await page.getByLabel("Questions in all").fill("2");
  await page.getByRole("button", { name: "Draw plan" }).click();
  await page.getByRole("heading", { name: "Blueprint revision", level: 1 }).waitFor();
  const plan = await call("GET", `/study-plans/${Number(new URL(page.url()).pathname.split("/").pop())}`);
  assert.equal(plan.is_published, 0);
  assert.deepEqual(plan.blocks.map((b) => b.question_ids), [[ids[0]], [ids[1]]]);
  await page.getByRole("heading", { name: "Cardiology" }).waitFor();
  assert.deepEqual(errors.filter((e) => !/^422 .*\/study-plans\/from-blueprint$/.test(e)), []);
  await ctx.close();
});

test("every screen: no serious axe violation, and no sideways scrolling on a 390×844 phone", async () => {
  const { ctx, page, call } = await signIn("admin");
  const [quiz] = await call("GET", "/quizzes/");
  const [plan] = await call("GET", "/study-plans");
  const [exam] = await call("GET", "/exams");
  const [article] = await call("GET", "/articles/?editable=true");
  const [published] = await call("GET", "/articles/");
  const { questions } = await call("GET", "/questions/bank?limit=1");
  const [batch] = await call("GET", "/drafts/batches");
  const [doc] = await call("GET", "/documents/");
  // A finished attempt of the admin's own, for its review.
  const attempt = await call("POST", `/attempts/start?quiz_id=${quiz.id}&fresh=true`);
  await call("POST", `/attempts/${attempt.id}/submit`, { answers: {} });
  // Screens whose data an earlier test made are left out when run alone.
  const screens = [
    "/", "/quizzes", `/attempts/${attempt.id}`, "/browse", "/collections", "/plans", plan && `/plans/${plan.id}`, "/exams", exam && `/exams/${exam.id}/result`, "/flashcards",
    "/flashcards/study", "/library", published && `/articles/${published.slug}`, "/labs", "/shares", "/devices", "/contact", "/bank", "/questions/new", "/write",
    article && `/write/${article.id}`, `/questions/${questions[0].id}/edit`, "/drafts", doc && `/documents/${doc.id}`, batch && `/drafts/${batch.id}`, "/feedback", "/trash",
    "/categories", "/grants", "/models", "/usage", "/settings", "/people", "/messages", "/outbox", `/quizzes/${quiz.id}/sit`,
  ].filter(Boolean);
  const found = [];
  for (const [width, height] of [[1200, 800], [390, 844]]) {
    await page.setViewportSize({ width, height });
    for (const path of screens) {
      await page.goto(`${env.srv.base}${path}`);
      await page.locator("main h1").first().waitFor();
      await page.waitForFunction(() => !document.body.innerText.includes("Loading…"));
      if (path.endsWith("/sit")) await page.getByRole("button", { name: "Lab values" }).click();
      for (const v of await axeCheck(page)) found.push(`${path} ${width}px: ${v}`);
      if (width > 600) {
        // Only contrast depends on the theme.
        await page.emulateMedia({ colorScheme: "dark" });
        for (const v of await axeCheck(page, ["color-contrast"])) found.push(`${path} ${width}px dark: ${v}`);
        await page.emulateMedia({ colorScheme: "light" });
      }
      if (width < 600) {
        const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        if (scroll > inner) {
          const wide = await widening(page);
          found.push(`${path} ${width}px: scrolls sideways (${scroll} > ${inner}) by ${wide.join(", ")}`);
        }
        const name = path === "/" ? "dashboard" : path.slice(1).replace(/\/\d+/g, "").replace(/\//g, "-");
        const phoneShots = ["dashboard", "quizzes-sit", "attempts", "plans", "exams-result", "flashcards", "labs", "bank", "write", "questions-edit", "drafts", "documents", "usage", "settings", "people"];
        if (phoneShots.includes(name)) await snap(page, `phone-${name}`);
      }
    }
  }
  // The phone menu opens and shows every entry.
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Messages" }).waitFor();
  await snap(page, "phone-menu");
  await ctx.close();
  // The sign-in screen, signed out, on a phone.
  const out = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const signin = await out.newPage();
  await signin.goto(`${env.srv.base}/`);
  await signin.getByRole("button", { name: "Sign in" }).waitFor();
  for (const v of await axeCheck(signin)) found.push(`sign-in 390px: ${v}`);
  await out.close();
  assert.deepEqual(found, []);
});

test("first load: bytes over the wire and time to interactive (reported, not asserted)", async (t) => {
  const ctx = await env.browser.newContext();
  const page = await ctx.newPage();
  const start = Date.now();
  await page.goto(`${env.srv.base}/`);
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  const interactive = Date.now() - start;
  const bytes = await page.evaluate(() =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce((n, e) => n + e.transferSize, 0),
  );
  assert.ok(bytes > 0);
  t.diagnostic(`first load: ${bytes} bytes transferred, sign-in button usable after ${interactive} ms`);
  await ctx.close();
});

// ---- W2 console ----

test("console trash: a moderator pages through trashed questions and quizzes, restores one and deletes others for good", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  const cat = await call("POST", "/question-categories/", { name: "Trash W2" });
  const keep = await mcq(call, "W2 trash: the one brought back?", cat.id);
  const drop = await mcq(call, "W2 trash: the one deleted for good?", cat.id);
  const quiz = await call("POST", `/question-categories/${cat.id}/create-quiz?title=${encodeURIComponent("W2 trashed quiz")}`);
  await call("DELETE", `/quizzes/${quiz.id}`);
  // Enough trashed questions for a second page (20 a page).
  for (let i = 0; i < 19; i++) await call("DELETE", `/questions/${(await mcq(call, `W2 trash filler ${i}?`)).id}`);
  await call("DELETE", `/questions/${drop.id}`);
  await call("DELETE", `/questions/${keep.id}`);
  const { total } = await call("GET", "/questions/trash?limit=1");
  assert.ok(total >= 21);

  await page.getByRole("link", { name: "Trash" }).click();
  await page.getByRole("heading", { name: "Trash" }).waitFor();
  const questions = page.getByRole("region", { name: "Trashed questions" });
  await questions.getByRole("rowheader", { name: keep.question_text }).waitFor();
  await assertText(page.getByRole("navigation", { name: "Trashed questions pages" }), `1–20 of ${total}`);
  await page.getByRole("region", { name: "Trashed quizzes" }).getByRole("rowheader", { name: "W2 trashed quiz" }).waitFor();
  await snap(page, "console-trash");
  assert.deepEqual(await axeCheck(page), [], "the trash: no serious axe violation");

  // Most recently trashed first: the filler is on the next page.
  await page.getByRole("navigation", { name: "Trashed questions pages" }).getByRole("button", { name: "Next" }).click();
  await assertText(page.getByRole("navigation", { name: "Trashed questions pages" }), `21–${Math.min(total, 40)} of ${total}`);
  await questions.getByRole("rowheader", { name: "W2 trash filler 0?" }).waitFor();
  await page.getByRole("navigation", { name: "Trashed questions pages" }).getByRole("button", { name: "Previous" }).click();

  await page.getByRole("button", { name: `Restore question ${keep.id}` }).click();
  await page.getByText(`Restored question ${keep.id}.`).waitFor();
  const trashed = async () => (await call("GET", "/questions/trash?limit=100")).questions.map((q) => q.id);
  assert.ok(!(await trashed()).includes(keep.id), "restored: out of the trash");
  const bank = await call("GET", `/questions/bank?category_id=${cat.id}`);
  assert.deepEqual(bank.questions.map((q) => q.id), [keep.id], "restored: back in the bank");

  // A dismissed confirmation deletes nothing.
  page.once("dialog", (d) => d.dismiss());
  await page.getByRole("button", { name: `Delete for good question ${drop.id}` }).click();
  assert.ok((await trashed()).includes(drop.id));
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: `Delete for good question ${drop.id}` }).click();
  await page.getByText(`Deleted question ${drop.id} for good.`).waitFor();
  assert.ok(!(await trashed()).includes(drop.id));
  await assert.rejects(call("PATCH", `/questions/${drop.id}/restore`), /404/, "gone for good: nothing to restore");

  await page.getByRole("button", { name: "Restore quiz W2 trashed quiz" }).click();
  await page.getByText("Restored quiz “W2 trashed quiz”.").waitFor();
  assert.ok(!(await call("GET", "/quizzes/trash")).some((z) => z.id === quiz.id));
  assert.equal((await call("GET", `/quizzes/${quiz.id}`)).title, "W2 trashed quiz");
  await call("DELETE", `/quizzes/${quiz.id}`);
  await page.reload();
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete for good quiz W2 trashed quiz" }).click();
  await page.getByText("Deleted quiz “W2 trashed quiz” for good.").waitFor();
  assert.ok(!(await call("GET", "/quizzes/trash?limit=100")).some((z) => z.id === quiz.id));
  await assert.rejects(call("PATCH", `/quizzes/${quiz.id}/restore`), /404/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("console categories: a moderator builds the tree, meets the server's refusals (a name taken, a cycle), renames, moves and deletes with move_to", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  await page.getByRole("link", { name: "Categories" }).click();
  await page.getByRole("heading", { name: "Question categories" }).waitFor();
  const add = async (name, parentId) => {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Under").selectOption(parentId ? String(parentId) : "");
    await page.getByRole("button", { name: "Add category" }).click();
  };
  const cats = async () => (await call("GET", "/question-categories/")) ?? [];
  const byName = async (name) => (await cats()).find((c) => c.name === name);
  await add("Cardiology W2");
  await page.getByText("Added Cardiology W2.").waitFor();
  const cardio = await byName("Cardiology W2");
  await add("Valves W2", cardio.id);
  await page.getByText("Added Valves W2.").waitFor();
  let valves = await byName("Valves W2");
  assert.equal(valves.parent_id, cardio.id);
  await add("Valves W2", cardio.id);
  await page.getByRole("alert").filter({ hasText: 'a category named "Valves W2" already exists at that place in the tree' }).waitFor();
  assert.equal((await cats()).filter((c) => c.name === "Valves W2").length, 1);

  // A move under its own subcategory is refused and nothing moves.
  await page.getByRole("button", { name: "Edit Cardiology W2" }).click();
  await page.getByLabel("Move under").selectOption(String(valves.id));
  await page.getByRole("button", { name: "Save category" }).click();
  await page.getByRole("alert").filter({ hasText: "a category cannot move under itself or one of its own subcategories" }).waitFor();
  assert.equal((await byName("Cardiology W2")).parent_id, null);
  await page.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Edit Valves W2" }).click();
  await page.getByLabel("New name").fill("Heart valves W2");
  await page.getByLabel("Move under").selectOption("");
  assert.deepEqual(await axeCheck(page), [], "the category tree: no serious axe violation");
  await page.getByRole("button", { name: "Save category" }).click();
  await page.getByText("Saved Heart valves W2.").waitFor();
  valves = await byName("Heart valves W2");
  assert.equal(valves.parent_id, null, "moved to the top");
  assert.equal(await byName("Valves W2"), undefined);
  await page.getByRole("list", { name: "Question categories" }).getByText("Heart valves W2").waitFor();
  await page.getByRole("heading", { name: "The tree" }).scrollIntoViewIfNeeded();
  await snap(page, "console-categories");

  // Its question moves to Cardiology when it goes.
  const q = await mcq(call, "W2 categories: which valve opens with a snap?", valves.id);
  await page.reload();
  await page.getByRole("button", { name: "Edit Heart valves W2" }).click();
  await page.getByLabel("Move its questions to").selectOption(String(cardio.id));
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete category" }).click();
  await page.getByText("Deleted Heart valves W2.").waitFor();
  assert.equal(await byName("Heart valves W2"), undefined);
  assert.equal((await byName("Cardiology W2")).question_count, 1);
  const bank = await call("GET", `/questions/bank?category_id=${cardio.id}`);
  assert.deepEqual(bank.questions.map((x) => x.id), [q.id]);
  // The tree is read again after the delete: the category leaves it.
  await page.getByRole("button", { name: "Edit Heart valves W2" }).waitFor({ state: "detached" });
  assert.deepEqual(errors.filter((e) => !/^(409|400) .*\/question-categories\//.test(e)), []);
  await ctx.close();
});

test("console grants: a moderator finds a learner, gives a category grant, meets a refusal and revokes it", async () => {
  const learner = await signIn("learner");
  const me = await learner.call("GET", "/auth/me");
  await learner.ctx.close();
  const { ctx, page, errors, call } = await signIn("moderator");
  const self = await call("GET", "/auth/me");
  const cat = await call("POST", "/question-categories/", { name: "Grants W2" });
  await page.getByRole("link", { name: "Grants" }).click();
  await page.getByRole("heading", { name: "Editorial grants" }).waitFor();

  // An unknown account is the server's 404, shown.
  await page.getByLabel("Account id").fill("987654");
  await page.getByRole("button", { name: "Show grants" }).click();
  await page.getByRole("alert").filter({ hasText: "Could not load the grants of account 987654" }).waitFor();

  await page.getByLabel("Account id").fill(String(me.id));
  await page.getByRole("button", { name: "Show grants" }).click();
  await page.getByRole("heading", { name: `Grants of account ${me.id}` }).waitFor();
  await page.getByText("No grant.").waitFor();
  await page.getByLabel("Kind").selectOption("category");
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await page.getByRole("button", { name: "Give grant" }).click();
  await page.getByText(`Gave a category grant on ${cat.id}.`).waitFor();
  await page.getByRole("region", { name: "Grants", exact: true }).getByRole("rowheader", { name: "Grants W2" }).waitFor();
  let grants = await call("GET", `/access/${me.id}/grants`);
  assert.deepEqual(grants.map((g) => [g.kind, g.target_id, g.granted_by]), [["category", cat.id, self.id]]);

  // The same grant twice is refused.
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await page.getByRole("button", { name: "Give grant" }).click();
  await page.getByRole("alert").filter({ hasText: "already holds this grant" }).waitFor();
  assert.equal((await call("GET", `/access/${me.id}/grants`)).length, 1);
  await page.getByLabel("Kind").selectOption("deck");
  await page.getByLabel("Scope").waitFor();
  await page.getByLabel("Kind").selectOption("category");
  await snap(page, "console-grants");
  assert.deepEqual(await axeCheck(page), [], "the grants screen: no serious axe violation");

  await page.getByRole("button", { name: "Revoke the category grant on Grants W2" }).click();
  await page.getByText(`Revoked grant ${grants[0].id}.`).waitFor();
  await page.getByText("No grant.").waitFor();
  grants = await call("GET", `/access/${me.id}/grants`);
  assert.deepEqual(grants, []);

  // Never to yourself.
  await page.getByLabel("Account id").fill(String(self.id));
  await page.getByRole("button", { name: "Show grants" }).click();
  await page.getByRole("heading", { name: `Grants of account ${self.id}` }).waitFor();
  await page.getByLabel("Category", { exact: true }).selectOption(String(cat.id));
  await page.getByRole("button", { name: "Give grant" }).click();
  await page.getByRole("alert").filter({ hasText: "grants are never self-assigned" }).waitFor();
  assert.deepEqual(await call("GET", `/access/${self.id}/grants`), []);
  assert.deepEqual(errors.filter((e) => !/^(404|409|400) .*\/access\/\d+\/grants$/.test(e)), []);

  // On a phone the console's screens do not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/trash", "/categories", "/grants"]) {
    await page.goto(`${env.srv.base}${path}`);
    await page.locator("main h1").waitFor();
    await page.waitForFunction(() => !document.body.innerText.includes("Loading…"));
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `${path} on a phone: ${scroll} > ${inner}`);
    if (path === "/categories") await snap(page, "console-phone-categories");
  }
  await ctx.close();
});

// ---- W1 learner ----

test("W1 learner: the bank browser with filters, favourites and notes, then collections in folders", async () => {
  const { ctx, page, errors, call } = await signIn("learner");
  page.on("dialog", (d) => d.accept());
  // A learner's bank is what their grants cover and their favourites: start with two favourites.
  const [quiz] = await call("GET", "/quizzes/");
  const [a, b] = (await call("GET", `/quizzes/${quiz.id}`)).questions;
  for (const q of [a, b]) await call("POST", "/favorites", { question_id: q.id });

  await page.getByRole("link", { name: "Browse questions" }).click();
  await page.getByRole("heading", { name: "Browse questions" }).waitFor();
  const count = page.getByTestId("learn-count");
  await assertText(count, "1–2 of 2 questions");
  const itemA = page.getByRole("listitem", { name: `Question ${a.id}` });
  const itemB = page.getByRole("listitem", { name: `Question ${b.id}` });
  await assertText(itemA, a.question_text);
  // Answer-side fields only as the API gives them: a learner gets none.
  const listed = await call("GET", "/questions/bank?limit=5");
  assert.ok(listed.questions.every((q) => q.correct_answer === null && q.explanation === null));
  assert.equal(await itemA.getByText("Answer:").count(), 0);
  await itemA.scrollIntoViewIfNeeded();
  await snap(page, "learn-browse");
  assert.deepEqual(await axeCheck(page), [], "the bank browser: no serious axe violation");
  assert.ok(await phoneFits(page), "the bank browser fits a phone");

  // Unfavourite b through the star: the API drops it, and so does this learner's listing.
  const starB = page.getByRole("button", { name: `Favourite question ${b.id}` });
  assert.equal(await starB.getAttribute("aria-pressed"), "true");
  await starB.click();
  await itemB.waitFor({ state: "detached" });
  await assertText(count, "1–1 of 1 questions");
  assert.deepEqual(await call("GET", "/favorites"), [a.id]);
  await page.getByLabel("Favourites only").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "1–1 of 1 questions");
  assert.equal(await page.getByRole("button", { name: `Favourite question ${a.id}` }).getAttribute("aria-pressed"), "true");

  // A keyword search by a word of the stem finds it; nonsense finds nothing.
  const word = a.question_text.split(/\W+/).filter((w) => w.length > 4)[0];
  await page.getByLabel("Search", { exact: true }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "of 1 questions");
  await page.getByLabel("Search", { exact: true }).fill("zzqxnothingmatches");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "No question matches.");
  await page.getByRole("button", { name: "Clear" }).click();
  await assertText(count, "of 1 questions");

  // A note: written, edited, deleted; the API follows each step.
  await page.getByRole("button", { name: `Write a note on question ${a.id}` }).click();
  await page.getByLabel(`Your note on question ${a.id}`).fill("Think of the opening snap.");
  await page.getByRole("button", { name: "Save note" }).click();
  await assertText(page.getByTestId(`note-${a.id}`), "Think of the opening snap.");
  assert.equal((await call("GET", `/notes/${a.id}`)).body, "Think of the opening snap.");
  await page.getByRole("button", { name: `Edit note on question ${a.id}` }).click();
  await page.getByLabel(`Your note on question ${a.id}`).fill("Opening snap after S2.");
  await page.getByRole("button", { name: "Save note" }).click();
  await assertText(page.getByTestId(`note-${a.id}`), "Opening snap after S2.");
  assert.equal((await call("GET", `/notes/${a.id}`)).body, "Opening snap after S2.");
  await page.getByRole("button", { name: `Delete note on question ${a.id}` }).click();
  await page.getByTestId(`note-${a.id}`).waitFor({ state: "detached" });
  assert.deepEqual(await call("GET", `/notes?question_ids=${a.id}`), []);

  // Folders and collections: made, renamed and filed through the screen.
  await page.getByRole("link", { name: "Collections" }).click();
  await page.getByRole("heading", { name: "Collections", level: 1 }).waitFor();
  await page.getByLabel("New folder").fill("Cardio");
  await page.getByRole("button", { name: "Add folder" }).click();
  await page.getByRole("button", { name: "Rename the folder Cardio" }).click();
  await page.getByLabel("New name of the folder Cardio").fill("Cardiology");
  await page.getByRole("button", { name: "Save name" }).click();
  await page.getByRole("button", { name: "Rename the folder Cardiology" }).waitFor();
  const [folder] = await call("GET", "/folders");
  assert.equal(folder.name, "Cardiology");
  await page.getByLabel("New collection").fill("Murmurs");
  await page.getByLabel("In folder").selectOption(String(folder.id));
  await page.getByRole("button", { name: "Add collection" }).click();
  await page.getByText("0 questions · in Cardiology").waitFor();
  const [col] = await call("GET", "/collections");
  assert.deepEqual([col.name, col.folder_id], ["Murmurs", folder.id]);
  await page.getByLabel("Folder of Murmurs").selectOption("");
  await page.getByText("0 questions", { exact: true }).waitFor();
  assert.equal((await call("GET", `/collections/${col.id}`)).folder_id, null);

  // Back in the browser the question goes into the collection.
  await page.getByRole("link", { name: "Browse questions" }).click();
  await page.getByLabel(`Collection for question ${a.id}`).selectOption(String(col.id));
  await page.getByRole("button", { name: `Add question ${a.id} to the collection` }).click();
  await page.getByText("Added to Murmurs.").waitFor();
  assert.deepEqual((await call("GET", `/collections/${col.id}`)).question_ids, [a.id]);

  // Opened, it shows the stem; removed, the API has none left.
  await page.getByRole("link", { name: "Collections" }).click();
  await page.getByRole("button", { name: "Open the collection Murmurs" }).click();
  await page.getByRole("heading", { name: "Murmurs", level: 2 }).waitFor();
  await page.getByText(a.question_text).waitFor();
  await snap(page, "learn-collections");
  assert.deepEqual(await axeCheck(page), [], "the collections screen: no serious axe violation");
  assert.ok(await phoneFits(page), "the collections screen fits a phone");
  await page.getByRole("button", { name: `Remove question ${a.id} from Murmurs` }).click();
  await page.getByText("No question in it yet.").waitFor();
  assert.deepEqual((await call("GET", `/collections/${col.id}`)).question_ids ?? [], []);

  await page.getByRole("button", { name: "Delete the collection Murmurs" }).click();
  await page.getByText("No collection yet.").waitFor();
  await page.getByRole("button", { name: "Delete the folder Cardiology" }).click();
  await page.getByText("No folder yet.").waitFor();
  assert.deepEqual([await call("GET", "/collections"), await call("GET", "/folders")], [[], []]);

  // A learner builds a study test of their own from the favourites filter
  // (POST /saved-tests) and sits it: the API's quiz holds those questions.
  await call("POST", "/favorites", { question_id: b.id });
  const favs = await call("GET", "/questions/bank/ids?favorites_only=true");
  assert.deepEqual([...favs].sort(), [a.id, b.id].sort());
  await page.reload(); // the favourite came through the API: drop the cached listing
  await page.getByRole("link", { name: "Browse questions" }).click();
  await page.getByLabel("Favourites only").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(count, "1–2 of 2 questions");
  await page.getByText("Build a test").click();
  await page.getByLabel("Title").fill("My favourites drill");
  await page.getByLabel("Mode", { exact: true }).selectOption("learning");
  await page.getByRole("button", { name: "Build and sit" }).click();
  await page.waitForURL(/\/quizzes\/\d+\/sit\?study=1$/);
  const own = await call("GET", `/quizzes/${Number(new URL(page.url()).pathname.split("/")[2])}`);
  assert.deepEqual([own.title, own.questions.map((q) => q.id)], ["My favourites drill", favs]);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("W1 learner: a moderator builds a test from the browser's filters and from a category, and sits it", async () => {
  const { ctx, page, errors, call } = await signIn("moderator");
  // The longest word of a seeded stem: earlier tests add questions of their own.
  const [seeded] = await call("GET", "/quizzes/");
  const stem = (await call("GET", `/quizzes/${seeded.id}`)).questions[0].question_text;
  const word = stem.split(/\W+/).reduce((a, b) => (b.length > a.length ? b : a));
  const ids = await call("GET", `/questions/bank/ids?q=${encodeURIComponent(word)}`);
  assert.ok(ids.length > 0);

  // A moderator browses the whole bank, a page at a time.
  const { total } = await call("GET", "/questions/bank?limit=1");
  await page.getByRole("link", { name: "Browse questions" }).click();
  await assertText(page.getByTestId("learn-count"), `1–20 of ${total} questions`);
  await page.getByRole("navigation", { name: "Questions pages" }).getByRole("button", { name: "Next" }).click();
  await assertText(page.getByTestId("learn-count"), `21–${Math.min(40, total)} of ${total} questions`);
  // Two categories and a tag go as the bank's comma-separated lists.
  const cats = await call("GET", "/question-categories/");
  const two = cats.filter((c) => c.branch_question_count > 0).slice(0, 2).map((c) => String(c.id));
  const tag = (await call("GET", "/tags")).subjects[0];
  const narrowed = await call("GET", `/questions/bank?limit=1&category_ids=${two.join(",")}&tag_ids=${tag.id}`);
  assert.ok(narrowed.total < total, "the filters narrow the bank");
  await page.getByLabel("Categories").selectOption(two);
  await page.getByLabel("Tags (all of)").selectOption(String(tag.id));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(page.getByTestId("learn-count"), narrowed.total ? `of ${narrowed.total} questions` : "No question matches.");
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Search", { exact: true }).fill(word);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await assertText(page.getByTestId("learn-count"), `of ${ids.length} questions`);
  await page.getByText("Build a test").click();
  await page.getByLabel("Title").fill("My murmur drill");
  await page.getByLabel("Minutes (optional)").fill("5");
  await snap(page, "learn-build");
  assert.deepEqual(await axeCheck(page), [], "the build form: no serious axe violation");
  await page.getByRole("button", { name: "Build and sit" }).click();
  await page.getByRole("timer", { name: "Time left" }).waitFor();
  const built = Number(new URL(page.url()).pathname.split("/")[2]);
  const quiz = await call("GET", `/quizzes/${built}`);
  assert.equal(quiz.title, "My murmur drill");
  assert.deepEqual(quiz.questions.map((q) => q.id).sort(), [...ids].sort());

  // From a category, in study mode: the sitting shows answers at once.
  const cat = cats.find((c) => c.branch_question_count > 0);
  await page.getByRole("link", { name: "Browse questions" }).click();
  await page.getByText("Build a test").click();
  await page.getByLabel("Title").fill("Category drill");
  await page.getByLabel("Questions from").selectOption(String(cat.id));
  await page.getByLabel("Mode", { exact: true }).selectOption("learning");
  await page.getByRole("button", { name: "Build and sit" }).click();
  await page.waitForURL(/\/quizzes\/\d+\/sit\?study=1$/);
  const fromCat = await call("GET", `/quizzes/${Number(new URL(page.url()).pathname.split("/")[2])}`);
  assert.deepEqual([fromCat.title, fromCat.questions.length], ["Category drill", cat.branch_question_count]);
  assert.deepEqual(errors, []);
  await ctx.close();
});
