// The end-to-end scenario in a real VS Code (code-server) driven through
// headless Chromium: open example.py, set a breakpoint, F5 with a `dapscope`
// launch configuration, wait for the stop, hover `df` and see its shape, open
// the inspection webview from the Variables view and see its columns, step
// and see the webview refresh (a new column appears), sort the data viewer by
// a column and see the program's own first row; open the data viewer on a
// 100,000-row frame, scroll to its end, sort and filter it and see the
// program's own rows each time; and reach the same session through the
// sidecar's MCP endpoint. Every wait polls with a
// generous bound (2-core CI); screenshots go to E2E_ARTIFACTS. Latencies seen
// by the extension are read from its log file and printed.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LONG, extensionLog as readExtensionLog, makeHelpers, mcpCall, stats, timings, wordBox } from './util.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');

const URL_ = process.env.E2E_URL;
const PYTHON = process.env.E2E_PYTHON || '/usr/bin/python3'; // the leg's (run.sh)
const WS = process.env.E2E_WS;
const UD = process.env.E2E_USERDATA;
const ART = process.env.E2E_ARTIFACTS;
const t0 = Date.now();
const log = (m) => console.log(`[scenario +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

const src = readFileSync(join(WS, 'example.py'), 'utf8').split('\n');
const bpLine = src.findIndex((l) => l.includes('# BREAKPOINT')) + 1;

let page;
// Helpers shared with the other scenarios (util.mjs), bound to the page once it exists.
let screenshot, until, runCommand, setBreakpoint, webview, sharedAltHover;
const extensionLog = () => readExtensionLog(UD);

async function webviewColumns() {
  return webview().locator('.coltable tbody th.colname').allTextContents();
}

/** Alt-hovers `word` on the marked line until a language hover matching `re` shows (util.mjs altHover); returns its text. */
function altHover(editor, marker, word, re, name) {
  return sharedAltHover(editor, marker, word, page.locator('.monaco-hover', { hasText: re }).first(), { name });
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(URL_).origin });
    page = await context.newPage();
    ({ screenshot, until, runCommand, setBreakpoint, webview, altHover: sharedAltHover } = makeHelpers(page, log, ART, ''));
    page.setDefaultTimeout(LONG);

    log(`opening ${URL_}`);
    await page.goto(URL_);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'example.py' }).waitFor({ state: 'visible' });
    log('workbench rendered');
    await screenshot('workbench');

    // Open example.py from the Explorer.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'example.py' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'example.py' }).waitFor({ state: 'visible' });
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-line', { hasText: '# BREAKPOINT' }).waitFor({ state: 'visible' });
    log('example.py open');

    // The extension is active once its commands are in the palette.
    await runCommand('dapscope: Show Output');

    // Breakpoint on the marked line: cursor there, F9 (once; re-pressed only if no glyph appears).
    const bpGlyph = editor.locator('.codicon-debug-breakpoint');
    await until('breakpoint set', async () => {
      if ((await bpGlyph.count()) > 0) return true;
      await editor.locator('.view-line', { hasText: '# BREAKPOINT' }).click();
      await page.keyboard.press('F9');
      try {
        await bpGlyph.first().waitFor({ state: 'visible', timeout: 10_000 });
        return true;
      } catch {
        return false;
      }
    }, 60_000, 500);
    log(`breakpoint set on line ${bpLine}`);

    // F5 with the launch.json configuration of type dapscope.
    await editor.locator('.view-line', { hasText: '# BREAKPOINT' }).click();
    await page.keyboard.press('F5');
    const dfRow = page.locator('.debug-pane .monaco-list-row', { hasText: /^\s*df\b/ }).first();
    await until('the stop (Paused on breakpoint)', async () => (await page.locator('.debug-toolbar').count()) > 0 && (await page.getByText('Paused on breakpoint').count()) > 0);
    log('stopped at the breakpoint');
    // Expand Locals if VS Code left it collapsed.
    await until('df in the Variables view', async () => {
      if (await dfRow.isVisible()) return true;
      const locals = page.locator('.debug-pane .monaco-list-row', { hasText: /^\s*Locals\s*$/ }).first();
      if ((await locals.getAttribute('aria-expanded')) === 'false') await locals.click();
      return false;
    }, 60_000, 1_000);
    log('df in the Variables view');
    // Smart values: VS Code's own Variables view shows dapscope's one-line
    // summary for df (the proxy rewrote the adapter's variables response).
    await until('the smart value of df in the Variables view', async () => /DataFrame 500 × 3 · 10 nulls in price/.test((await dfRow.textContent()) ?? ''), 30_000, 500);
    log(`Variables view: ${((await dfRow.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)}`);
    await screenshot('stopped');

    // VS Code's own debug hover (no modifier key) shows the summary too.
    const debugHover = page.locator('.debug-hover-widget', { hasText: /DataFrame 500 × 3/ }).first();
    await until("VS Code's debug hover on df with the smart value", async () => {
      const box = await wordBox(editor, '# BREAKPOINT', 'df');
      await page.mouse.move(5, 600);
      await page.waitForTimeout(300);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      return await debugHover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
    }, 60_000, 500);
    log(`debug hover shows: ${((await debugHover.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)}`);
    await screenshot('debug-hover-df');
    await page.mouse.move(5, 600);

    // Hover df on the stopped line: the markdown smart summary.
    const dfBox = () => wordBox(editor, '# BREAKPOINT', 'df');
    const hover = page.locator('.monaco-hover', { hasText: /rows ×/ }).first();
    const hoverText = await altHover(editor, '# BREAKPOINT', 'df', /rows ×/, 'df');
    if (!/DataFrame/.test(hoverText) || !/500 rows × 3 columns/.test(hoverText)) throw new Error(`hover on df lacks the shape: ${JSON.stringify(hoverText)}`);
    for (const c of ['city', 'price', 'qty']) if (!hoverText.includes(c)) throw new Error(`hover lacks column ${c}`);
    log(`hover shows: ${hoverText.slice(0, 90).replace(/\s+/g, ' ')}…`);
    // More hover samples for the latency figure (each is a new hover request).
    for (let i = 0; i < 4; i++) {
      const box = await dfBox();
      await page.mouse.move(5, 600);
      await hover.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
      await page.keyboard.down('Alt');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      await hover.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => log(`extra hover ${i + 1} did not show`));
      await page.keyboard.up('Alt');
    }
    await page.mouse.move(5, 500);

    // Variables view → context menu → Inspect with dapscope.
    await until('Inspect with dapscope in the Variables context menu', async () => {
      await page.keyboard.press('Escape');
      await dfRow.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Inspect with dapscope' }).first();
      await item.waitFor({ state: 'visible', timeout: 5_000 });
      await page.waitForTimeout(400); // menus ignore a click that comes too soon after opening
      await item.hover();
      await item.click();
      try {
        await page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 15_000 });
        return true;
      } catch {
        return false;
      }
    }, 90_000, 1_000);
    log('webview opened from the Variables view');
    await until('webview columns', async () => (await webviewColumns()).join(',') === 'city,price,qty');
    const gen1 = Number(await webview().locator('body').getAttribute('data-generation'));
    const summary = await webview().locator('.summary .line').textContent();
    log(`webview shows columns city, price, qty (refresh #${gen1}): ${summary}`);
    if (!/500 rows × 3 columns/.test(summary ?? '')) throw new Error(`webview summary: ${summary}`);
    if ((await webview().locator('.coltable svg.hist').count()) < 1) throw new Error('no histogram in the webview');
    await until('the data viewer\'s first rows', async () => (await webview().locator('.vtable tbody tr.vrow:not(.vloading)').count()) >= 2);
    const count = await webview().locator('.vcount').textContent();
    if (!/of 500$/.test(count ?? '')) throw new Error(`data viewer count: ${count}`);
    await screenshot('webview-df');

    // Step over twice: every stop refreshes; after the second, df has "total".
    const stepOver = page.locator('.debug-toolbar .codicon-debug-step-over').first();
    for (let i = 1; i <= 2; i++) {
      const before = Number(await webview().locator('body').getAttribute('data-generation'));
      await stepOver.click();
      await until(`webview refresh after step ${i}`, async () => Number(await webview().locator('body').getAttribute('data-generation')) > before && (await webview().locator('body').getAttribute('data-state')) === 'result');
      log(`step ${i}: webview refreshed (refresh #${await webview().locator('body').getAttribute('data-generation')})`);
    }
    await until('the new column after the steps', async () => (await webviewColumns()).includes('total'));
    log(`webview after steps: ${(await webviewColumns()).join(', ')}`);
    await screenshot('webview-after-step');

    // The data viewer: sort by price (header click); the first row is the
    // program's own cheapest row (its index and price, computed by running
    // example.py's main() with the same interpreter).
    const want = JSON.parse(execFileSync(PYTHON, ['-c',
      'import json, sys; sys.path.insert(0, sys.argv[1]); import example; df = example.main(); ' +
      'r = df.sort_values("price", kind="stable", na_position="last"); print(json.dumps([int(r.index[0]), float(r["price"].iloc[0])]))', WS],
      { encoding: 'utf8' }).trim().split('\n').pop());
    await webview().locator('.vtable thead .vsort', { hasText: /^price$/ }).click();
    const first = await until('the cheapest row first after sorting by price', async () => {
      if ((await webview().locator('.vtable thead th[aria-sort="ascending"]').count()) !== 1) return '';
      const cells = await webview().locator('.vtable tbody tr.vrow:not(.vloading)').first().locator('th, td').allTextContents();
      return cells[0] === String(want[0]) ? cells : '';
    }, 30_000);
    const cols = await webview().locator('.vtable thead .vsort').allTextContents();
    const price = Number(first[1 + cols.findIndex((c) => c.startsWith('price'))]);
    if (Math.abs(price - want[1]) > 0.01) throw new Error(`sorted first row ${first}, the program says index ${want[0]} price ${want[1]}`);
    log(`data viewer sorted by price: first row ${first.join(' | ')} (the program: index ${want[0]}, price ${want[1]})`);
    await screenshot('webview-sorted');

    // A 100,000-row frame in the data viewer: scroll to the end, sort, filter;
    // each time the rows are the program's own (computed by running its
    // big_table() with the same interpreter).
    const bigStart = Date.now();
    const [bigLast, bigFirst, bigFiltered] = JSON.parse(execFileSync(PYTHON, ['-c',
      'import json, sys; sys.path.insert(0, sys.argv[1]); import example; b = example.big_table(); ' +
      's = b.sort_values("value", kind="stable", na_position="last"); f = s.query(\'group == "b" and value > 2\'); ' +
      'print(json.dumps([[int(b.index[-1]), float(b["value"].iloc[-1]), b["group"].iloc[-1]], [int(s.index[0]), float(s["value"].iloc[0])], [len(f), int(f.index[0]), float(f["value"].iloc[0])]]))', WS],
      { encoding: 'utf8' }).trim().split('\n').pop());
    // Close df's viewer first (one webview at a time): a middle click on its tab.
    await until('df\'s viewer closed', async () => {
      const tab = page.locator('.tabs-container .tab', { hasText: 'dapscope: df' }).first();
      if ((await tab.count()) === 0) return (await page.locator('iframe.webview').count()) === 0;
      await tab.click({ button: 'middle', timeout: 5_000 }).catch(() => {});
      return false;
    }, 60_000, 1_000);
    const bigRow = page.locator('.debug-pane .monaco-list-row', { hasText: /^\s*table\b/ }).first();
    await until('Inspect with dapscope on table', async () => {
      await page.keyboard.press('Escape');
      if (!(await bigRow.isVisible())) {
        const globals = page.locator('.debug-pane .monaco-list-row', { hasText: /^\s*Globals\s*$/ }).first();
        if ((await globals.getAttribute('aria-expanded')) === 'false') await globals.click();
        return false;
      }
      await bigRow.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Inspect with dapscope' }).first();
      await item.waitFor({ state: 'visible', timeout: 5_000 });
      await page.waitForTimeout(400);
      await item.hover();
      await item.click();
      return await page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 15_000 }).then(() => true, () => false);
    }, 90_000, 1_000);
    await until('the 100,000 rows of table', async () => /of 100,000$/.test((await webview().locator('.vcount').textContent()) ?? ''));
    // Cells as text without thousands separators; numbers as the grid shows them (4 significant digits).
    const bigCells = async (sel) => (await webview().locator(sel).first().locator('th, td').allTextContents()).map((c) => c.replace(/(\d),(?=\d{3})/g, '$1'));
    const near = (shown, want) => Math.abs(Number(shown) - want) <= 5e-4 * Math.max(1, Math.abs(want));
    const header = async () => (await webview().locator('.vtable thead .vsort').allTextContents()).map((c) => c.replace(/[^\w]+$/, ''));
    // Scroll to the end (End in the grid): the program's last row.
    await webview().locator('.vscroll').focus();
    await page.keyboard.press('End');
    const last = await until('the last row of table after End', async () => {
      const cells = await bigCells(`.vtable tbody tr.vrow[data-row="99999"]:not(.vloading)`);
      return cells.length && cells[0] === String(bigLast[0]) ? cells : '';
    }, 60_000);
    let hdr = await header();
    if (!near(last[1 + hdr.indexOf('value')], bigLast[1]) || last[1 + hdr.indexOf('group')] !== bigLast[2]) throw new Error(`last row ${last}, the program says ${bigLast}`);
    log(`table: scrolled to the end, row ${last.join(' | ')} (the program: ${bigLast.join(', ')}); ${await webview().locator('.vcount').textContent()}`);
    await screenshot('big-end');
    // Sort by value: the smallest value first, as pandas sorts it.
    await webview().locator('.vtable thead .vsort', { hasText: /^value/ }).click();
    const sorted = await until('table sorted by value', async () => {
      if ((await webview().locator('.vtable thead th[aria-sort="ascending"]').count()) !== 1) return '';
      const cells = await bigCells('.vtable tbody tr.vrow[data-row="0"]:not(.vloading)');
      return cells.length && cells[0] === String(bigFirst[0]) ? cells : '';
    }, 60_000);
    hdr = await header();
    if (!near(sorted[1 + hdr.indexOf('value')], bigFirst[1])) throw new Error(`sorted first row ${sorted}, the program says ${bigFirst}`);
    log(`table sorted by value: first row ${sorted.join(' | ')} (the program: ${bigFirst.join(', ')})`);
    // Filter (kept sorted): the count and the first row of pandas' query.
    const filterBox = webview().locator('.vfilter');
    await filterBox.fill('group == "b" and value > 2');
    await filterBox.press('Enter');
    const filtered = await until('table filtered', async () => {
      const count = (await webview().locator('.vcount').textContent()) ?? '';
      if (!count.includes(`of ${bigFiltered[0].toLocaleString('en-US')} (filtered from 100,000)`)) return '';
      const cells = await bigCells('.vtable tbody tr.vrow[data-row="0"]:not(.vloading)');
      return cells.length && cells[0] === String(bigFiltered[1]) ? cells : '';
    }, 60_000);
    if (!near(filtered[1 + hdr.indexOf('value')], bigFiltered[2]) || filtered[1 + hdr.indexOf('group')] !== 'b') throw new Error(`filtered first row ${filtered}, the program says ${bigFiltered}`);
    log(`table filtered (group == "b" and value > 2), sorted: ${bigFiltered[0]} rows, first ${filtered.join(' | ')} (the program: ${bigFiltered.slice(1).join(', ')})`);
    await screenshot('big-filtered');
    log(`TIME big data viewer steps: ${((Date.now() - bigStart) / 1000).toFixed(1)} s`);
    // Give the focus back to the first editor group (files opened later go there).
    const exampleTab = page.locator('.tabs-container .tab', { hasText: 'example.py' }).first();
    if (await exampleTab.count()) await exampleTab.click();

    // The same session through the sidecar's MCP endpoint.
    await runCommand('dapscope: Copy MCP Endpoint');
    const clip = await until('the MCP endpoint in the clipboard', async () => {
      const t = await page.evaluate(() => navigator.clipboard.readText());
      return t.includes('"url"') ? t : '';
    }, 30_000);
    const cfg = JSON.parse(clip);
    const ep = { url: cfg.url, token: cfg.headers.Authorization.replace(/^Bearer /, '') };
    log(`MCP endpoint ${ep.url}`);
    const unauth = await fetch(ep.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    if (unauth.status !== 401) throw new Error(`MCP without token: HTTP ${unauth.status}, want 401`);
    let { sid, msg } = await mcpCall(ep, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'dapscope-e2e', version: '1' } } });
    if (!msg?.result?.serverInfo) throw new Error(`MCP initialize: ${JSON.stringify(msg)}`);
    await mcpCall(ep, sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
    ({ msg } = await mcpCall(ep, sid, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'debug_sessions', arguments: {} } }));
    const sessions = msg?.result?.structuredContent?.sessions ?? [];
    const editorSession = sessions.find((s) => s.origin === 'editor');
    if (!editorSession || editorSession.status !== 'paused') throw new Error(`MCP debug_sessions: ${JSON.stringify(msg?.result)}`);
    log(`MCP sees the editor's session ${editorSession.id} (${editorSession.status})`);
    ({ msg } = await mcpCall(ep, sid, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'debug_inspect_variable', arguments: { expression: 'df', session_id: editorSession.id } } }));
    const text = JSON.stringify(msg?.result ?? msg);
    if (msg?.result?.isError || !text.includes('total') || !text.includes('500')) throw new Error(`MCP debug_inspect_variable df: ${text.slice(0, 500)}`);
    log('MCP debug_inspect_variable df sees the new column "total"');

    // VS Code's own MCP client (what Copilot agent mode uses) finds the server
    // through the extension's provider and starts it with the token.
    const listServers = async () => {
      await runCommand('MCP: List Servers');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'dapscope' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    };
    await until('VS Code to start the dapscope MCP server', async () => {
      await listServers();
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'dapscope' }).first();
      if (/Running/.test((await row.textContent()) ?? '') && /mcp\.method=tools\/list/.test(extensionLog())) return true;
      // Keyboard, not clicks: a tooltip of the "Add Server" row can cover the
      // dapscope row and swallow a click (seen under load).
      await page.keyboard.type('dapscope');
      await page.keyboard.press('Enter');
      const start = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start Server' }).first();
      if (await start.isVisible().catch(() => false)) {
        await page.keyboard.type('Start Server');
        await page.keyboard.press('Enter');
      } else await page.keyboard.press('Escape');
      return false;
    }, 90_000, 2_000);
    await screenshot('mcp-running');
    await page.keyboard.press('Escape');
    log('VS Code lists the dapscope MCP server as Running (initialize + tools/list with the token)');

    // Latency seen from the extension (its log file).
    await page.waitForTimeout(1_000);
    const ext = extensionLog();
    const hoverMs = timings(ext, /hover example\.py:\d+:\d+ answered in ([\d.]+) ms/g);
    const inspectMs = timings(ext, /inspect df answered in ([\d.]+) ms/g);
    if (!/startProxy for/.test(ext)) throw new Error('the session did not go through dapscope/startProxy');
    log(`LATENCY hover (answered, seen by the extension): ${stats(hoverMs)}`);
    log(`LATENCY inspect df (webview, seen by the extension): ${stats(inspectMs)}`);
    log(`MCP provider: ${/registered MCP server definition provider/.test(ext) ? 'registered with vscode.lm' : 'API not available in this VS Code'}`);

    // Stop debugging.
    await page.keyboard.press('Shift+F5');
    await until('the session to end', async () => (await page.locator('.debug-toolbar:visible').count()) === 0, 60_000);
    await screenshot('ended');

    // A debugpy subprocess: the child session (debugpyAttach) goes through the sidecar's proxy like its parent.
    await runCommand('View: Show Explorer');
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'child.py' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'child.py' }).waitFor({ state: 'visible' });
    const childEditor = page.locator('.editor-instance .monaco-editor').first();
    await childEditor.locator('.view-line', { hasText: '# CHILD BREAKPOINT' }).waitFor({ state: 'visible' });
    await setBreakpoint(childEditor, '# CHILD BREAKPOINT');
    await until('the subprocess configuration started', async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>Debug: Select and Start Debugging');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Select and Start Debugging' }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'dapscope: subprocess' }).first();
      await row.waitFor({ timeout: 5_000 });
      await row.click();
      return true;
    }, 60_000, 1_000);
    await until('the child session paused', async () => (await page.locator('.debug-pane .monaco-list-row', { hasText: /Subprocess \d+.*Paused on breakpoint/ }).count()) > 0);
    log('debugpy subprocess: child session paused on its breakpoint');
    await screenshot('child-stopped');
    const childHover = await altHover(childEditor, '# CHILD BREAKPOINT', 'settings', /dict/, 'child');
    if (!/settings/.test(childHover) || !/3/.test(childHover)) throw new Error(`hover on the child's dict: ${JSON.stringify(childHover)}`);
    log(`child hover (proxied child session): ${childHover.slice(0, 80).replace(/\s+/g, ' ')}…`);
    if (!/startProxy for "Subprocess \d+"/.test(extensionLog())) throw new Error('the child session did not go through the sidecar (no startProxy for "Subprocess N" in the extension log)');
    await page.waitForTimeout(1_000);
    log(`LATENCY hover in the child session (proxied, seen by the extension): ${stats(timings(extensionLog(), /hover child\.py:\d+:\d+ answered in ([\d.]+) ms/g))}`);
    await until('all sessions to end', async () => {
      if ((await page.locator('.debug-toolbar:visible').count()) === 0) return true;
      await page.keyboard.press('Shift+F5');
      return false;
    }, 90_000, 3_000);
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e.stack ?? e}`);
    if (page) await screenshot('failure');
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

await main();
