// The end-to-end scenario of "dapscope: Attach to Paused Ray Tasks" in a
// real VS Code (code-server, headless Chromium): a real local Ray cluster
// (testdata/python/ray_tasks.py "shards", its HOME code-server's, so the
// token Ray generates is where the sidecar looks) with two tasks paused at
// breakpoint(), one on a shard whose price column is all NaN. The command
// lists both in a QuickPick (name, function, pid, where they wait), and so
// does the Run and Debug view's "Ray: paused tasks" section (rayview.ts);
// one is attached from the view's inline Attach (then marked attached
// there), the other picked in the command's QuickPick, both as dapscope
// sessions (debugpy, justMyCode off) under one root, and both stop in the
// task; Compare across Processes on `df` then shows both tasks'
// DataFrames, the NaN column named in one row only. Ending the sessions
// lets the tasks finish; the driver then shuts the cluster down.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { LONG, makeHelpers, processRows } from './util.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');

const URL_ = process.env.E2E_URL;
const ART = process.env.E2E_ARTIFACTS;
const UD = process.env.E2E_USERDATA;
const t0 = Date.now();
const log = (m) => console.log(`[ray +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

/** Starts the Ray driver; resolves with its JSON line and the process. */
function startCluster() {
  const script = join(here, '..', '..', 'testdata', 'python', 'ray_tasks.py');
  const p = spawn(process.env.E2E_PYTHON, ['-Xfrozen_modules=off', script, 'shards'], {
    env: { ...process.env, HOME: process.env.E2E_HOME, RAY_DEBUG: '1', RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER: '0', RAY_USAGE_STATS_ENABLED: '0', PYTHONUNBUFFERED: '1' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the Ray cluster did not start in 180 s')), 180_000);
    p.on('exit', (code) => reject(new Error(`the Ray driver exited (${code}) before its cluster was up`)));
    createInterface({ input: p.stdout }).on('line', (l) => {
      if (!l.startsWith('{')) return;
      clearTimeout(timer);
      resolve({ info: JSON.parse(l), proc: p });
    });
  });
}

/** Closes the driver's stdin (it shuts its cluster down and exits); waits up to 60 s, then kills it. */
async function stopCluster(p) {
  if (!p || p.exitCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.stdin.end();
  const t = setTimeout(() => p.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(t);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let page;
  let driver;
  try {
    log('starting a local Ray cluster');
    const { info, proc } = await startCluster();
    driver = proc;
    const dashboard = info.dashboard.includes('://') ? info.dashboard : `http://${info.dashboard}`;
    log(`Ray cluster up, dashboard ${dashboard}`);
    // The cluster for the command: the dapscope.ray.address setting.
    const settings = join(UD, 'User', 'settings.json');
    writeFileSync(settings, JSON.stringify({ ...JSON.parse(readFileSync(settings, 'utf8')), 'dapscope.ray.address': dashboard }, null, 2));

    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    const h = makeHelpers(page, log, ART, 'ray-');
    page.setDefaultTimeout(LONG);
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    await h.runCommand('dapscope: Show Output'); // the extension is active

    // The QuickPick: both tasks, named (Ray's task events lag its worker table: ask again until they are).
    const items = page.locator('.quick-input-list .monaco-list-row', { hasText: /shard.*pid \d+/ });
    await h.until('both paused tasks in the QuickPick', async () => {
      await h.runCommand('dapscope: Attach to Paused Ray Tasks');
      try {
        await items.nth(1).waitFor({ state: 'visible', timeout: 10_000 });
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    }, 180_000, 2_000);
    const texts = await items.allTextContents();
    log(`QuickPick: ${texts.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ')}`);
    if (texts.length !== 2 || texts.some((t) => !/debugpy at 127\.0\.0\.1:\d+/.test(t))) throw new Error(`QuickPick items: ${JSON.stringify(texts)}`);
    await h.screenshot('quickpick');
    await page.keyboard.press('Escape');

    // The Run and Debug view's "Ray: paused tasks" section lists both tasks too.
    await h.runCommand('View: Show Run and Debug');
    const header = page.locator('.pane-header', { hasText: 'Ray: paused tasks' });
    await header.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const pane = page.locator('.pane', { has: header });
    const viewTasks = pane.locator('.monaco-list-row', { hasText: /shard.*pid \d+/ });
    await h.until('both paused tasks in the Ray view', async () => {
      if ((await viewTasks.count()) === 2) return true;
      await header.hover();
      await header.locator('.action-label[aria-label*="Refresh"]').click({ timeout: 5_000 }).catch(() => {});
      return false;
    }, 120_000, 3_000);
    const viewTexts = await viewTasks.allTextContents();
    log(`Ray view: ${viewTexts.map((t) => t.replace(/\s+/g, ' ').trim()).join(' | ')}`);
    if (viewTexts.some((t) => !/debugpy|127\.0\.0\.1:\d+/.test(t))) throw new Error(`Ray view items: ${JSON.stringify(viewTexts)}`);
    const pids = viewTexts.map((t) => /pid (\d+)/.exec(t)?.[1]);
    if (new Set(pids).size !== 2 || !texts.every((t) => pids.some((p) => t.includes(`pid ${p}`)))) throw new Error(`the view's tasks ${pids} are not the QuickPick's`);
    await h.screenshot('view');

    // Attach the first task from the view (its inline Attach action): it stops in the task and is marked attached.
    const first = pids[0];
    await h.until(`Attach on task pid ${first} in the view`, async () => {
      const row = viewTasks.filter({ hasText: `pid ${first}` }).first();
      await row.hover();
      try {
        await row.locator('.action-label[aria-label="Attach"]').click({ timeout: 5_000 });
        return true;
      } catch {
        return false;
      }
    }, 60_000, 1_000);
    // (one session: the Call Stack shows its threads, not a session row)
    const pausedFirst = page.locator('.debug-pane .monaco-list-row', { hasText: /paused on breakpoint/i });
    await h.until(`task pid ${first} attached from the view and paused`, async () => (await pausedFirst.count()) >= 1, 90_000);
    await h.until(`task pid ${first} marked attached in the view`, async () => {
      if ((await pane.locator('.monaco-list-row', { hasText: new RegExp(`pid ${first}.*attached`) }).count()) === 1) return true;
      await header.hover();
      await header.locator('.action-label[aria-label*="Refresh"]').click({ timeout: 5_000 }).catch(() => {});
      return false;
    }, 60_000, 3_000);
    log(`task pid ${first} attached from the Ray view`);
    await h.screenshot('view-attached');

    // The other through the command's QuickPick: it joins the view's session (the oldest Ray session), one tree.
    const other = page.locator('.quick-input-list .monaco-list-row', { hasText: `pid ${pids[1]}` });
    await h.until(`task pid ${pids[1]} in the QuickPick`, async () => {
      await h.runCommand('dapscope: Attach to Paused Ray Tasks');
      try {
        await other.first().waitFor({ state: 'visible', timeout: 10_000 });
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    }, 120_000, 2_000);
    await other.first().click({ timeout: 10_000 });
    await h.until('1 selected', async () => /1 Selected/i.test((await page.locator('.quick-input-widget').textContent()) ?? ''), 10_000, 500);
    await page.locator('.quick-input-widget .monaco-button', { hasText: 'OK' }).first().click({ timeout: 10_000 });

    // Both attached (debugpy, justMyCode off) and paused in the task.
    const paused = page.locator('.debug-pane .monaco-list-row', { hasText: /Ray: shard \(pid \d+\).*Paused/ });
    await h.until('both tasks attached and paused', async () => (await paused.count()) === 2, 90_000);
    log('both Ray tasks attached and paused');
    const df = await h.variableRow('df', /^\s*Locals\b/);
    log(`Variables view: ${((await df.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)}`);
    await h.screenshot('attached');

    // One question to both tasks: the NaN column in one row only.
    await h.variablesMenu(df, 'Compare across Processes', async () => {
      try {
        await h.webview().locator('table.processes').waitFor({ state: 'visible', timeout: 15_000 });
        return true;
      } catch {
        return false;
      }
    });
    let rows = [];
    await h.until('both tasks in the table', async () => {
      rows = await processRows(h.webview());
      if (rows.filter((r) => /^DataFrame 100 rows × 2 columns/.test(r[3])).length === 2) return true;
      await h.webview().locator('#refresh').click();
      return false;
    }, 60_000, 2_000);
    for (const r of rows) log(`row: ${r.join(' | ')}`);
    if (rows.filter((r) => /price/.test(r[4])).length !== 1) throw new Error(`the NaN column in one row: ${JSON.stringify(rows)}`);
    await h.screenshot('compare');

    await h.stopSession(); // every session of the tree
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e.stack ?? e}`);
    if (page) await page.screenshot({ path: join(ART, 'ray-failure.png') }).catch(() => {});
    process.exitCode = 1;
  } finally {
    await browser.close();
    await stopCluster(driver);
  }
}

await main();
