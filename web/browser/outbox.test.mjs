// Issue 38's outbox lag on the admins' screen, on a server of its own run
// as `rounds serve` only: nothing handles the events a moderator's writes
// send, so they wait in the outbox (lag > 0), until the test starts a
// `rounds worker` on the same database and the lag drains to 0. Axe clean,
// both themes, desktop and phone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertText, env, mcq, screenClean, signIn, snap, until, useServer } from "./kit.mjs";

useServer({ role: "serve" });

/** shown is the chart's table as the screen has it: group, topic, waiting. */
const shown = (page) =>
  page
    .getByTestId("chart-outbox")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.cells].slice(0, 3).map((c) => c.textContent.trim())));
const stored = (groups) => groups.map((g) => [g.group, g.topic, String(g.undelivered)]);

test("an admin sees each consumer group's waiting events, as the server reads them, and the lag drain to 0 once a worker runs", async () => {
  const mod = await signIn("moderator");
  await mcq(mod.call, "Outbox: a moderator's new question is filed by an event?");
  await mcq(mod.call, "Outbox: and indexed for search by another?");
  assert.deepEqual(mod.errors, []);
  await mod.ctx.close();

  const { ctx, page, errors, call } = await signIn("admin");
  const before = await call("GET", "/admin/outbox");
  const behind = before.groups.filter((g) => g.undelivered > 0);
  assert.ok(behind.length > 0, "without a worker, the moderator's events wait");
  assert.ok(behind.every((g) => g.oldest_seconds > 0));
  assert.equal(before.poisoned, 0);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Event outbox" }).click();
  await page.getByRole("heading", { name: "Event outbox" }).waitFor();
  const waiting = behind.reduce((n, g) => n + g.undelivered, 0);
  await assertText(page.getByTestId("outbox-summary"), `${waiting} event${waiting === 1 ? "" : "s"} waiting in ${behind.length} group`);
  // The table behind the chart is the server's reading, lagging groups first.
  assert.deepEqual(await shown(page), stored(before.groups));
  const bars = page.getByTestId("chart-outbox").locator(".hbars li");
  assert.equal(await bars.count(), before.groups.length);
  await assertText(bars.first(), `${behind[0].undelivered} waiting, oldest`);
  await assertText(bars.last(), "caught up");

  assert.deepEqual(await screenClean(page, "outbox"), []);
  const top = () => page.evaluate(() => scrollTo(0, 0));
  await top();
  await snap(page, "outbox");
  await page.setViewportSize({ width: 390, height: 844 });
  await top();
  await snap(page, "outbox-phone");
  await page.setViewportSize({ width: 1200, height: 800 });

  // A worker handles them: read again until every group has caught up.
  env.srv.worker();
  const summary = page.getByTestId("outbox-summary");
  await until(async () => {
    if ((await summary.innerText()).includes("caught up")) return true;
    const again = page.getByRole("button", { name: "Read again" });
    if (await again.isEnabled()) await again.click();
    return false;
  }, "the lag drained", 60_000);
  const after = await call("GET", "/admin/outbox");
  assert.ok(after.groups.every((g) => g.undelivered === 0 && g.oldest_seconds === 0), JSON.stringify(after.groups));
  await assertText(summary, `All ${after.groups.length} consumer groups caught up.`);
  assert.deepEqual(await shown(page), stored(after.groups));
  assert.equal(await page.getByTestId("chart-outbox").locator(".hbars li", { hasText: "waiting" }).count(), 0);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test("the outbox is the admins' alone", async () => {
  for (const role of ["learner", "moderator"]) {
    const { ctx, page, call } = await signIn(role);
    assert.equal(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Event outbox" }).count(), 0, role);
    await assert.rejects(call("GET", "/admin/outbox"), /: 403 /, role);
    await page.goto(`${env.srv.base}/outbox`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await ctx.close();
  }
});
