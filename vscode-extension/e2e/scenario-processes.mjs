// The end-to-end scenario of "Compare across Processes" in a real VS Code
// (code-server, headless Chromium): a multiprocessing fork Pool
// (testdata/python/mp_tree.py, copied into the workspace by run.sh) launched
// through dapscope with a breakpoint in the workers; debugpy's child
// sessions (one per worker) stop there; from the Variables view of a worker,
// "Compare across Processes" on `n` opens the panel, whose table has a row
// per worker with its own value's summary (int 10, int 20) and a row for the
// parent saying it is not paused (it waits in pool.map). A worker's Open
// button opens the data viewer on that worker's value.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { LONG, makeHelpers, processRows } from './util.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');

const URL_ = process.env.E2E_URL;
const ART = process.env.E2E_ARTIFACTS;
const t0 = Date.now();
const log = (m) => console.log(`[processes +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let page;
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    const h = makeHelpers(page, log, ART, 'processes-');
    page.setDefaultTimeout(LONG);
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    const file = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'mp_tree.py' });
    await file.waitFor({ state: 'visible' });
    await file.click();
    await page.locator('.tabs-container .tab', { hasText: 'mp_tree.py' }).waitFor({ state: 'visible' });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-line', { hasText: '# WORKER BREAKPOINT' }).waitFor({ state: 'visible' });
    await h.runCommand('dapscope: Show Output'); // the extension is active
    await h.setBreakpoint(editor, '# WORKER BREAKPOINT');
    log('breakpoint in the workers');

    await h.startConfiguration('dapscope: pool');
    await h.until('a worker paused', async () => (await page.locator('.debug-pane .monaco-list-row', { hasText: /Subprocess \d+.*Paused on breakpoint/ }).count()) > 0);
    const n = await h.variableRow('n', /^\s*Locals\b/);
    log(`a worker paused: ${((await n.textContent()) ?? '').trim()}`);
    await h.screenshot('worker-paused');

    // Variables view → Compare across Processes → the panel's table.
    await h.variablesMenu(n, 'Compare across Processes', async () => {
      try {
        await h.webview().locator('table.processes').waitFor({ state: 'visible', timeout: 15_000 });
        return true;
      } catch {
        return false;
      }
    });
    log('the panel opened from the Variables view');
    // Both workers paused (the second may stop after the panel first asked:
    // the panel asks again on its stop; Refresh, to be sure).
    let rows = [];
    await h.until('a row per worker with its value', async () => {
      rows = await processRows(h.webview());
      const summaries = rows.map((r) => r[3]);
      if (summaries.includes('int 10') && summaries.includes('int 20')) return true;
      await h.webview().locator('#refresh').click();
      return false;
    }, 90_000, 2_000);
    for (const r of rows) log(`row: ${r.join(' | ')}`);
    const workers = rows.filter((r) => /^int (10|20)$/.test(r[3]));
    if (workers.length !== 2 || workers.some((r) => r[1] !== 'paused' || !/mp_tree\.py:\d+$/.test(r[2]) || !/\(pid \d+\)/.test(r[0]))) throw new Error(`the workers' rows: ${JSON.stringify(rows)}`);
    const parent = rows.filter((r) => !workers.includes(r));
    if (parent.length !== 1 || !/^not paused/.test(parent[0][3])) throw new Error(`the parent's row: ${JSON.stringify(rows)}`);
    const heading = (await h.webview().locator('h2').textContent()) ?? '';
    if (!/^n in 3 processes$/.test(heading.trim())) throw new Error(`heading ${JSON.stringify(heading)}`);
    await h.screenshot('processes-panel');

    // A worker's Open: the data viewer on that worker's n (a tab of its own).
    await h.webview().locator('button.open').first().click();
    await h.until('the data viewer tab', async () => (await page.locator('.tabs-container .tab', { hasText: /^\s*dapscope: n\s*$/ }).count()) > 0, 30_000);
    log('Open: the data viewer on the worker\'s value');

    await h.stopSession(); // every session of the tree
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e.stack ?? e}`);
    if (page) await page.screenshot({ path: join(ART, 'processes-failure.png') }).catch(() => {});
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

await main();
