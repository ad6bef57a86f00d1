// The Jupyter kernel end-to-end scenario in a real VS Code (code-server),
// run by run.sh in the same window as the others. run.sh started a real
// kernel (/usr/bin/python3 -m ipykernel_launcher -f FILE, FILE in the
// runtime directory the sidecar searches). Here a notebook user
// (kernel_user.py, jupyter_client's BlockingKernelClient) defines a
// DataFrame in it with a visible cell; then, in the browser, "dapscope: Show
// Kernel Variables" lists the kernel, expanding it shows `prices` with its
// smart summary, clicking it opens the data viewer, where sorting by price
// and filtering give pandas' own first row and count; a long user cell shows
// the kernel busy (its cell, for how long) and, once it ends, the view lists
// the cell's new variable. Finally the user's client checks that dapscope
// left nothing in the kernel: the execution count, In and the history moved
// only by the user's own cells, no new name, and nothing on IOPub caused by
// another client but status messages. Screenshots: artifacts/e2e/kernel-*.png.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
import { extensionLog, makeHelpers, stats, timings, LONG } from './util.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');

const URL_ = process.env.E2E_URL;
const PYTHON = process.env.E2E_PYTHON || '/usr/bin/python3'; // the leg's (run.sh)
const ART = process.env.E2E_ARTIFACTS;
const UD = process.env.E2E_USERDATA;
const KERNEL_FILE = process.env.E2E_KERNEL_FILE;
const KERNEL_ID = 'dapscope-e2e';
const t0 = Date.now();
const log = (m) => console.log(`[scenario-kernel +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

// The user's cell: a 1,000 × 10 DataFrame with 3 missing prices.
const CELL = `import numpy as np, pandas as pd
rng = np.random.default_rng(23)
prices = pd.DataFrame({
    "price": rng.uniform(1, 100, 1000).round(2),
    "qty": rng.integers(1, 10, 1000),
    "city": rng.choice(["Nice", "Lyon", "Paris", "Lille"], 1000),
    **{f"f{i}": rng.normal(size=1000).round(3) for i in range(7)},
})
prices.loc[[5, 50, 500], "price"] = np.nan`;
const FILTER = 'qty > 5 and city == "Nice"';

/** The user's client: one JSON answer per command line. */
function userClient() {
  const p = spawn(PYTHON, [join(here, 'kernel_user.py'), KERNEL_FILE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: p.stdout });
  const queue = [];
  lines.on('line', (l) => queue.shift()?.(l));
  const ask = (cmd, timeout = 150_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the user's client did not answer ${cmd.split(' ')[0]}`)), timeout);
      queue.push((l) => {
        clearTimeout(timer);
        resolve(JSON.parse(l));
      });
      p.stdin.write(`${cmd}\n`);
    });
  return { ask, close: () => { p.stdin.end('quit\n'); setTimeout(() => p.kill('SIGKILL'), 3000).unref(); } };
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const user = userClient();
  let page;
  let h;
  try {
    // pandas' own answers for what the data viewer must show.
    const want = JSON.parse(execFileSync(PYTHON, ['-c',
      `${CELL}\nimport json\ns = prices.sort_values("price", kind="stable", na_position="last")\nf = s.query(${JSON.stringify(FILTER)})\n` +
      'print(json.dumps([int(s.index[0]), float(s["price"].iloc[0]), len(f), int(f.index[0])]))'], { encoding: 'utf8' }).trim().split('\n').pop());

    const r1 = await user.ask(`run ${JSON.stringify(CELL)}`);
    if (r1.status !== 'ok') throw new Error(`the user's cell failed: ${JSON.stringify(r1)}`);
    const before = await user.ask('state');
    log(`the user defined prices in the kernel (In[${r1.execution_count}]); kernel state ${JSON.stringify(before.state)}`);

    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    page.setDefaultTimeout(LONG);
    h = makeHelpers(page, log, ART, 'kernel-');
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    await h.runCommand('dapscope: Show Kernel Variables');
    // Room for the view: the workspace's file tree (the Explorer's first section) folded.
    const folder = page.locator('.explorer-viewlet .pane-header', { hasText: /^\s*ws/ }).first();
    if ((await folder.getAttribute('aria-expanded', { timeout: 5_000 }).catch(() => null)) === 'true') await folder.click({ timeout: 5_000 }).catch(() => {});
    const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /Kernel variables/i }) });
    const rows = pane.locator('.monaco-list-row');
    const kernelRow = rows.filter({ hasText: KERNEL_ID }).first();
    await h.until(`the kernel ${KERNEL_ID} in the view`, () => kernelRow.isVisible(), 60_000, 500);
    log(`the view lists the kernel: ${(await kernelRow.textContent()).trim()}`);

    // Expanding the kernel attaches to it and lists its variables.
    const pricesRow = rows.filter({ hasText: /^\s*prices/ }).first();
    await h.until('prices with its summary', async () => {
      if (/DataFrame 1,000 × 10 · 3 nulls in price/.test((await pricesRow.textContent({ timeout: 1_000 }).catch(() => '')) ?? '')) return true;
      if ((await kernelRow.getAttribute('aria-expanded')) !== 'true') await kernelRow.click();
      return false;
    }, 60_000, 1_000);
    const summary = (await pricesRow.textContent()).trim();
    log(`the view shows: ${summary}`);
    const names = (await pane.locator('.monaco-list-row .label-name').allTextContents()).map((t) => t.trim());
    if (names.includes('np') || names.includes('pd')) throw new Error(`modules are listed as user variables: ${names.join(' | ')}`);
    if (!names.includes('rng')) throw new Error(`rng (a Generator) is not listed: ${names.join(' | ')}`);
    log(`the view's names: ${names.join(', ')}`);
    await h.screenshot('view');

    // A variable opens the data viewer on the kernel's value.
    await pricesRow.click();
    const wv = h.webview();
    await h.until('the data viewer on prices', async () => /of 1,000$/.test((await wv.locator('.vcount').textContent({ timeout: 1_000 }).catch(() => '')) ?? ''));
    log(`webview: ${(await wv.locator('.summary .line').textContent()).trim()}`);
    await wv.locator('.vtable thead .vsort', { hasText: /^price/ }).click();
    const first = await h.until('prices sorted by price', async () => {
      if ((await wv.locator('.vtable thead th[aria-sort="ascending"]').count()) !== 1) return '';
      const cells = await wv.locator('.vtable tbody tr.vrow[data-row="0"]:not(.vloading)').first().locator('th, td').allTextContents();
      return cells[0] === String(want[0]) ? cells : '';
    }, 30_000);
    log(`sorted by price: first row ${first.slice(0, 4).join(' | ')} (pandas: index ${want[0]}, price ${want[1]})`);
    await h.screenshot('viewer-sorted');
    await wv.locator('.vfilter').fill(FILTER);
    await wv.locator('.vfilter').press('Enter');
    const filtered = await h.until('prices filtered', async () => {
      const count = (await wv.locator('.vcount').textContent()) ?? '';
      if (!count.includes(`of ${want[2].toLocaleString('en-US')} (filtered from 1,000)`)) return '';
      const cells = await wv.locator('.vtable tbody tr.vrow[data-row="0"]:not(.vloading)').first().locator('th, td').allTextContents();
      return cells[0] === String(want[3]) ? cells : '';
    }, 30_000);
    log(`filtered (${FILTER}), still sorted: ${want[2]} rows, first ${filtered.slice(0, 4).join(' | ')} (pandas: index ${want[3]})`);
    await h.screenshot('viewer-filtered');

    // A long cell: the view shows the kernel busy with it and for how long, then its new variable.
    const gen = Number(await wv.locator('body').getAttribute('data-generation'));
    await user.ask(`start ${JSON.stringify('import time\ntime.sleep(8)\ntotal = prices["price"].sum()')}`);
    const busy = await h.until('the kernel shown busy with the cell', async () => {
      const t = (await kernelRow.textContent()) ?? '';
      return /busy \d+ s · cell/.test(t) ? t.trim() : '';
    }, 30_000, 250);
    log(`while the cell runs: ${busy}`);
    await h.screenshot('busy');
    const done = await user.ask('wait');
    if (done.status !== 'ok') throw new Error(`the long cell: ${JSON.stringify(done)}`);
    const ended = Date.now();
    const totalRow = rows.filter({ hasText: /^\s*total/ }).first();
    await h.until('the cell\'s new variable after it finished', async () => (await totalRow.isVisible()) && !/busy/.test((await kernelRow.textContent()) ?? ''), 30_000, 100);
    log(`after the cell (${Date.now() - ended} ms after its reply reached the user): ${(await totalRow.textContent()).trim()}; kernel ${(await kernelRow.textContent()).trim()}`);
    await h.until('the data viewer refreshed after the cell', async () => Number(await wv.locator('body').getAttribute('data-generation')) > gen, 30_000);
    await h.screenshot('after-cell');

    // Nothing of dapscope's in the user's kernel.
    const after = await user.ask('state');
    log(`kernel state after: ${JSON.stringify(after.state)}; other clients' IOPub messages: ${JSON.stringify(after.foreign)}`);
    const b = before.state;
    const a = after.state;
    if (Number(a.count) !== Number(b.count) + 1) throw new Error(`execution count ${b.count} → ${a.count}: the user ran one cell`);
    if (Number(a.in_len) !== Number(b.in_len) + 1) throw new Error(`len(In) ${b.in_len} → ${a.in_len}: the user ran one cell`);
    if (Number(a.history) !== Number(b.history) + 1) throw new Error(`history ${b.history} → ${a.history}: the user ran one cell`);
    const wantNames = JSON.stringify([...new Set([...JSON.parse(b.names.replace(/'/g, '"')), 'time', 'total'])].sort());
    if (JSON.stringify(JSON.parse(a.names.replace(/'/g, '"'))) !== wantNames) throw new Error(`names ${a.names}, want ${wantNames}`);
    const traces = Object.keys(after.foreign).filter((t) => t !== 'status');
    if (traces.length) throw new Error(`the user's client saw other clients' ${traces.join(', ')} on IOPub`);
    if (!after.foreign.status) throw new Error('no status message of dapscope\'s requests was seen: the IOPub check saw nothing');
    log('the user\'s kernel shows nothing of dapscope: count, In, history and names moved only with the user\'s cell; only status messages on IOPub');
    const ext = extensionLog(UD);
    if (ART) writeFileSync(join(ART, 'kernel-dapscope.log'), ext); // the extension's and sidecar's log of this scenario
    log(`LATENCY dapscope/kernelVariables (sidecar): ${stats(timings(ext, /method=dapscope\/kernelVariables id=\d+ ms=([\d.]+)/g))}`);
    log(`LATENCY inspect prices (webview, seen by the extension): ${stats(timings(ext, /inspect prices answered in ([\d.]+) ms/g))}`);
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e.stack ?? e}`);
    if (h) await h.screenshot('failure');
    process.exitCode = 1;
  } finally {
    user.close();
    await browser.close();
  }
}

await main();
