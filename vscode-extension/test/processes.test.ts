// Unit tests: "Compare across Processes", its model (processes.ts): the
// debug session tree (parents before children, other trees left out), the
// params of the one question, each row's label and answer, the counts of
// the heading, the table's HTML (every text escaped, rows left out to fit
// the bound, error rows without an Open button, each Open button's row
// index), and the page around it; then the page in headless Chromium under
// its CSP: Open posts its row's index, Refresh asks again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  answerText,
  anyTree,
  hasChildProcesses,
  processesHtml,
  processesPage,
  processesParams,
  processLabel,
  rootOf,
  tally,
  treeOf,
  type ProcessTable,
  type TreeSession,
} from '../src/processes';

const launch: TreeSession = { id: 'vs-root', name: 'pool.py' };
const w1: TreeSession = { id: 'vs-w1', name: 'Subprocess 101', parentSession: launch };
const w2: TreeSession = { id: 'vs-w2', name: 'Subprocess 102', parentSession: launch };
const grand: TreeSession = { id: 'vs-g', name: 'Subprocess 103', parentSession: w1 };
const other: TreeSession = { id: 'vs-other', name: 'other.py' };

test('the tree: the root first, each child after its parent, other sessions left out', () => {
  assert.equal(rootOf(grand), launch);
  assert.equal(rootOf(launch), launch);
  // live order puts the grandchild before its parent: it still comes after it
  const live = [grand, other, w2, launch, w1];
  assert.deepEqual(treeOf(live, w2).map((s) => s.id), ['vs-root', 'vs-w2', 'vs-w1', 'vs-g']);
  assert.deepEqual(treeOf(live, other).map((s) => s.id), ['vs-other']);
  assert.equal(hasChildProcesses(live, grand), true);
  assert.equal(hasChildProcesses(live, other), false);
  assert.equal(anyTree(live), true);
  assert.equal(anyTree([launch, other]), false);
});

test('the params: every session of the tree, the asking frame only when one is focused', () => {
  const tree = [launch, w1, w2];
  const p = processesParams(tree, 'vs-w1', "data['n']", 7, { max_preview_rows: 1 });
  assert.deepEqual(p, { vscodeSessionIds: ['vs-root', 'vs-w1', 'vs-w2'], expression: "data['n']", options: { max_preview_rows: 1 }, frameIds: { 'vs-w1': 7 } });
  assert.equal('frameIds' in processesParams(tree, 'vs-w1', 'x', undefined, {}), false);
  // frame 0 is a frame, not "none"
  assert.deepEqual(processesParams(tree, 'vs-w1', 'x', 0, {}).frameIds, { 'vs-w1': 0 });
});

const names = new Map([
  ['vs-w1', 'Subprocess 101'],
  ['vs-w2', 'Subprocess <102>'],
]);

/** A table as dapscope/inspectProcesses answers for a pool of two workers, its parent running and one process left out. */
const TABLE: ProcessTable = {
  expression: 'df["a"] < 1 & <b>',
  rows: [
    { session_id: 'sess-parent-1234', vscode_session_id: 'vs-root', status: 'running', error: 'not paused' },
    { session_id: 'sess-w1', vscode_session_id: 'vs-w1', pid: 101, status: 'paused', location: '/ws/pool.py:14', summary: 'DataFrame 10 × 2 · <ok>' },
    { session_id: 'sess-w2', vscode_session_id: 'vs-w2', pid: 102, status: 'paused', location: '/ws/pool.py:14', summary: 'DataFrame 20 × 2', problems: ['price: all NaN', 'id <dup> & "x"'] },
    { session_id: 'sess-w3', pid: 103, status: 'paused', error: "NameError: name 'df' is not defined" },
  ],
  omitted: 2,
};

test('labels and answers: the editor session name, the pid, the reason when there is no summary', () => {
  assert.equal(processLabel(TABLE.rows[1], names), 'Subprocess 101 (pid 101)');
  assert.equal(processLabel(TABLE.rows[3], names), 'session sess-w3 (pid 103)');
  // a session whose name has its pid already (Attach to Paused Ray Tasks names them so)
  assert.equal(processLabel({ session_id: 's', vscode_session_id: 'vs-r', pid: 77, status: 'paused' }, new Map([['vs-r', 'Ray: shard (pid 77)']])), 'Ray: shard (pid 77)');
  assert.equal(processLabel({ session_id: '', vscode_session_id: 'vs-x', name: 'Python: bridged', status: 'paused' }, names), 'Python: bridged');
  assert.equal(processLabel({ session_id: '', vscode_session_id: 'vs-x', status: 'unknown' }, names), 'vs-x');
  assert.equal(answerText(TABLE.rows[0]), 'not paused (running)');
  assert.equal(answerText(TABLE.rows[1]), 'DataFrame 10 × 2 · <ok>');
  assert.equal(answerText(TABLE.rows[3]), "NameError: name 'df' is not defined");
  assert.equal(answerText({ session_id: 's', status: 'paused' }), '');
});

