// The data viewer in headless Chromium under the webview's CSP, against a
// fake extension in the page: a 100,000-row table answered page by page the
// way dapscope/page answers (sort stable with nulls last, a small filter
// language with INVALID_EXPRESSION errors, columns). Checks the virtualised
// grid (few rows in the DOM, the last row after End), header sorting, the
// filter box and its inline errors, the column picker, the statistics panel,
// copies, keeping the view across a new stop, the preview coming back when
// the value cannot be paged, and pages without rows (a filter that matches
// nothing, an empty table) said as such, never stuck on "loading rows…".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { webviewHtml } from '../src/webview/html';
import type { InspectResult, ViewState } from '../src/types';

const ext = resolve('.');
const artifacts = resolve(ext, '..', 'artifacts', 'webview');
const ORIGIN = 'https://webview.test';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const N = 100_000;
let browser: Browser;

before(async () => {
  mkdirSync(artifacts, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => browser?.close());

/** The table: a = i, b = ((i × 7919) mod 1000) / 10 (null every 1000th row), c = "k" + (i mod 13). */
function cellOf(i: number, col: string): number | string | null {
  if (col === 'a') return i;
  if (col === 'b') return i % 1000 === 0 ? null : ((i * 7919) % 1000) / 10;
  return `k${i % 13}`;
}

const RESULT: InspectResult = {
  name: 'big', type: 'DataFrame', detected_type: 'dataframe', summary: 'DataFrame 100,000 rows × 3 columns',
  structure: { shape: [N, 3], column_count: 3, columns: [{ name: 'a', dtype: 'int64', null_count: 0 }, { name: 'b', dtype: 'float64', null_count: 100 }, { name: 'c', dtype: 'object', null_count: 0 }] },
  preview: { columns: ['a', 'b', 'c'], head: [{ index: 0, values: [0, null, 'k0'] }], tail: [{ index: N - 1, values: [N - 1, 0.1, 'k3'] }], omitted_rows: N - 2 },
  statistics: { columns: [{ name: 'a', min: 0, max: N - 1, mean: 49999.5, std: 28867.65, distinct: N, quantiles: { p5: 5000, p25: 25000, p50: 50000, p75: 75000, p95: 95000 }, histogram: { start: 0, width: 25000, counts: [25000, 25000, 25000, 25000] } }] },
};

/** The fake extension, run in the page: answers page and stats requests, records every message. */
function fakeExtension(n: number): void {
  const w = window as unknown as {
    __posted: { type: string; [k: string]: unknown }[]; acquireVsCodeApi: () => unknown; __unavailable?: boolean; __nullEmpty?: boolean;
    __uncounted?: boolean; __holdCount?: boolean; __held?: () => void;
  };
  w.__posted = [];
  const cellOf = (i: number, col: string): number | string | null => (col === 'a' ? i : col === 'b' ? (i % 1000 === 0 ? null : ((i * 7919) % 1000) / 10) : `k${i % 13}`);
  const names = ['a', 'b', 'c'];
  const dtypes: Record<string, string> = { a: 'int64', b: 'float64', c: 'object' };
  const answer = (m: { id: number; params: { columns?: string[]; rows?: { offset: number; limit: number }; sort?: { column: string; descending?: boolean }[]; filter?: string; count?: boolean } }) => {
    if (w.__unavailable) return { name: 'big', error: { code: 'INVALID_ARGUMENT', message: 'browsing rows needs the Python probe (debugpy sessions)' } };
    const p = m.params;
    let order = Array.from({ length: n }, (_, i) => i);
    if (p.filter) {
      const f = /^\s*(\w+)\s*(>=|<=|==|>|<)\s*(-?[\d.]+|'[^']*')\s*$/.exec(p.filter);
      if (!f || !names.includes(f[1])) return { name: 'big', error: { code: 'INVALID_EXPRESSION', message: `filter '${p.filter}' at column ${p.filter.length}: SyntaxError: invalid syntax`, hint: 'use DataFrame.query syntax' } };
      const v = f[3].startsWith("'") ? f[3].slice(1, -1) : Number(f[3]);
      const ops: Record<string, (a: unknown) => boolean> = { '>=': (a) => a !== null && (a as number) >= (v as number), '<=': (a) => a !== null && (a as number) <= (v as number), '>': (a) => a !== null && (a as number) > (v as number), '<': (a) => a !== null && (a as number) < (v as number), '==': (a) => a === v };
      order = order.filter((i) => ops[f[2]](cellOf(i, f[1])));
    }
    for (const k of [...(p.sort ?? [])].reverse()) {
      order = order
        .map((i, j) => [i, j])
        .sort(([x, jx], [y, jy]) => {
          const a = cellOf(x, k.column), b = cellOf(y, k.column);
          if (a === null || b === null) return a === b ? jx - jy : a === null ? 1 : -1;
          const c = a < b ? -1 : a > b ? 1 : 0;
          return (k.descending ? -c : c) || jx - jy;
        })
        .map(([i]) => i);
    }
    const cols = p.columns ?? names;
    const off = p.rows?.offset ?? 0;
    const pos = order.slice(off, off + (p.rows?.limit ?? 100));
    // __nullEmpty: a page without rows as a sidecar before issue #28.7 answered it (rows: null).
    const none = w.__nullEmpty && !pos.length;
    const limit = p.rows?.limit ?? 100;
    // __uncounted: as a Spark page comes, its totals on request (count), unless it ends before its limit
    const totals = !w.__uncounted || p.count || pos.length < limit ? { total_rows: order.length, all_rows: n } : { total_pending: 'counted on request (count: true)' };
    return { name: 'big', type: 'DataFrame', page: { kind: 'dataframe', ...totals, offset: off, limit, positions: none ? null : pos, index: pos, columns: cols.map((c) => ({ name: c, dtype: dtypes[c] })), column_count: 3, rows: none ? null : pos.map((i) => cols.map((c) => cellOf(i, c))) } };
  };
  let state: unknown;
  w.acquireVsCodeApi = () => ({
    postMessage: (m: { type: string; id: number; column: string; params: { count?: boolean } }) => {
      w.__posted.push(m);
      if (m.type === 'page' && m.params.count && w.__holdCount) w.__held = () => window.postMessage({ type: 'page', id: m.id, result: answer(m as never) }, '*');
      else if (m.type === 'page') setTimeout(() => window.postMessage({ type: 'page', id: m.id, result: answer(m as never) }, '*'), 5);
      if (m.type === 'stats') setTimeout(() => window.postMessage({ type: 'stats', column: m.column, result: { name: `big["${m.column}"]`, detected_type: 'series', statistics: { distinct: 13, top_values: [{ value: 'k0', count: 7693 }, { value: 'k1', count: 7693 }] } } }, '*'), 5);
    },
    getState: () => state,
    setState: (s: unknown) => (state = s),
  });
}

async function open(n = N): Promise<{ page: Page; posted: () => Promise<{ type: string; [k: string]: unknown }[]>; cspErrors: string[]; pageErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const cspErrors: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.addInitScript(fakeExtension, n);
  const html = webviewHtml({ cspSource: ORIGIN, nonce: 'n0nce', scriptUri: `${ORIGIN}/dist/webview.js`, styleUri: `${ORIGIN}/media/webview.css`, title: 'test' });
  await page.route(`${ORIGIN}/**`, async (route) => {
    const u = new URL(route.request().url());
    if (u.pathname === '/') return route.fulfill({ contentType: 'text/html', body: html });
    const file = join(ext, u.pathname);
    return route.fulfill({ contentType: file.endsWith('.css') ? 'text/css' : 'text/javascript', body: readFileSync(file) });
  });
  await page.goto(`${ORIGIN}/`);
  return { page, posted: () => page.evaluate(() => (window as unknown as { __posted: { type: string }[] }).__posted), cspErrors, pageErrors };
}

async function post(page: Page, state: ViewState) {
  await page.evaluate((s) => window.postMessage({ type: 'state', state: s }, '*'), state);
  await page.waitForFunction((g) => document.body.dataset.generation === String(g), state.generation);
}

/** The visible rows: [index label, cells...] of each loaded row in the DOM. */
async function rows(page: Page): Promise<string[][]> {
  return page.$$eval('.vtable tbody tr.vrow:not(.vloading)', (trs) => trs.map((tr) => Array.from(tr.children).map((c) => c.textContent ?? '')));
}

async function firstRow(page: Page, want: string[]) {
  await page.waitForFunction((w) => {
    const tr = document.querySelector('.vtable tbody tr.vrow:not(.vloading)');
    return !!tr && Array.from(tr.children).map((c) => c.textContent).join('|') === w.join('|');
  }, want, { timeout: 5000 }).catch(async () => assert.fail(`first row ${JSON.stringify((await rows(page))[0])}, want ${JSON.stringify(want)}`));
}

const fmt = (v: number | string | null) => (v === null ? '—' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 6 }) : v);
const rowText = (i: number) => [fmt(i), fmt(cellOf(i, 'a')), fmt(cellOf(i, 'b')), fmt(cellOf(i, 'c'))];

