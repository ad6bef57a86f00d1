// The Rust end-to-end scenario in a real VS Code (code-server), run by
// run.sh after the others in the same window: rust/src/main.rs (dapscope's
// native test program, built by run.sh with cargo) is debugged with a
// `dapscope` launch configuration whose adapter is lldb (LLVM's lldb-dap
// behind the sidecar's proxy, which adds the Rust toolchain's formatters).
// Checked: the stop, the Variables view's smart value of the Vec<f64>
// `prices` (the lldb probe's summary, read from memory), VS Code's debug
// hover with the same summary, the language hover (Alt) with the
// inspection, the webview from the Variables view with its statistics,
// and the data viewer's rows of the Vec, sorted by the lldb probe
// (descending: the program's largest value, 149, first at position 49).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { LONG, makeHelpers, wordBox } from './util.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');

const URL_ = process.env.E2E_URL;
const ART = process.env.E2E_ARTIFACTS;
const t0 = Date.now();
const log = (m) => console.log(`[scenario-rust +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const MARK = '// break here';

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let page;
  let h;
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(URL_).origin });
    page = await context.newPage();
    page.setDefaultTimeout(LONG);
    h = makeHelpers(page, log, ART, 'rust-');

    log(`opening ${URL_}`);
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    await h.runCommand('dapscope: Show Output');
    // Open rust/src/main.rs (Quick Open).
    await h.until('main.rs open', async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').fill('rust/src/main.rs');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'main.rs' }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab', { hasText: 'main.rs' }).waitFor({ state: 'visible', timeout: 10_000 });
      return true;
    }, 60_000, 1_000);
    const editor = page.locator('.editor-instance .monaco-editor').first();
    const line = editor.locator('.view-line', { hasText: MARK });
    await h.until('the marked line in view', async () => {
      if (await line.isVisible()) return true;
      await page.keyboard.press('Control+G');
      await page.keyboard.type('66');
      await page.keyboard.press('Enter');
      return false;
    }, 30_000, 1_000);
    log('main.rs open');
    await h.setBreakpoint(editor, MARK);
    log('breakpoint set');

    await h.startConfiguration('dapscope: Rust prices');
    // lldb-dap describes the stop as "breakpoint 1.1" (VS Code shows that in
    // the Call Stack instead of "Paused on breakpoint").
    await h.until('the stop (breakpoint 1.1)', async () => (await page.locator('.debug-toolbar').count()) > 0 && (await page.getByText(/Paused on breakpoint|^breakpoint \d+\.\d+$/).count()) > 0);
    log('stopped at the breakpoint');
    const row = page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*prices\b/ }).first();
    await h.until('prices in the Variables view', async () => {
      if (await row.isVisible()) return true;
      // lldb-dap's Locals scope starts collapsed: expand it
      const locals = page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*Locals\b/ }).first();
      if ((await locals.count()) && (await locals.getAttribute('aria-expanded')) !== 'true') await locals.click();
      return false;
    }, 60_000, 2_000);
    // Smart value: the lldb probe's summary in VS Code's own Variables view.
    // (A summary later than the sidecar's 50 ms budget leaves lldb-dap's own
    // value: then Locals is collapsed and expanded, a new variables request.)
    let reads = 0;
    await h.until('the smart value of prices', async () => {
      if (/Vec<f64> float64 \(1,000,\) · 1 NaN/.test((await row.textContent()) ?? '')) return true;
      if (++reads % 4 === 0) {
        const locals = page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*Locals\b/ }).first();
        await locals.click();
        await page.waitForTimeout(300);
        await locals.click();
        log(`Variables view re-read (${reads / 4}): ${((await row.textContent().catch(() => '')) ?? '').trim().slice(0, 80)}`);
      }
      return false;
    }, 60_000, 1_000);
    log(`Variables view: ${((await row.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)}`);
    await h.screenshot('stopped');

    // VS Code's debug hover (no modifier) with the summary.
    const debugHover = page.locator('.debug-hover-widget', { hasText: /Vec<f64> float64/ }).first();
    await h.until("VS Code's debug hover on prices", async () => {
      const box = await wordBox(editor, MARK, 'prices');
      await page.mouse.move(5, 600);
      await page.waitForTimeout(300);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      return await debugHover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
    }, 60_000, 500);
    log(`debug hover: ${((await debugHover.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)}`);
    await h.screenshot('debug-hover-prices');
    await page.mouse.move(5, 600);

    // The language hover (Alt): dapscope's inspection of the Vec.
    const hover = page.locator('.monaco-hover', { hasText: /float64/ }).first();
    await line.click();
    let hoverText = '';
    await h.until('the Alt-hover on prices', async () => {
      const box = await wordBox(editor, MARK, 'prices');
      await page.mouse.move(5, 600);
      await page.waitForTimeout(500);
      await page.keyboard.down('Alt');
      try {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
        const ok = await hover.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false);
        if (ok) {
          hoverText = (await hover.textContent()) ?? '';
          await h.screenshot('hover-prices');
        }
        return ok && /1,?000/.test(hoverText);
      } finally {
        await page.keyboard.up('Alt');
      }
    }, 120_000, 500);
    log(`hover: ${hoverText.trim().replace(/\s+/g, ' ').slice(0, 140)}`);
    await page.mouse.move(5, 500);

    // Variables view → Inspect with dapscope → the webview and its viewer.
    await h.until('Inspect with dapscope in the Variables context menu', async () => {
      await page.keyboard.press('Escape');
      await row.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Inspect with dapscope' }).first();
      await item.waitFor({ state: 'visible', timeout: 5_000 });
      await page.waitForTimeout(400);
      await item.hover();
      await item.click();
      return await page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 15_000 }).then(() => true, () => false);
    }, 90_000, 1_000);
    const wv = h.webview();
    await h.until('the webview result', async () => (await wv.locator('body').getAttribute('data-state')) === 'result');
    const summary = (await wv.locator('.summary .line').textContent()) ?? '';
    log(`webview: ${summary}`);
    await h.until("the data viewer's rows", async () => (await wv.locator('.vtable tbody tr.vrow:not(.vloading)').count()) >= 2);
    const count = (await wv.locator('.vcount').textContent()) ?? '';
    if (!/1,?000$/.test(count)) throw new Error(`data viewer count: ${count}`);
    await h.screenshot('webview-prices');
    const sortBy = wv.locator('.vtable thead .vsort', { hasText: /^value/ });
    await sortBy.click();
    await h.until('ascending sort', async () => (await wv.locator('.vtable thead th[aria-sort="ascending"]').count()) === 1);
    await sortBy.click();
    const first = await h.until('the largest value first (descending)', async () => {
      if ((await wv.locator('.vtable thead th[aria-sort="descending"]').count()) !== 1) return '';
      const cells = await wv.locator('.vtable tbody tr.vrow:not(.vloading)').first().locator('th, td').allTextContents();
      return cells[0] === '49' ? cells : '';
    }, 30_000);
    log(`data viewer sorted descending: first row ${first.join(' | ')} (the program: position 49, 149)`);
    if (!String(first[1]).startsWith('149')) throw new Error(`first row ${first}`);
    await h.screenshot('webview-sorted');
    await page.keyboard.press('Shift+F5');
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e?.stack ?? e}`);
    if (page) await page.screenshot({ path: join(ART, 'rust-failure.png') }).catch(() => {});
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

main();
