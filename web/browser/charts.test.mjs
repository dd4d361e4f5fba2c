// Issue 38's charts in a real browser, on a server of their own (a fresh
// database, so the learner's figures are exactly what this file made): the
// dashboard's score over time, accuracy by category linking to its
// questions, questions per day, time per question against the cohort and
// readiness toward a plan's exam, each with its table, axe clean, in both
// themes, on a desktop and a phone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { answerAll, assertText, env, go, mcq, screenClean, signIn, sitting, snap, until, useServer } from "./kit.mjs";

useServer();

/** sit starts a timed or study attempt of quiz and submits answers. */
async function sit(call, quizId, mode, answers) {
  const a = await call("POST", `/attempts/start?quiz_id=${quizId}&mode=${mode}`);
  await call("POST", `/attempts/${a.id}/submit`, { answers });
  return a.id;
}

test("the learner's dashboard draws their progress, each chart with its table, and a weak category opens its questions", async () => {
  const mod = await signIn("moderator");
  const cardio = await mod.call("POST", "/question-categories/", { name: "Cardiology" });
  const renal = await mod.call("POST", "/question-categories/", { name: "Renal" });
  const c1 = await mcq(mod.call, "Charts: first-line drug for angina relief is a nitrate?", cardio.id);
  const c2 = await mcq(mod.call, "Charts: an opening snap means mitral stenosis?", cardio.id);
  const r1 = await mcq(mod.call, "Charts: urea rises in renal failure?", renal.id);
  const r2 = await mcq(mod.call, "Charts: hyperkalaemia peaks the T wave?", renal.id);
  const quiz = await mod.call("POST", "/questions/from-bank", { title: "Mixed block", mode: "timed", question_ids: [c1.id, c2.id, r1.id, r2.id] });
  await mod.call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  const exam = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const plan = await mod.call("POST", "/study-plans", { title: "Boards in a month", kind: "set", exam_date: exam });
  await mod.call("POST", `/study-plans/${plan.id}/blocks`, { title: "Heart", question_ids: [c1.id, c2.id] });
  await mod.call("POST", `/study-plans/${plan.id}/blocks`, { title: "Kidney", question_ids: [r1.id, r2.id] });
  await mod.call("PATCH", `/study-plans/${plan.id}/publish?published=true`);
  // The moderator sits it too: one other learner is too few for a median.
  await sit(mod.call, quiz.id, "timed", { [c1.id]: "Yes" });
  assert.deepEqual(mod.errors, []);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  // Right on cardiology, wrong on renal; then a study attempt.
  await sit(call, quiz.id, "timed", { [c1.id]: "Yes", [c2.id]: "Yes", [r1.id]: "No", [r2.id]: "No" });
  await sit(call, quiz.id, "learning", { [c1.id]: "Yes", [r1.id]: "Yes" });
  await call("POST", `/study-plans/${plan.id}/enrol`);
  const charts = await call("GET", "/attempts/stats/charts");
  assert.equal(charts.scores.length, 2);
  assert.deepEqual(charts.scores.map((s) => [s.mode, s.percentage]), [["timed", 50], ["learning", 50]]);

  await page.reload();
  await page.getByRole("heading", { name: "Your progress" }).waitFor();

  // Score over time: the picture, and its table with a row per attempt.
  const scores = page.getByTestId("chart-scores");
  await scores.locator("canvas").first().waitFor();
  const table = (fig) => fig.locator("table");
  assert.equal(await table(scores).locator("tr").count(), 3);
  await assertText(scores.locator("figcaption"), "1 timed attempt, 1 study attempt");
  await scores.getByRole("button", { name: "Show the numbers" }).click();
  // Newest first: the study attempt, then the timed one.
  const rows = table(scores).getByRole("row");
  await assertText(rows.nth(1), "Mixed block\tStudy\t50%");
  await assertText(rows.nth(2), "Mixed block\tTimed\t50%");

  // Accuracy by category, weakest first, each a link to its questions.
  const bars = page.getByTestId("chart-accuracy").locator(".hbars li");
  assert.deepEqual(await bars.allInnerTexts().then((t) => t.map((s) => s.split("\n")[0])), ["Renal", "Cardiology"]);
  await assertText(bars.nth(0), "25% of 4");
  await assertText(bars.nth(1), "75% of 4");

  // Questions per day: today's square is the busiest, its count in the table.
  const days = page.getByTestId("chart-days");
  const today = new Date().toISOString().slice(0, 10);
  assert.equal(await days.locator(`rect.heat-4 title`).first().textContent(), `${today}: 8 answered`);
  await assertText(days.locator("figcaption"), "8 questions on 1 day");

  // Time per question: the cohort of one is too few to show.
  await assertText(table(page.getByTestId("chart-pace")), "too few yet (1)");

  // Readiness toward the plan's exam: enrolled, no block done yet.
  const ready = page.getByTestId("chart-readiness");
  await assertText(ready.locator("h3"), "Readiness: Boards in a month");
  await assertText(ready.getByTestId("blocks-done"), "0 of 2");
  await assertText(ready, "30 days left");
  await ready.locator("canvas").first().waitFor();

  assert.deepEqual(await screenClean(page, "dashboard charts"), []);
  // The charts in view (the counts above them are the dashboard's shot).
  const toCharts = () => page.evaluate(() => document.getElementById("charts-h").scrollIntoView());
  await toCharts();
  await snap(page, "dashboard-charts");
  await page.setViewportSize({ width: 390, height: 844 });
  await toCharts();
  await snap(page, "dashboard-charts-phone");
  await page.setViewportSize({ width: 1200, height: 800 });

  // The weakest category opens the question browser filtered to it, where
  // "Build a test" takes the current filters.
  const bank = page.waitForRequest((r) => r.url().includes("/questions/bank?") && r.url().includes(`category_ids=${renal.id}`));
  await bars.nth(0).getByRole("link").click();
  await page.getByRole("heading", { name: "Browse questions" }).waitFor();
  assert.equal(new URL(page.url()).search, `?category=${renal.id}`);
  await bank;
  const picked = page.getByLabel("Categories");
  await until(async () => (await picked.evaluate((s) => [...s.selectedOptions].map((o) => o.textContent.trim()))).join() === "Renal", "Renal chosen");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("readiness counts a plan block the learner finished: enrolled on the plan's screen, the block sat and submitted, the dashboard says 1 of 2", async () => {
  const mod = await signIn("moderator");
  const ids = [];
  for (const text of ["Readiness: is the QT long in hypokalaemia?", "Readiness: does digoxin cause xanthopsia?", "Readiness: is lithium renally cleared?"]) {
    ids.push((await mcq(mod.call, text)).id);
  }
  // A published quiz opens the questions to learners; the plan's blocks draw from them.
  const quiz = await mod.call("POST", "/questions/from-bank", { title: "Pharmacology", mode: "timed", question_ids: ids });
  await mod.call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  const exam = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const plan = await mod.call("POST", "/study-plans", { title: "Finals in two weeks", kind: "set", exam_date: exam });
  // Adding a block answers with the plan; the block is the one titled so.
  const withFirst = await mod.call("POST", `/study-plans/${plan.id}/blocks`, { title: "Drugs", question_ids: ids.slice(0, 2) });
  const first = withFirst.blocks.find((b) => b.title === "Drugs");
  await mod.call("POST", `/study-plans/${plan.id}/blocks`, { title: "Kidney drugs", question_ids: ids.slice(2) });
  await mod.call("PATCH", `/study-plans/${plan.id}/publish?published=true`);
  assert.deepEqual(mod.errors, []);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  const readiness = page.getByTestId("chart-readiness").filter({ hasText: "Readiness: Finals in two weeks" });
  await go(page, `/plans/${plan.id}`);
  await page.getByRole("heading", { name: "Finals in two weeks" }).waitFor();
  await page.getByRole("button", { name: "Enrol" }).click();
  await page.locator(".badge", { hasText: "enrolled" }).waitFor();
  // Enrolled, nothing done: the dashboard counts none.
  await go(page, "/");
  await assertText(readiness.getByTestId("blocks-done"), "0 of 2");

  // The first block, sat timed from the plan and submitted.
  await go(page, `/plans/${plan.id}`);
  await page.getByRole("button", { name: "Sit timed: Drugs" }).click();
  await sitting(page);
  await answerAll(page);

  // The server marks the block done once the attempt's completion is handled.
  let stored;
  await until(async () => {
    stored = await call("GET", `/study-plans/${plan.id}`);
    return stored.blocks.find((b) => b.id === first.id).completed_at !== null;
  }, "the block stored as done");
  assert.equal(stored.blocks_completed, 1);
  assert.deepEqual(stored.blocks.map((b) => [b.title, b.completed_at !== null]), [["Drugs", true], ["Kidney drugs", false]]);

  // What the learner sees: 1 of 2 done, half a block a week to finish in
  // time, and the table behind the chart: none at the block's start, one
  // from the moment it was done, one today.
  await page.goto(`${env.srv.base}/`);
  await page.getByRole("heading", { name: "Your progress" }).waitFor();
  await assertText(readiness.getByTestId("blocks-done"), "1 of 2");
  await assertText(readiness, "14 days left");
  await assertText(readiness, "0.5 blocks a week");
  await readiness.locator("canvas").first().waitFor();
  const doneColumn = await readiness.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.cells[1].textContent));
  assert.deepEqual(doneColumn, ["0", "1", "1"]);
  assert.deepEqual(await screenClean(page, "dashboard readiness"), []);
  assert.deepEqual(errors, []);
  await ctx.close();
});