test('grid: pages as it scrolls, few rows in the DOM, sorts, filters, errors inline', async () => {
  const { page, posted, cspErrors } = await open();
  await post(page, { expression: 'big', generation: 1, updatedAt: '12:00:00', result: RESULT });
  assert.equal(await page.locator('.previewtable').count(), 0, 'the grid replaces the preview');
  await firstRow(page, rowText(0));
  assert.match((await page.textContent('.vcount')) ?? '', /^rows 1–\d+ of 100,000$/);
  const domRows = await page.locator('.vtable tbody tr').count();
  assert.ok(domRows > 10 && domRows < 100, `${domRows} rows in the DOM`);
  // End: the last rows, still few in the DOM, few pages fetched.
  await page.focus('.vscroll');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.vtable tbody tr.vrow:last-child:not(.vloading)')?.getAttribute('data-row') === '99999');
  const last = await rows(page);
  assert.deepEqual(last[last.length - 1], rowText(N - 1));
  assert.ok((await page.locator('.vtable tbody tr').count()) < 100);
  const pages = (await posted()).filter((m) => m.type === 'page');
  assert.ok(pages.length <= 4, `${pages.length} page requests`);
  // Scrolling with the scrollbar to the middle shows the middle rows.
  await page.$eval('.vscroll', (el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
  await page.waitForFunction(() => {
    const r = Number(document.querySelector('.vtable tbody tr.vrow:not(.vloading)')?.getAttribute('data-row'));
    return r > 40000 && r < 60000;
  });
  // Header click: ascending by b (0.1 first; the nulls last), then descending, then off.
  await page.click('.vtable thead th[data-col="1"] .vsort');
  const asc = Array.from({ length: N }, (_, i) => i).filter((i) => cellOf(i, 'b') !== null).sort((x, y) => (cellOf(x, 'b') as number) - (cellOf(y, 'b') as number) || x - y);
  await firstRow(page, rowText(asc[0]));
  assert.equal(await page.getAttribute('.vtable thead th[data-col="1"]', 'aria-sort'), 'ascending');
  await page.focus('.vscroll');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.vtable tbody tr.vrow:last-child:not(.vloading) td:nth-of-type(2)')?.textContent === '—');
  await page.click('.vtable thead th[data-col="1"] .vsort');
  await firstRow(page, rowText(Array.from({ length: N }, (_, i) => i).find((i) => cellOf(i, 'b') === 99.9) as number));
  assert.equal(await page.getAttribute('.vtable thead th[data-col="1"]', 'aria-sort'), 'descending');
  await page.click('.vtable thead th[data-col="1"] .vsort');
  await firstRow(page, rowText(0));
  // Filter: the matching rows and the count; a bad filter says why, inline.
  await page.fill('.vfilter', 'a >= 99990');
  await page.press('.vfilter', 'Enter');
  await firstRow(page, rowText(99990));
  await page.waitForFunction(() => document.querySelector('.vcount')?.textContent === 'rows 1–10 of 10 (filtered from 100,000)');
  assert.equal((await rows(page)).length, 10);
  await page.fill('.vfilter', 'a >=');
  await page.press('.vfilter', 'Enter');
  await page.waitForSelector('.verror:not([hidden])');
  assert.match((await page.textContent('.verror')) ?? '', /INVALID_EXPRESSION: filter 'a >=' at column 4/);
  assert.equal((await rows(page)).length, 0);
  const before = (await posted()).filter((m) => m.type === 'page').length;
  await page.$eval('.vscroll', (el) => (el.scrollTop = 10));
  await page.waitForTimeout(100);
  assert.equal((await posted()).filter((m) => m.type === 'page').length, before, 'a failed selection is not asked again on scroll');
  await page.fill('.vfilter', "c == 'k3'");
  await page.press('.vfilter', 'Enter');
  await firstRow(page, rowText(3));
  assert.equal(await page.locator('.verror:not([hidden])').count(), 0);
  await page.screenshot({ path: join(artifacts, 'viewer-grid.png') });
  assert.deepEqual(cspErrors, []);
  await page.close();
});

test('picker, statistics, copies, a new stop, and the preview when paging is unavailable', async () => {
  const { page, posted } = await open();
  await post(page, { expression: 'big', generation: 1, updatedAt: '12:00:00', result: RESULT });
  await firstRow(page, rowText(0));
  // Column picker: hide b; the extension is told, pages ask for a and c only.
  await page.click('.vcolumns');
  assert.equal(await page.locator('.vpicker input.vpick').count(), 3);
  await page.uncheck('.vpicker input.vpick[value="b"]');
  await firstRow(page, [fmt(0), fmt(0), 'k0']);
  assert.deepEqual(await page.$$eval('.vtable thead .vsort', (b) => b.map((x) => x.textContent)), ['a', 'c']);
  let msgs = await posted();
  assert.deepEqual(msgs.filter((m) => m.type === 'hidden').at(-1), { type: 'hidden', hidden: ['b'] });
  assert.deepEqual((msgs.filter((m) => m.type === 'page').at(-1) as unknown as { params: { columns: string[] } }).params.columns, ['a', 'c']);
  assert.equal(await page.textContent('.vcolumns'), 'Columns 2/3');
  // Statistics: a from the inspection result, c asked of the extension.
  await page.click('.vtable thead th[data-col="0"] .vstat');
  await page.waitForSelector('.vside:not([hidden]) .vstatsbody');
  assert.equal(await page.locator('.vside svg.hist rect.bar').count(), 4);
  assert.match((await page.textContent('.vside')) ?? '', /Quantiles.*5%.*5,000/s);
  assert.equal(await page.$eval('.vside .hist .bar', (e) => getComputedStyle(e).fill), 'rgb(26, 133, 255)', 'the theme colour (its fallback here)');
  await page.click('.vtable thead th[data-col="1"] .vstat');
  await page.waitForFunction(() => /Top values/.test(document.querySelector('.vside')?.textContent ?? ''));
  assert.deepEqual((await posted()).filter((m) => m.type === 'stats'), [{ type: 'stats', column: 'c' }]);
  assert.match((await page.textContent('.vside .vtop')) ?? '', /k0\s*7,693/);
  await page.screenshot({ path: join(artifacts, 'viewer-stats.png') });
  // Sort, select rows 0..2 (click, Shift+click), copy them; copy as code.
  await page.click('.vtable thead th[data-col="1"] .vsort', { modifiers: ['Shift'] });
  await page.click('.vtable thead th[data-col="1"] .vsort', { modifiers: ['Shift'] });
  await firstRow(page, [fmt(9), fmt(9), 'k9']); // 'k9' > 'k12' > 'k10' > 'k1': strings sort as strings
  await page.click('.vtable tbody tr[data-row="0"] td');
  await page.click('.vtable tbody tr[data-row="2"] td', { modifiers: ['Shift'] });
  await page.click('.vcopy[data-format="tsv"]');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'copy'));
  msgs = await posted();
  assert.equal((msgs.find((m) => m.type === 'copy') as unknown as { text: string }).text, '\ta\tc\n9\t9\tk9\n22\t22\tk9\n35\t35\tk9\n');
  await page.click('.vcode');
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'copy').length === 2);
  assert.equal((await posted()).filter((m) => m.type === 'copy')[1].text, 'big.sort_values("c", ascending=False, kind="stable", na_position="last")[["a", "c"]]');
  // Keyboard: Enter shows the cursor row's values; PageDown moves a page.
  await page.focus('.vscroll');
  await page.keyboard.press('Enter');
  assert.match((await page.textContent('.vside')) ?? '', /Row 35.*position 35/s);
  // A new stop: sort, hidden columns and scroll position are kept, the rows fetched again.
  await page.keyboard.press('PageDown');
  const top = await page.getAttribute('.vtable tbody tr.vrow', 'data-row');
  const n = (await posted()).filter((m) => m.type === 'page').length;
  await post(page, { expression: 'big', generation: 2, updatedAt: '12:00:05', result: RESULT, hidden: ['b'] });
  await page.waitForFunction((k) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'page').length > k, n);
  await page.waitForFunction((t) => document.querySelector('.vtable tbody tr.vrow:not(.vloading)')?.getAttribute('data-row') === t, top);
  assert.equal(await page.getAttribute('.vtable thead th[data-col="1"]', 'aria-sort'), 'descending');
  assert.deepEqual(await page.$$eval('.vtable thead .vsort', (b) => b.map((x) => x.textContent?.replace(/[▲▼]\d*/, ''))), ['a', 'c']);
  // Another expression whose paging is unavailable (a Delve session): the preview stays.
  await page.evaluate(() => ((window as unknown as { __unavailable: boolean }).__unavailable = true));
  await post(page, { expression: 'other', generation: 3, updatedAt: '12:00:06', result: { ...RESULT, name: 'other' } });
  await page.waitForSelector('.previewtable');
  assert.equal(await page.locator('.viewer').count(), 0);
  await page.close();
});

