// The webview rendered in headless Chromium (Debian chromium, playwright-core)
// from the Go golden results (test/goldens.ts), under the same strict CSP as in VS Code: DOM
// assertions, keyboard navigation, the refresh message, and a screenshot in
// artifacts/webview/. The data viewer that replaces the preview of tables is
// tested in viewer.browser.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webviewHtml } from '../src/webview/html';
import type { ViewState } from '../src/types';
import { golden, goldenError, partial } from './goldens';

const ext = resolve('.');
const artifacts = resolve(ext, '..', 'artifacts', 'webview');
const ORIGIN = 'https://webview.test';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
let browser: Browser;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => browser?.close());

/** Opens the webview shell with a stubbed acquireVsCodeApi; returns the page and the messages it posted. */
async function open(): Promise<{ page: Page; posted: () => Promise<unknown[]>; cspErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __posted: unknown[]; acquireVsCodeApi: () => unknown };
    w.__posted = [];
    let state: unknown;
    w.acquireVsCodeApi = () => ({ postMessage: (m: unknown) => w.__posted.push(m), getState: () => state, setState: (s: unknown) => (state = s) });
  });
  const html = webviewHtml({ cspSource: ORIGIN, nonce: 'n0nce', scriptUri: `${ORIGIN}/dist/webview.js`, styleUri: `${ORIGIN}/media/webview.css`, title: 'test' });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const u = new URL(route.request().url());
    if (u.pathname === '/') return route.fulfill({ contentType: 'text/html', body: html });
    const file = join(ext, u.pathname);
    return route.fulfill({ contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript', body: readFileSync(file) });
  });
  await page.goto(`${ORIGIN}/`);
  return { page, posted: () => page.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), cspErrors };
}

async function post(page: Page, state: ViewState) {
  await page.evaluate((s) => window.postMessage({ type: 'state', state: s }, '*'), state);
  await page.waitForFunction((g) => document.body.dataset.generation === String(g), state.generation);
}

test('DataFrame view: columns, histograms, sticky preview header, badges', async () => {
  const { page, posted, cspErrors } = await open();
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  await post(page, { expression: 'df', generation: 1, updatedAt: '12:00:00', elapsedMs: 14, sessionName: 'golden', result: golden('dataframe_1m_rows') });
  const cols = await page.$$eval('.coltable tbody th.colname', (els) => els.map((e) => e.textContent));
  assert.deepEqual(cols, ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
  assert.equal(await page.locator('.coltable svg.hist').count(), 10);
  const bars = await page.locator('.coltable tr[data-column="c0"] rect.bar').count();
  assert.equal(bars, 10);
  assert.match((await page.textContent('.summary .line')) ?? '', /1,000,000 rows × 10 columns/);
  assert.equal(await page.locator('.badge-sampled').count(), 1);
  // The data viewer takes the preview's place and asks for its first pages
  // (answered in viewer.browser.test.ts; here nobody answers).
  assert.equal(await page.locator('.previewtable').count(), 0);
  assert.equal(await page.locator('section.viewer .vscroll').count(), 1);
  const asked = ((await posted()) as { type: string; params?: { rows?: { offset: number; limit: number } } }[]).filter((m) => m.type === 'page').map((m) => m.params?.rows);
  assert.deepEqual(asked, [{ offset: 0, limit: 0 }, { offset: 0, limit: 200 }]);
  assert.equal(await page.$eval('.coltable thead th', (e) => getComputedStyle(e).position), 'sticky');
  // Theme variables drive colours: the fallback applies outside VS Code.
  assert.equal(await page.$eval('.hist .bar', (e) => getComputedStyle(e).fill), 'rgb(26, 133, 255)');
  // The CSP is enforced: an inline script does not run.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.body.appendChild(s);
  });
  assert.equal(await page.evaluate(() => (window as unknown as { __inline?: boolean }).__inline), undefined);
  assert.ok(cspErrors.length >= 1, 'the inline script was blocked by the CSP');
  // Keyboard: focus the first column row, arrow down moves to the next; R refreshes.
  await page.focus('.coltable tbody tr[tabindex="0"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.column), 'c1');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.column), 'c9');
  await page.keyboard.press('r');
  await page.click('#refresh');
  const msgs = (await posted()) as { type: string }[];
  assert.equal(msgs.filter((m) => m.type === 'refresh').length, 2);
  await page.screenshot({ path: join(artifacts, 'dataframe.png'), fullPage: true });
  await page.close();
});

test('array, dict, object and error layouts; refresh replaces the content', async () => {
  const { page } = await open();
  await post(page, { expression: 'arr1m', generation: 1, updatedAt: '12:00:01', result: partial('ndarray_1m', ['histogram']) });
  assert.equal(await page.locator('.dist svg.hist rect.bar').count(), 10);
  assert.equal(await page.locator('.badge-partial').count(), 1);
  await page.screenshot({ path: join(artifacts, 'ndarray.png'), fullPage: true });
  await post(page, { expression: 'data', generation: 2, updatedAt: '12:00:02', result: golden('dict') });
  assert.equal(await page.locator('.itemtable tbody tr').count(), 3);
  assert.match((await page.textContent('.itemtable')) ?? '', /\{"deep":"<dict len=1>"\}/);
  assert.equal(await page.locator('.dist').count(), 0, 'the previous content is gone');
  await post(page, { expression: 'plain', generation: 3, updatedAt: '12:00:03', result: golden('object_plain') });
  assert.match((await page.textContent('.attrtable')) ?? '', /\{'train': \[1, 2\], 'test': \[3\]\}/);
  await page.screenshot({ path: join(artifacts, 'object.png'), fullPage: true });
  await post(page, { expression: 'nope', generation: 4, updatedAt: '12:00:04', result: goldenError('error_not_found', 'nope') });
  assert.match((await page.textContent('[role=alert]')) ?? '', /VARIABLE_NOT_FOUND/);
  assert.equal(await page.getAttribute('body', 'data-state'), 'result');
  await post(page, { expression: 'df', generation: 5, updatedAt: '12:00:05', failure: 'The debug session has ended.' });
  assert.equal(await page.getAttribute('body', 'data-state'), 'failure');
  await page.close();
});
