// Issue 38's offline recovery in a real browser, on a server of its own: a
// submission made without a network waits behind the answers, survives a
// reload, and goes once the network is back; the learner lands on the result.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertText, go, mcq, screenClean, signIn, sitting, snap, until, useServer } from "./kit.mjs";

useServer();

test("offline: a submission waits behind its answers, survives a reload and is stored once the network is back", async () => {
  const mod = await signIn("moderator");
  const ids = [];
  for (let i = 1; i <= 3; i++) ids.push((await mcq(mod.call, `Recovery question ${i}: which is right?`, null, { options: [`Right ${i}`, `Wrong ${i}`], correct_answer: `Right ${i}` })).id);
  const quiz = await mod.call("POST", "/questions/from-bank", { title: "Submitted offline", mode: "timed", question_ids: ids });
  await mod.call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("learner");
  await until(() => page.evaluate(() => navigator.serviceWorker.controller !== null), "the service worker in control");
  await go(page, `/quizzes/${quiz.id}/sit`);
  await sitting(page);
  await until(
    () => page.evaluate(async () => (await (await caches.open("rounds-shell-v1")).keys()).some((r) => /\/assets\/Sit-/.test(r.url))),
    "the sitting's script cached",
  );
  const attemptId = Number(await page.evaluate((q) => JSON.parse(sessionStorage.getItem(`rounds.started.${q}.timed`)).id, quiz.id));

  await ctx.setOffline(true);
  // Two right, one wrong, all without a network, then the submission.
  for (const [i, key] of ["a", "a", "b"].entries()) {
    await page.getByRole("heading", { name: new RegExp(`Question ${i + 1} of`) }).waitFor();
    await page.keyboard.press(key);
    if (i < 2) await page.keyboard.press("ArrowRight");
  }
  await assertText(page.getByTestId("save-state"), "Offline — 3 answers waiting");
  await page.getByRole("button", { name: /^Submit \(3\/3 answered\)/ }).click();
  const waiting = page.getByTestId("submit-state");
  await assertText(waiting, "Offline — your submission is waiting with 3 answers");
  assert.equal((await call("GET", `/attempts/${attemptId}`)).completed_at, null, "nothing reached the server yet");

  // A reload without a network keeps the submission waiting.
  await page.reload();
  await assertText(page.getByTestId("submit-state"), "your submission is waiting with 3 answers");
  assert.deepEqual(await screenClean(page, "submission waiting"), []);
  await snap(page, "sit-submit-offline");

  // The network is back: the answers, then the submission, and the result.
  await ctx.setOffline(false);
  await page.getByTestId("score").waitFor();
  assert.match(page.url(), new RegExp(`/attempts/${attemptId}$`));
  const stored = await call("GET", `/attempts/${attemptId}`);
  assert.notEqual(stored.completed_at, null, "the attempt is submitted");
  assert.equal(Math.round(stored.percentage), 67);
  assert.deepEqual(
    stored.answers.map((a) => [a.question_id, a.user_answer, a.is_correct]),
    [
      [ids[0], "Right 1", true],
      [ids[1], "Right 2", true],
      [ids[2], "Wrong 3", false],
    ],
  );
  const left = await page.evaluate(
    () =>
      new Promise((ok) => {
        const r = indexedDB.open("rounds-outbox");
        r.onsuccess = () => (r.result.transaction("entries").objectStore("entries").count().onsuccess = (e) => ok(e.target.result));
      }),
  );
  assert.equal(left, 0, "the outbox is empty");
  assert.deepEqual(errors, []);
  await ctx.close();
});
