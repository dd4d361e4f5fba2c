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
  await go(page, `/quizzes/${quiz.id}/sit`);
  await sitting(page);
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
  await page.keyboard.press("a");
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
