// Issue 38's remaining charts in a real browser, on a server of their own (a
// fresh database, so every figure is what this file made): the flashcards
// statistics screen, the moderators' bank statistics and the admins' usage
// per day. Each chart has its table, axe clean, in both themes, on a
// desktop and a phone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertText, go, mcq, screenClean, signIn, snap, until, useServer } from "./kit.mjs";

useServer();

test("flashcard statistics: cards due per day by state, true retention by interval and the stability spread, each with its table", async () => {
  const mod = await signIn("moderator");
  const cat = await mod.call("POST", "/question-categories/", { name: "Statistics cards" });
  const deck = await mod.call("POST", "/flashcards/manual", { title: "Statistics deck", category_id: cat.id, description: "Three cards." });
  const cards = [];
  for (const front of ["Stat one", "Stat two", "Stat three"])
    cards.push(...(await mod.call("POST", `/flashcards/decks/${deck.id}/cards`, { card_type: "basic", front, back: "Back" })).cards.map((c) => c.id));
  await mod.call("PUT", `/flashcards/${deck.id}/share`);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  // Two cards known at once (Easy puts them in review), then seen again
  // the same day: one remembered, one forgotten (it relearns). One unseen.
  await call("POST", `/flashcards/cards/${cards[0]}/review`, { rating: "easy", duration_ms: 2000 });
  await call("POST", `/flashcards/cards/${cards[1]}/review`, { rating: "easy", duration_ms: 2000 });
  await call("POST", `/flashcards/cards/${cards[0]}/review`, { rating: "good", duration_ms: 2000 });
  await call("POST", `/flashcards/cards/${cards[1]}/review`, { rating: "again", duration_ms: 2000 });
  const charts = await call("GET", "/flashcards/stats/charts");
  assert.equal(charts.unseen, 1);
  assert.deepEqual(charts.due[0], { day: new Date().toISOString().slice(0, 10), new: 1, learning: 1, review: 0 });
  assert.equal(charts.due.reduce((n, d) => n + d.review, 0), 1, "the remembered card is due once within 30 days");
  assert.deepEqual(charts.retention[0], { min_days: 0, max_days: 1, reviews: 2, passed: 1, retention: 50 });
  assert.equal(charts.stability.reduce((n, b) => n + b.cards, 0), 2);

  await go(page, "/flashcards");
  await page.getByRole("link", { name: "Statistics", exact: true }).click();
  await page.getByRole("heading", { name: "Flashcard statistics" }).waitFor();

  const due = page.getByTestId("chart-due");
  await due.locator("canvas").first().waitFor();
  await assertText(due.locator("figcaption"), "3 cards over 30 days");
  await due.getByRole("button", { name: "Show the numbers" }).click();
  const table = (fig) => fig.locator("table");
  assert.equal(await table(due).locator("tbody tr").count(), 30);
  await assertText(table(due).getByRole("row").nth(1), `${charts.due[0].day}\t1\t1\t0\t2`);

  const retention = page.getByTestId("chart-retention");
  await assertText(retention.locator("figcaption"), "50% of 2 reviews");
  await assertText(retention.locator(".hbars li").first(), "0–1 days");
  await assertText(retention.locator(".hbars li").first(), "50% of 2");
  await assertText(table(retention).getByRole("row").nth(1), "0–1 days\t2\t1\t50%");

  const stability = page.getByTestId("chart-stability");
  await stability.locator("canvas").first().waitFor();
  await assertText(stability.locator("figcaption"), "2 cards");
  const counts = await table(stability).locator("tbody tr td").allInnerTexts();
  assert.deepEqual(counts.map(Number), charts.stability.map((b) => b.cards));

  assert.deepEqual(await screenClean(page, "flashcard statistics"), []);
  await snap(page, "flashcard-stats");
  await page.setViewportSize({ width: 390, height: 844 });
  await until(async () => (await due.locator("canvas").first().boundingBox())?.width < 390, "the chart fits the phone");
  await snap(page, "flashcard-stats-phone");
  await page.setViewportSize({ width: 1200, height: 800 });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("bank statistics: the draft pipeline, bank coverage by category, and a question's option choices, each with its table", async () => {
  const mod = await signIn("moderator");
  const cardio = await mod.call("POST", "/question-categories/", { name: "Coverage cardiology" });
  await mod.call("POST", "/question-categories/", { name: "Coverage empty" });
  for (const t of ["Covered one?", "Covered two?"]) await mcq(mod.call, t, cardio.id);
  const pipeline = await mod.call("GET", "/drafts/stats/pipeline");
  assert.deepEqual(pipeline.drafts.map((d) => d.count), [0, 0, 0]);

  const { page, errors, ctx } = mod;
  await go(page, "/insights");
  await page.getByRole("heading", { name: "Bank statistics" }).waitFor();
  // No question has enough responses yet: the map says so.
  await assertText(page.getByTestId("chart-item-map"), "Nothing to draw yet.");
  const coverage = page.getByTestId("chart-coverage");
  await assertText(coverage.locator(".hbars"), "Coverage cardiology");
  await coverage.getByRole("button", { name: "Show the numbers" }).click();
  await assertText(coverage.locator("table"), "Coverage cardiology\t2\t2");
  await assertText(coverage.locator("table"), "Coverage empty\t0\t0");
  await assertText(page.getByTestId("chart-pipeline"), "Nothing to draw yet.");
  assert.deepEqual(await screenClean(page, "bank statistics"), []);
  await snap(page, "bank-statistics");
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("AI usage: model calls per day by task, with the table behind", async () => {
  const admin = await signIn("admin");
  const { page, errors, ctx, call } = admin;
  const daily = await call("GET", "/admin/ai/usage/daily?days=30");
  assert.equal(daily.days.length, 0, "a fresh server has made no model call");
  await go(page, "/usage");
  await page.getByRole("heading", { name: "AI usage" }).waitFor();
  await assertText(page.getByTestId("chart-ai-usage"), "0 calls over 30 days");
  assert.deepEqual(await screenClean(page, "ai usage"), []);
  assert.deepEqual(errors, []);
  await ctx.close();
});