/** Waits for the row count's text (5 s: a viewer stuck on "loading rows…" fails here, saying what it shows). */
async function countIs(page: Page, want: string) {
  await page
    .waitForFunction((w) => document.querySelector('.vcount')?.textContent === w, want, { timeout: 5000 })
    .catch(async () => assert.fail(`the count reads ${JSON.stringify(await page.textContent('.vcount'))}, want ${JSON.stringify(want)}`));
}

test('an empty page: "no rows match" for a filter, "no rows" for an empty table, never stuck loading (issue #28.7)', async () => {
  // As this sidecar answers a page without rows (rows: []), and as one
  // before the fix did (rows: null): the viewer says so either way.
  for (const nullEmpty of [false, true]) {
    const { page, pageErrors } = await open();
    if (nullEmpty) await page.evaluate(() => ((window as unknown as { __nullEmpty: boolean }).__nullEmpty = true));
    await post(page, { expression: 'big', generation: 1, updatedAt: '12:00:00', result: RESULT });
    await firstRow(page, rowText(0));
    await page.fill('.vfilter', 'a > 1000000');
    await page.press('.vfilter', 'Enter');
    await countIs(page, 'no rows match the filter (of 100,000)');
    assert.equal((await rows(page)).length, 0);
    assert.equal(await page.textContent('.vtable tbody tr.vempty'), 'No rows match the filter.');
    assert.deepEqual(await page.$$eval('.vtable thead .vsort', (b) => b.map((x) => x.textContent)), ['a', 'b', 'c'], 'the columns stay');
    assert.equal(await page.locator('.verror:not([hidden])').count(), 0, 'an empty page is no error');
    // A filter that matches again shows its rows.
    await page.fill('.vfilter', 'a >= 99990');
    await page.press('.vfilter', 'Enter');
    await firstRow(page, rowText(99990));
    await countIs(page, 'rows 1–10 of 10 (filtered from 100,000)');
    if (!nullEmpty) await page.screenshot({ path: join(artifacts, 'viewer-empty.png') });
    assert.deepEqual(pageErrors, [], nullEmpty ? 'rows: null' : 'rows: []');
    await page.close();
  }
  // A table without rows.
  const { page, pageErrors } = await open(0);
  const empty: InspectResult = { ...RESULT, summary: 'DataFrame 0 rows × 3 columns', structure: { ...RESULT.structure, shape: [0, 3] }, preview: { columns: ['a', 'b', 'c'], head: [], tail: [] }, statistics: undefined };
  await post(page, { expression: 'big', generation: 1, updatedAt: '12:00:00', result: empty });
  await countIs(page, 'no rows');
  assert.equal(await page.textContent('.vtable tbody tr.vempty'), 'No rows: the table is empty.');
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test('a page first, its total counted on request (Spark): "of ? (counting…)", paging forward, then the count', async () => {
  const { page, posted, pageErrors } = await open();
  await page.evaluate(() => Object.assign(window, { __uncounted: true, __holdCount: true }));
  await post(page, { expression: 'big', generation: 1, updatedAt: '12:00:00', result: RESULT });
  await firstRow(page, rowText(0));
  await page
    .waitForFunction(() => /^rows 1–\d+ of \? \(counting…\)$/.test(document.querySelector('.vcount')?.textContent ?? ''), undefined, { timeout: 5000 })
    .catch(async () => assert.fail(`the count reads ${JSON.stringify(await page.textContent('.vcount'))}`));
  const counts = (await posted()).filter((m) => m.type === 'page' && (m.params as { count?: boolean }).count);
  assert.deepEqual(counts.map((m) => (m.params as { rows: unknown }).rows), [{ offset: 0, limit: 0 }], 'one count, asked after the first page');
  // paging forward before the count: End goes to the last row seen, and the next block loads
  await page.focus('.vscroll');
  for (let k = 0; k < 3; k++) await page.keyboard.press('End');
  await page
    .waitForFunction(() => Array.from(document.querySelectorAll('.vtable tbody tr.vrow:not(.vloading)')).some((tr) => Number(tr.getAttribute('data-row')) >= 200), undefined, { timeout: 5000 })
    .catch(() => assert.fail('no row past the first block loaded before the count'));
  assert.match((await page.textContent('.vcount')) ?? '', /of \? \(counting…\)$/);
  // the count comes: the total, and "last row" reaches the end
  await page.evaluate(() => (window as unknown as { __held: () => void }).__held());
  await page.waitForFunction(() => /of 100,000$/.test(document.querySelector('.vcount')?.textContent ?? ''), undefined, { timeout: 5000 });
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('.vtable tbody tr.vrow:last-child:not(.vloading)')?.getAttribute('data-row') === '99999', undefined, { timeout: 5000 });
  assert.equal((await posted()).filter((m) => m.type === 'page' && (m.params as { count?: boolean }).count).length, 1, 'counted once');
  await page.screenshot({ path: join(artifacts, 'viewer-counting.png') });
  assert.deepEqual(pageErrors, []);
  await page.close();
});
