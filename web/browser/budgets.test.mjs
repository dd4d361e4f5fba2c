// Issue 38's budgets, measured in the browser and recorded, not asserted
// (the figures depend on the machine; docs/performance.md keeps them):
// sign-in to the first question (< 1 s) and every interaction painted
// (< 100 ms). Three rounds, each a learner in a fresh tab: sign in, open
// Quizzes, sit a block of five questions by key and by pointer, reload
// mid-sitting, submit past the end-of-block check. Interactions are timed by the browser's Event
// Timing (the time from the input to the next paint after its handlers,
// as INP counts it; under 16 ms the browser reports nothing, recorded as
// null). The figures go to browser/out/budgets.json and the test's
// diagnostics.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assertText, env, mcq, signIn, useServer } from "./kit.mjs";

useServer();

// Collects every event entry of an interaction (threshold 16 ms, the least
// the browser allows) in every page, from before the client's first script.
const observe = () => {
  window.__events = [];
  const keep = (entries) => {
    for (const e of entries) if (e.interactionId) window.__events.push({ start: e.startTime, ms: e.duration, name: e.name });
  };
  window.__eventObserver = new PerformanceObserver((l) => keep(l.getEntries()));
  window.__eventObserver.observe({ type: "event", durationThreshold: 16, buffered: true });
  window.__takeEvents = () => {
    keep(window.__eventObserver.takeRecords());
    const out = window.__events;
    window.__events = [];
    return out;
  };
};

/** interact does act and returns the longest event of the interaction it
 * caused, read after two frames (so its paint has happened and the browser
 * has reported it); null when the browser reported none (under 16 ms). */
async function interact(page, act) {
  await page.evaluate(() => window.__takeEvents());
  const since = await page.evaluate(() => performance.now());
  await act();
  return page.evaluate(
    (since) =>
      new Promise((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              const mine = window.__takeEvents().filter((e) => e.start >= since);
              done(mine.length ? Math.max(...mine.map((e) => e.ms)) : null);
            }),
          ),
        ),
      ),
    since,
  );
}

/** paintedAfterClick resolves with the time from the next click to the
 * frame after the sitting's first question appears (measured in the page). */
