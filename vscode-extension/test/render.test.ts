// Unit tests: the webview's rendering functions on the Go golden results
// (escaping, column table, histogram, preview, layouts for arrays, dicts,
// objects, errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellText, escapeHtml, formatBytes, formatNumber, histogramEdges, renderHistogram, renderResult, renderView } from '../src/webview/render';
import { contentSecurityPolicy, webviewHtml } from '../src/webview/html';
import { golden, goldenError, partial } from './goldens';

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

test('histogram bars scale to the tallest bin; edges from start and width', () => {
  const svg = renderHistogram({ start: 0, width: 0.1, counts: [5, 10, 0] }, 30, 20);
  const heights = [...svg.matchAll(/height="(\d+)"><title>/g)].map((m) => Number(m[1]));
  assert.deepEqual(heights, [10, 20, 0]);
  assert.deepEqual(histogramEdges({ start: 0, width: 0.1, counts: [5, 10, 0] }), [0, 0.1, 0.2, 0.3]);
  assert.match(svg, /aria-label="Histogram of 3 bins from 0 to 0.3"/);
  assert.match(svg, /<title>0.2 – 0.3: 0<\/title>/);
  assert.match(svg, /role="img"/);
  assert.equal(renderHistogram(undefined), '');
});

test('DataFrame: summary, column table with stats, preview with omitted rows', () => {
  const html = renderResult(golden('dataframe'));
  assert.match(html, /DataFrame 1,000 rows × 10 columns, 71.4 KB, 4 null cells in 2 columns/);
  for (const c of ['c0', 'c1', 'c7', 'cat', 'when']) assert.match(html, new RegExp(`data-column="${c}"`));
  assert.match(html, /data-column="c1">.*?<td class="num has-nulls">3<\/td>/);
  assert.match(html, /data-column="c0">.*?<td class="num">0<\/td><td class="num">1,000<\/td>/);
  assert.match(html, /c \(360\), a \(322\), b \(318\)/);
  assert.match(html, /data-column="when">.*?<td class="num">2024-01-01T00:00:00<\/td><td class="num">2024-02-11T15:00:00<\/td>/);
  assert.equal((html.match(/<svg class="hist"/g) ?? []).length, 8);
  assert.match(html, /… 993 rows …/);
  assert.match(html, /Shape<\/dt><dd>1,000 × 10/);
  assert.match(html, /Index<\/dt><dd>RangeIndex · int64 · 0..1000 step 1/);
  assert.doesNotMatch(html, /badge-sampled|badge-estimated|≈/);
});

test('DataFrame of a million rows: sampled statistics, estimated distinct counts', () => {
  const html = renderResult(golden('dataframe_1m_rows'));
  assert.match(html, /DataFrame 1,000,000 rows × 10 columns/);
  assert.match(html, /badge-sampled/);
  assert.match(html, /badge-estimated" title="Distinct counts estimated from a sample">distinct estimated/);
  assert.match(html, /data-column="c0">.*?≈/);
  assert.equal((html.match(/<svg class="hist"/g) ?? []).length, 10);
  assert.match(html, /… 999,993 rows …/);
});

test('DataFrame cells and top values are escaped', () => {
  const html = renderResult(golden('dataframe_mixed'));
  assert.match(html, /<td class="">b&#39;ab&#39;<\/td>/);
  assert.match(html, /<td class="">\{&quot;k&quot;:&quot;v&quot;\}<\/td>/);
  assert.match(html, /<td class="null">—<\/td>/);
  assert.match(html, /b&#39;\\x00\\x01&#39; \(1\)/);
  assert.ok(!html.includes(`b'ab'`), 'cell values are escaped');
  assert.match(html, /badge-estimated" title="Shallow memory figure/);
});

test('ndarray: facts, distribution, values, partial badge', () => {
  const html = renderResult(partial('ndarray_1m', ['histogram']));
  assert.match(html, /Dtype<\/dt><dd>float64/);
  assert.match(html, /Contiguous<\/dt><dd>C, F/);
  assert.match(html, /Bytes<\/dt><dd>7.6 MB/);
  assert.match(html, /badge-partial/);
  assert.match(html, /skipped: histogram/);
  assert.match(html, /badge-truncated/);
  assert.match(html, /badge-sampled/);
  assert.match(html, /aria-label="Distribution"/);
  assert.match(html, /aria-label="Values"/);
  assert.doesNotMatch(renderResult(golden('ndarray_1m')), /badge-partial/);
});

test('dict and object layouts', () => {
  const d = renderResult(golden('dict'));
  assert.match(d, /<th scope="col">Key<\/th>/);
  assert.match(d, /<th scope="row" class="key">train<\/th><td class="dtype">list<\/td><td class="value">\[1,2,3\]<\/td>/);
  assert.match(d, /\{&quot;deep&quot;:&quot;&lt;dict len=1&gt;&quot;\}/);
  assert.match(d, /badge-truncated/);
  const o = renderResult(golden('object_plain'));
  assert.match(o, /aria-label="Attributes"/);
  assert.match(o, /&#39;plain&#39;/);
  assert.match(o, /\{&#39;train&#39;: \[1, 2\], &#39;test&#39;: \[3\]\}/);
  assert.match(o, /Class<\/dt><dd>Plain/);
  assert.match(o, /Module<\/dt><dd>__main__/);
});

test('errors show code, hint and available variables', () => {
  const html = renderResult(goldenError('error_not_found', 'nope'));
  assert.match(html, /role="alert"/);
  assert.match(html, /VARIABLE_NOT_FOUND: name &#39;nope&#39; is not defined in this frame/);
  assert.match(html, /<p class="hint">pick one of available_variables, or another frame<\/p>/);
  assert.match(html, /<code>df<\/code>/);
});

test('Go results render through the same layouts', () => {
  const s = renderResult(golden('go_struct'));
  assert.match(s, /aria-label="Attributes"/);
  assert.match(s, /Class<\/dt><dd>main.Point/);
  assert.match(s, /<th scope="row" class="key">Label<\/th><td class="dtype">string<\/td><td class="value">&quot;origin&quot;<\/td>/);
  const e = renderResult(goldenError('go_error_not_found', 'nope'));
  assert.match(e, /VARIABLE_NOT_FOUND/);
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
