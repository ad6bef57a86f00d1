// Unit tests: the webview's rendering functions on fixture results (escaping,
// column table, histogram, preview, layouts for arrays, dicts, objects, errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellText, escapeHtml, formatBytes, formatNumber, renderHistogram, renderResult, renderView } from '../src/webview/render';
import { contentSecurityPolicy, webviewHtml } from '../src/webview/html';
import type { InspectResult } from '../src/types';

const fixture = (n: string): InspectResult => JSON.parse(readFileSync(join('test', 'fixtures', `${n}.json`), 'utf8'));

test('escaping and number formatting', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(formatNumber(1234567), '1,234,567');
  assert.equal(formatNumber(50.0123), '50.01');
  assert.equal(formatNumber(0.00001234), '1.234e-5');
  assert.equal(formatBytes(80128), '78.3 KB');
  assert.equal(formatBytes(12), '12 B');
  assert.equal(cellText(null), '—');
  assert.equal(cellText([1, 2]), '[1,2]');
});

test('histogram bars scale to the tallest bin', () => {
  const svg = renderHistogram({ edges: [0, 1, 2, 3], counts: [5, 10, 0] }, 30, 20);
  const heights = [...svg.matchAll(/height="(\d+)"><title>/g)].map((m) => Number(m[1]));
  assert.deepEqual(heights, [10, 20, 0]);
  assert.match(svg, /role="img"/);
  assert.equal(renderHistogram(undefined), '');
});

test('DataFrame: summary, column table with stats, preview with omitted rows', () => {
  const html = renderResult(fixture('dataframe'));
  assert.match(html, /DataFrame 1,000 rows × 4 columns/);
  for (const c of ['price', 'qty', 'city', 'when']) assert.match(html, new RegExp(`data-column="${c}"`));
  assert.match(html, /<td class="num has-nulls">12<\/td>/);
  assert.match(html, /≈1,000/);
  assert.match(html, /Paris \(400\)/);
  assert.match(html, /&lt;Nice&gt;/);
  assert.ok(!html.includes('<Nice>'), 'cell values are escaped');
  assert.equal((html.match(/<svg class="hist"/g) ?? []).length, 2);
  assert.match(html, /… 994 rows …/);
  assert.match(html, /badge-sampled/);
  assert.match(html, /Shape<\/dt><dd>1,000 × 4/);
});

test('ndarray: facts, distribution, values, partial badge', () => {
  const html = renderResult(fixture('ndarray'));
  assert.match(html, /Dtype<\/dt><dd>float64/);
  assert.match(html, /Contiguous<\/dt><dd>C, F/);
  assert.match(html, /badge-partial/);
  assert.match(html, /skipped: histogram/);
  assert.match(html, /badge-truncated/);
  assert.match(html, /aria-label="Values"/);
});

test('dict and object layouts', () => {
  const d = renderResult(fixture('dict'));
  assert.match(d, /<th scope="col">Key<\/th>/);
  assert.match(d, /epochs/);
  assert.match(d, /\[64,32\]/);
  const o = renderResult(fixture('object'));
  assert.match(o, /aria-label="Attributes"/);
  assert.match(o, /&#39;baseline &lt;v1&gt;&#39;/);
  assert.match(o, /Class<\/dt><dd>Model/);
});

test('errors show code, hint and available variables', () => {
  const html = renderResult(fixture('error'));
  assert.match(html, /role="alert"/);
  assert.match(html, /VARIABLE_NOT_FOUND/);
  assert.match(html, /<code>df<\/code>/);
});

test('view footer carries the refresh generation', () => {
  const html = renderView({ expression: 'df', generation: 3, updatedAt: '10:00:00', failure: 'not paused' });
  assert.match(html, /data-generation="3"/);
  assert.match(html, /not paused/);
});

test('shell has a strict CSP with a nonce and no inline code', () => {
  const csp = contentSecurityPolicy('https://x.test', 'abc');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc'/);
  assert.ok(!csp.includes('unsafe-inline'));
  const html = webviewHtml({ cspSource: 'https://x.test', nonce: 'abc', scriptUri: 'https://x.test/w.js', styleUri: 'https://x.test/w.css', title: 't' });
  assert.match(html, /<script nonce="abc" src="https:\/\/x.test\/w.js"><\/script>/);
  assert.ok(!/style="/.test(html));
});
