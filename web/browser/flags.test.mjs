// Issue 38: flags ("mark for review") are saved progress, so they follow the
// learner: flagged on one device (a browser context of its own), they show
// when the attempt is opened on another, and reach the review.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertText, go, mcq, signIn, sitting, until, useServer } from "./kit.mjs";

useServer();

test("a flag made on one device shows when the attempt is opened on another, and in the review", async () => {
  const mod = await signIn("moderator");
  const ids = [];
  for (let i = 1; i <= 3; i++) ids.push((await mcq(mod.call, `Flag question ${i}: which is right?`, null, { options: [`Right ${i}`, `Wrong ${i}`], correct_answer: `Right ${i}` })).id);
  const quiz = await mod.call("POST", "/questions/from-bank", { title: "Flags across devices", mode: "timed", question_ids: ids });
  await mod.call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
  await mod.ctx.close();

  // The laptop: answer question 1, flag question 2.
  const laptop = await signIn("learner");
  await go(laptop.page, `/quizzes/${quiz.id}/sit`);
  await sitting(laptop.page);
  await laptop.page.keyboard.press("a");
  await laptop.page.keyboard.press("ArrowRight");
  await laptop.page.getByRole("heading", { name: /Question 2 of 3/ }).waitFor();
  await laptop.page.getByRole("button", { name: "Flag", exact: true }).click();
  await laptop.page.getByRole("button", { name: "Question 2, flagged" }).waitFor();
  await assertText(laptop.page.getByTestId("save-state"), "All answers saved");
  const [attemptId, device] = await laptop.page.evaluate((q) => [JSON.parse(sessionStorage.getItem(`rounds.started.${q}.timed`)).id, sessionStorage.getItem("rounds.device")], quiz.id);
  const stored = await laptop.call("GET", `/attempts/progress?quiz_id=${quiz.id}&attempt_id=${attemptId}`, undefined, { "x-quiz-session": device });
  assert.deepEqual(stored.flagged, [ids[1]], "the flag is stored with the progress");
  assert.deepEqual(laptop.errors, []);
  await laptop.ctx.close();

  // The phone: another browser of the same learner. It waits out the
  // laptop's device lock, then resumes the same attempt with the flag.
  const phone = await signIn("learner", { viewport: { width: 390, height: 844 } });
  await go(phone.page, `/quizzes/${quiz.id}/sit`);
  await phone.page.getByRole("heading", { name: /Question 2 of 3/ }).waitFor();
  assert.equal(await phone.page.evaluate((q) => JSON.parse(sessionStorage.getItem(`rounds.started.${q}.timed`)).id, quiz.id), attemptId, "the same attempt");
  await phone.page.getByRole("button", { name: "Question 1, answered" }).waitFor();
  await phone.page.getByRole("button", { name: "Question 2, flagged" }).waitFor();
  await phone.page.getByRole("button", { name: "Unflag" }).waitFor();

  // The phone flags question 3 too, and submits: the review lists both.
  await phone.page.keyboard.press("ArrowRight");
  await phone.page.getByRole("heading", { name: /Question 3 of 3/ }).waitFor();
  await phone.page.keyboard.press("f");
  await phone.page.getByRole("button", { name: "Question 3, flagged" }).waitFor();
  await assertText(phone.page.getByTestId("save-state"), "All answers saved");
  const phoneDevice = await phone.page.evaluate(() => sessionStorage.getItem("rounds.device"));
  assert.notEqual(phoneDevice, device, "two devices");
  const after = await phone.call("GET", `/attempts/progress?quiz_id=${quiz.id}&attempt_id=${attemptId}`, undefined, { "x-quiz-session": phoneDevice });
  assert.deepEqual(after.flagged, [ids[1], ids[2]]);
  await phone.page.getByRole("button", { name: /^Submit/ }).click();
  const check = phone.page.getByRole("region", { name: "Before you submit" });
  assert.deepEqual(await check.getByRole("list", { name: /^Flagged/ }).getByRole("button").allTextContents(), ["Question 2", "Question 3"]);
  await check.getByRole("button", { name: "Submit with 2 unanswered" }).click();
  await phone.page.getByTestId("score").waitFor();
  const done = await phone.call("GET", `/attempts/${attemptId}`);
  assert.deepEqual(
    done.answers.map((a) => [a.question_id, a.flagged]),
    [
      [ids[0], false],
      [ids[1], true],
      [ids[2], true],
    ],
  );
  await phone.page.getByRole("button", { name: "Flagged (2)" }).click();
  await until(async () => (await phone.page.locator(".review > li .badge.flag").count()) === 2, "both flagged questions in the review");
  // The phone's one refusal was the laptop's lock, before it took over.
  assert.deepEqual(
    phone.errors.filter((e) => !/^409 .*\/attempts\/progress\?/.test(e)),
    [],
  );
  await phone.ctx.close();
});