test('the counts: answered rows, rows with problems, and the rows left out in the total', () => {
  assert.deepEqual(tally(TABLE), { answered: 2, withProblems: 1, total: 6 });
  assert.deepEqual(tally({ expression: 'x', rows: [] }), { answered: 0, withProblems: 0, total: 0 });
});

/** The table's rows as [class, cells…, open button's data-row]. */
function rowsOf(html: string): { cls: string; cells: string[]; open?: string }[] {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return [...body.matchAll(/<tr class="([^"]*)">(.*?)<\/tr>/gs)].map((m) => ({
    cls: m[1],
    cells: [...m[2].matchAll(/<td>(.*?)<\/td>/gs)].map((c) => c[1]),
    open: /data-row="(\d+)"/.exec(m[2])?.[1],
  }));
}

test('the table: a row per process, every text escaped, Open only on answered rows with their own index', () => {
  const html = processesHtml(TABLE, names);
  assert.match(html, /<h2>df\[&quot;a&quot;\] &lt; 1 &amp; &lt;b&gt; in 6 processes<\/h2>/);
  assert.match(html, /2 answered · 1 with problems · 2 left out to fit the size bound/);
  assert.equal(html.includes('<b>'), false);
  assert.equal(html.includes('<ok>'), false);
  const rows = rowsOf(html);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows.map((r) => r.cls), ['no-answer', 'ok', 'problems', 'no-answer']);
  assert.deepEqual(rows.map((r) => r.open), [undefined, '1', '2', undefined]);
  assert.deepEqual(rows[1].cells.slice(0, 4), ['Subprocess 101 (pid 101)', 'paused', '/ws/pool.py:14', 'DataFrame 10 × 2 · &lt;ok&gt;']);
  assert.equal(rows[2].cells[0], 'Subprocess &lt;102&gt; (pid 102)');
  assert.equal(rows[2].cells[4], '<ul><li>price: all NaN</li><li>id &lt;dup&gt; &amp; &quot;x&quot;</li></ul>');
  assert.deepEqual(rows[0].cells.slice(1, 4), ['running', '', 'not paused (running)']);
  assert.equal(rows[3].cells[3], 'NameError: name &#39;df&#39; is not defined');
  assert.equal(rows[0].cells[4], '');
  // one process, nothing left out: singular, no bound note
  const one = processesHtml({ expression: 'n', rows: [TABLE.rows[1]] }, names);
  assert.match(one, /<h2>n in 1 process<\/h2>/);
  assert.match(one, /1 answered · 0 with problems<\/p>/);
});

function page(body = processesHtml(TABLE, names)): string {
  return processesPage({ cspSource: ORIGIN, nonce: 'n0nce', styleUri: `${ORIGIN}/media/webview.css`, expression: '<x>', body, footer: 'asked 12:00:00 <in> 5 ms' });
}

test('the page: a strict CSP, the nonce on its one script, title and footer escaped', () => {
  const html = page();
  assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;;[^"]*script-src &#39;nonce-n0nce&#39;"/);
  assert.equal([...html.matchAll(/<script/g)].length, 1);
  assert.match(html, /<script nonce="n0nce">/);
  assert.match(html, /<title>&lt;x&gt; across processes<\/title>/);
  assert.match(html, /<body class="processes-view">\n<button id="refresh">Refresh<\/button>/);
  assert.match(html, /<p class="meta">asked 12:00:00 &lt;in&gt; 5 ms<\/p>/);
});

const ORIGIN = 'https://webview.test';
const ext = resolve('.');
let browser: Browser;
before(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
after(async () => browser?.close());

test('in Chromium: each Open posts its row, Refresh asks again, nothing the CSP refuses', async () => {
  const p = await browser.newPage();
  const cspErrors: string[] = [];
  p.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await p.addInitScript(() => {
    const w = window as unknown as { __posted: unknown[]; acquireVsCodeApi: () => unknown };
    w.__posted = [];
    w.acquireVsCodeApi = () => ({ postMessage: (m: unknown) => w.__posted.push(m) });
  });
  const html = page();
  await p.route(`${ORIGIN}/**`, (route) => {
    const u = new URL(route.request().url());
    if (u.pathname === '/') return route.fulfill({ contentType: 'text/html', body: html });
    return route.fulfill({ contentType: 'text/css', body: readFileSync(join(ext, u.pathname)) });
  });
  await p.goto(`${ORIGIN}/`);
  assert.deepEqual(await p.$$eval('table.processes tbody tr', (trs) => trs.map((tr) => tr.children[3].textContent)), [
    'not paused (running)',
    'DataFrame 10 × 2 · <ok>',
    'DataFrame 20 × 2',
    "NameError: name 'df' is not defined",
  ]);
  assert.equal(await p.locator('button.open').count(), 2);
  await p.locator('button.open').nth(1).click();
  await p.locator('button.open').nth(0).click();
  await p.locator('#refresh').click();
  assert.deepEqual(await p.evaluate(() => (window as unknown as { __posted: unknown[] }).__posted), [{ type: 'open', row: 2 }, { type: 'open', row: 1 }, { type: 'refresh' }]);
  assert.deepEqual(cspErrors, []);
  await p.close();
});