const paintedAfterClick = (page) =>
  page.evaluate(
    () =>
      new Promise((done) => {
        let t0 = 0;
        addEventListener("click", (e) => (t0 = e.timeStamp), { once: true, capture: true });
        const shown = () => [...document.querySelectorAll("h1, h2, h3")].some((h) => /Question 1 of/.test(h.textContent));
        new MutationObserver((_, o) => {
          if (!t0 || !shown()) return;
          o.disconnect();
          requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0)));
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
  );

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round1 = (x) => Math.round(x * 10) / 10;

test("budgets: sign-in to the first question and each interaction painted, recorded (not asserted)", async (t) => {
  const rounds = 3;
  const mod = await signIn("moderator");
  const quizzes = [];
  for (let r = 0; r < rounds; r++) {
    const ids = [];
    for (let i = 1; i <= 5; i++) ids.push((await mcq(mod.call, `Budget round ${r + 1}, question ${i}: is this a question?`)).id);
    const quiz = await mod.call("POST", "/questions/from-bank", { title: `Budget block ${r + 1}`, mode: "timed", question_ids: ids });
    await mod.call("PATCH", `/quizzes/${quiz.id}/publish?published=true`);
    quizzes.push(quiz);
  }
  await mod.ctx.close();

  const measured = [];
  for (const quiz of quizzes) {
    const { ctx, page, errors, signInMs } = await signIn("learner", { init: observe });
    const interactions = [];
    const step = async (label, act) => interactions.push({ label, ms: await interact(page, act) });

    await step("open Quizzes (navigation)", () => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Quizzes" }).click());
    const sit = page.getByRole("link", { name: `Sit ${quiz.title}` });
    await sit.waitFor();
    const opened = paintedAfterClick(page);
    await step("Sit (opens the sitting)", () => sit.click());
    const openMs = await opened;
    for (let i = 1; i <= 5; i++) {
      await page.getByRole("heading", { name: new RegExp(`Question ${i} of`) }).waitFor();
      if (i === 3) await step("answer by pointer", () => page.locator("label.option").nth(1).click());
      else await step("answer by key", () => page.keyboard.press("a"));
      if (i === 2) await step("flag (F)", () => page.keyboard.press("f"));
      // After a pointer answer the focus is on the option, where → is the radio group's: the grid moves on.
      if (i === 3) await step("next question (the grid)", () => page.locator(".grid button").nth(3).click());
      else if (i < 5) await step("next question (→)", () => page.keyboard.press("ArrowRight"));
    }
    await assertText(page.getByTestId("save-state"), "All answers saved");
    // A reload mid-sitting: the page from nothing to the question again.
    const reloaded = Date.now();
    await page.reload();
    await page.getByRole("heading", { name: /Question \d+ of/ }).waitFor();
    const reloadMs = Date.now() - reloaded;
    // A flagged question: the end of the block asks first.
    await step("Submit (the end of the block)", () => page.getByRole("button", { name: /^Submit \(/ }).click());
    await page.getByRole("heading", { name: "Before you submit" }).waitFor();
    await step("Submit", () => page.getByRole("button", { name: "Submit", exact: true }).click());
    await page.getByTestId("score").waitFor();
    assert.deepEqual(errors, []);
    await ctx.close();
    measured.push({ signInMs, openMs: Math.round(openMs), signInToQuestionMs: signInMs + Math.round(openMs), reloadMs, interactions });
  }

  // What was measured is whole: every round has its figures and every
  // interaction its entry (a number, or null under the browser's threshold).
  for (const m of measured) {
    assert.equal(m.interactions.length, 14);
    for (const i of m.interactions) assert.ok(i.ms === null || Number.isFinite(i.ms), JSON.stringify(i));
  }
  const all = measured.flatMap((m) => m.interactions);
  const timed = all.filter((i) => i.ms !== null).map((i) => i.ms);
  const summary = {
    signInToQuestionMs: { median: median(measured.map((m) => m.signInToQuestionMs)), max: Math.max(...measured.map((m) => m.signInToQuestionMs)) },
    signInMs: { median: median(measured.map((m) => m.signInMs)) },
    openMs: { median: median(measured.map((m) => m.openMs)) },
    reloadMs: { median: median(measured.map((m) => m.reloadMs)) },
    interactions: {
      count: all.length,
      under16: all.length - timed.length,
      median: timed.length ? median(timed) : null,
      max: timed.length ? Math.max(...timed) : null,
      over100: timed.filter((ms) => ms >= 100).length,
    },
  };
  const out = join(import.meta.dirname, "out");
  mkdirSync(out, { recursive: true });
  const record = { measuredAt: new Date().toISOString(), loadavg: loadavg().map(round1), base: env.srv.base, summary, rounds: measured };
  writeFileSync(join(out, "budgets.json"), `${JSON.stringify(record, null, 2)}\n`);
  t.diagnostic(`load average ${record.loadavg.join(" ")}`);
  t.diagnostic(`sign-in to the first question: median ${summary.signInToQuestionMs.median} ms, max ${summary.signInToQuestionMs.max} ms (sign-in ${summary.signInMs.median}, open ${summary.openMs.median}); reload mid-sitting ${summary.reloadMs.median} ms`);
  t.diagnostic(`interactions painted: ${summary.interactions.count}, ${summary.interactions.under16} under 16 ms, median ${summary.interactions.median} ms, max ${summary.interactions.max} ms, ${summary.interactions.over100} at 100 ms or more`);
  for (const m of measured) t.diagnostic(m.interactions.map((i) => `${i.label} ${i.ms ?? "<16"}`).join("; "));
});
