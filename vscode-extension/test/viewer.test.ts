// Unit tests of the data viewer's pure parts: the block cache and the scaled
// scroll mapping of the virtualised grid, the header's sort cycle, the rows'
// HTML, the column picker, the statistics panel (on the Go golden results),
// TSV/CSV and "Copy as code".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from '../src/protocol';
import { copyAsCode, pyString, toDelimited } from '../src/webview/copy';
import { BLOCK, BlockCache, MAX_BLOCKS, MAX_SCROLL_PX, firstRowAt, nextSort, renderEmptyRows, renderGridHeader, renderGridRows, rowsLabel, scrollTopFor, settledPage, spacerHeight } from '../src/webview/grid';
import { renderPicker, renderStatsPanel, shownColumns } from '../src/webview/panels';
import { columnStats } from '../src/webview/render';
import { browsable, filterPlaceholder } from '../src/webview/viewer';
import { golden, goldenError } from './goldens';

function page(offset: number, n: number, total: number): Page {
  const rows = Array.from({ length: Math.max(0, Math.min(n, total - offset)) }, (_, k) => [offset + k, `s${offset + k}`]);
  return {
    kind: 'dataframe', total_rows: total, all_rows: total * 2, offset, limit: n, positions: rows.map((r) => (r[0] as number) * 2),
    index: rows.map((r) => `i${r[0]}`), columns: [{ name: 'a', dtype: 'int64' }, { name: 'b', dtype: 'object' }], column_count: 5, rows,
  };
}

test('block cache: asks each missing block once, serves rows, drops the least recently used', () => {
  const c = new BlockCache();
  assert.deepEqual(c.missing(0, 50), [0], 'total unknown: the first block only');
  assert.deepEqual(c.missing(0, 50), [], 'in flight');
  c.put(0, page(0, BLOCK, 1000));
  assert.deepEqual(c.row(7), { position: 14, index: 'i7', cells: [7, 's7'] });
  assert.equal(c.row(BLOCK), undefined);
  assert.deepEqual(c.missing(150, 450), [1, 2]);
  assert.deepEqual(c.missing(900, 5000), [4], 'bounded by the total');
  c.failed(4);
  assert.deepEqual(c.missing(900, 1000), [4], 'a failed block is asked again');
  for (let b = 1; b <= MAX_BLOCKS + 1; b++) c.put(b, page(b * BLOCK, BLOCK, 1_000_000));
  assert.equal(c.has(0), false, 'the oldest block went');
  assert.equal(c.has(MAX_BLOCKS + 1), true);
  assert.equal(c.total, 1_000_000);
  assert.equal(c.columnCount, 5);
});

test('block cache: a page first, its total counted on request (Spark): pages forward, then the count', () => {
  const c = new BlockCache();
  const uncounted = (offset: number, n: number, total: number): Page => {
    const p = page(offset, n, total);
    delete p.total_rows;
    delete p.all_rows;
    return { ...p, total_pending: 'counted on request (count: true)' };
  };
  c.put(0, uncounted(0, BLOCK, 1000));
  assert.equal(c.counted, false);
  assert.equal(c.total, BLOCK + 1, 'the rows seen, and one more: the next block can be asked for');
  assert.equal(rowsLabel(0, 30, c.total, c.allRows, true), 'rows 1–30 of ? (counting…)');
  assert.equal(rowsLabel(0, 30, c.total, c.allRows, false), 'rows 1–30 of ?', 'the count failed');
  assert.deepEqual(c.missing(150, 260), [1], 'paging forward goes on');
  c.put(1, uncounted(BLOCK, BLOCK, 1000));
  assert.equal(c.total, 2 * BLOCK + 1);
  assert.deepEqual(c.row(BLOCK + 3), { position: (BLOCK + 3) * 2, index: `i${BLOCK + 3}`, cells: [BLOCK + 3, `s${BLOCK + 3}`] });
  c.setCount({ ...page(0, 0, 1000), limit: 0 });
  assert.deepEqual([c.counted, c.total, c.allRows], [true, 1000, 2000]);
  assert.deepEqual(c.missing(900, 1200), [4], 'the last block, known from the count');
  c.put(2, uncounted(2 * BLOCK, BLOCK, 1000));
  assert.equal(c.total, 1000, 'a later page without totals keeps the count');
  assert.equal(rowsLabel(0, 30, c.total, c.allRows), 'rows 1–30 of 1,000 (filtered from 2,000)');
  c.clear();
  assert.deepEqual([c.counted, c.total, c.allRows], [true, undefined, undefined]);
});

test('scroll mapping: 1:1 for small tables, scaled for 10M rows, and its own inverse', () => {
  assert.equal(spacerHeight(1000, 22), 22_000);
  assert.equal(spacerHeight(10_000_000, 22), MAX_SCROLL_PX);
  // 10M rows, 30 visible: the spacer is capped, the end of the scroll is the last page.
  const total = 10_000_000;
  const max = MAX_SCROLL_PX;
  assert.equal(firstRowAt(0, max, total, 30), 0);
  assert.equal(firstRowAt(max, max, total, 30), total - 30);
  assert.equal(firstRowAt(max / 2, max, total, 30), Math.round((total - 30) / 2));
  for (const row of [0, 1, 12345, 5_000_000, total - 31, total - 30]) assert.equal(firstRowAt(scrollTopFor(row, max, total, 30), max, total, 30), row);
  assert.equal(firstRowAt(100, 0, 10, 30), 0, 'everything fits');
});

test('sort cycle: ascending, descending, off; Shift adds keys', () => {
  let s = nextSort([], 'a', false);
  assert.deepEqual(s, [{ column: 'a' }]);
  s = nextSort(s, 'a', false);
  assert.deepEqual(s, [{ column: 'a', descending: true }]);
  assert.deepEqual(nextSort(s, 'a', false), []);
  assert.deepEqual(nextSort(s, 'b', false), [{ column: 'b' }], 'a plain click replaces');
  s = nextSort(s, 'b', true);
  assert.deepEqual(s, [{ column: 'a', descending: true }, { column: 'b' }]);
  assert.deepEqual(nextSort(s, 'a', true), [{ column: 'b' }], 'Shift on a descending key removes it');
});

test('grid header and rows: sort marks, escaping, placeholders for rows still loading, selection', () => {
  const h = renderGridHeader([{ name: 'a<b', dtype: 'int64' }, { name: 'c' }], [{ column: 'c', descending: true }, { column: 'a<b' }], true, 'c');
  assert.match(h, /aria-sort="ascending".*a&lt;b<span class="vmark">▲2<\/span>/);
  assert.match(h, /class="vcol vactive" data-col="1" aria-sort="descending"/);
  assert.match(h, /▼1/);
  const c = new BlockCache();
  c.put(0, page(0, BLOCK, 250));
  const html = renderGridRows(c, 195, 10, 2, { from: 196, to: 197 }, 197);
  const rows = [...html.matchAll(/<tr class="([^"]*)" data-row="(\d+)"/g)].map((m) => [m[1], Number(m[2])]);
  assert.deepEqual(rows, [['vrow', 195], ['vrow vsel', 196], ['vrow vsel vcur', 197], ['vrow', 198], ['vrow', 199], ['vrow vloading', 200], ['vrow vloading', 201], ['vrow vloading', 202], ['vrow vloading', 203], ['vrow vloading', 204]]);
  assert.match(html, /data-row="195" data-pos="390" aria-rowindex="197"><th scope="row" class="idx">i195<\/th><td class="num" title="">195<\/td><td title="">s195<\/td>/);
  assert.equal(renderGridRows(c, 245, 30, 2).match(/<tr/g)?.length, 5, 'no rows past the total');
  assert.equal(rowsLabel(0, 30, 1234, 5000), 'rows 1–30 of 1,234 (filtered from 5,000)');
  assert.equal(rowsLabel(0, 30, 0, 10), 'no rows match the filter (of 10)');
  assert.equal(rowsLabel(0, 30, 0, 0), 'no rows');
  assert.equal(rowsLabel(10, 30, 20, 20), 'rows 11–20 of 20');
});

test('a page without rows: lists even where an older sidecar sent null, and a body that says why', () => {
  const none = { ...page(0, 0, 0), rows: null, positions: null } as unknown as Page;
  const p = settledPage(none);
  assert.deepEqual([p.rows, p.positions], [[], []]);
  const c = new BlockCache();
  c.put(0, p);
  assert.equal(c.total, 0);
  assert.equal(c.row(0), undefined);
  assert.equal(renderGridRows(c, 0, 30, 2), '');
  assert.equal(renderEmptyRows(2, true), '<tr class="vempty"><td colspan="3">No rows match the filter.</td></tr>');
  assert.match(renderEmptyRows(2, false), /No rows: the table is empty\./);
});

test('column picker: a checkbox per column, hidden ones unchecked', () => {
  const cols = [{ name: 'a', dtype: 'int64' }, { name: 'b"', dtype: 'object' }, { name: 'c' }];
  const html = renderPicker(cols, new Set(['b"']));
  assert.equal(html.match(/<input type="checkbox"/g)?.length, 3);
  assert.match(html, /value="b&quot;">/);
  assert.match(html, /value="a" checked>/);
  assert.match(html, /2 of 3 columns shown/);
  assert.deepEqual(shownColumns(cols, new Set(['b"'])), ['a', 'c']);
});

test('stats panel on the golden DataFrame: facts, quantiles, histogram, top values', () => {
  const r = golden('dataframe');
  const stats = columnStats(r);
  const c1 = stats.get('c1');
  assert.ok(c1?.histogram && c1.quantiles);
  const html = renderStatsPanel({ name: 'c1', dtype: 'float64' }, c1, 3);
  assert.match(html, /<code>c1<\/code> <span class="dtype">float64<\/span>/);
  assert.match(html, /<th scope="row">Nulls<\/th><td class="num">3<\/td>/);
  for (const k of ['Distinct', 'Min', 'Max', 'Mean', 'Std']) assert.match(html, new RegExp(`<th scope="row">${k}</th>`));
  assert.match(html, /<th>5%<\/th><th>25%<\/th><th>50%<\/th><th>75%<\/th><th>95%<\/th>/);
  assert.equal(html.match(/<rect class="bar"/g)?.length, c1.histogram.counts.length);
  assert.match(html, /<svg class="hist"[^>]*width="260" height="90"/);
  const cat = renderStatsPanel({ name: 'cat', dtype: 'object' }, stats.get('cat'), 0);
  assert.match(cat, /<ol class="vtop"><li><span class="vtopv">c<\/span> <span class="vtopc">360<\/span>/);
  assert.match(renderStatsPanel({ name: 'x' }, undefined, undefined, true), /Computing statistics/);
});

test('browsable values: tables, 1-D/2-D arrays and lists of records; not errors or scalars', () => {
  assert.equal(browsable(golden('dataframe')), true);
  assert.equal(browsable(golden('series')), true);
  assert.equal(browsable(golden('ndarray_1m')), true);
  assert.equal(browsable(goldenError('error_not_found', 'x')), false);
  assert.equal(browsable(golden('dict')), false);
  assert.equal(browsable({ detected_type: 'ndarray', structure: { shape: [2, 3, 4] } }), false);
  assert.equal(browsable({ detected_type: 'list', structure: { element_types: { dict: 3 } } }), true);
  // JavaScript: an arrow table, a Map's or a Set's entries, any array
  for (const k of ['arrow_table', 'map', 'set', 'list']) {
    assert.equal(browsable({ detected_type: k, language: 'javascript' }), true, k);
  }
  assert.equal(browsable({ detected_type: 'list', structure: { element_types: { int: 3 } } }), false);
  assert.equal(browsable({ detected_type: 'object', language: 'javascript' }), false);
  assert.match(filterPlaceholder({ detected_type: 'dataframe', language: 'javascript' }), /&& city === 'Nice'/);
  assert.match(filterPlaceholder({ detected_type: 'dataframe' }), /DataFrame\.query/);
});

test('TSV and CSV: header with the index, nulls empty, quoting', () => {
  const rows = [{ index: 0, cells: [1.5, 'Paris'] }, { index: 1, cells: [null, 'a, "b"\nc'] }, { index: 2, cells: [true, 'x\ty'] }];
  assert.equal(toDelimited(['price', 'city'], rows, 'tsv', true), '\tprice\tcity\n0\t1.5\tParis\n1\t\ta, "b" c\n2\tTrue\tx y\n');
  assert.equal(toDelimited(['price', 'city'], rows, 'csv', true), ',price,city\r\n0,1.5,Paris\r\n1,,"a, ""b""\nc"\r\n2,True,x\ty\r\n');
  assert.equal(toDelimited(['v'], [{ cells: [[1, 2]] }], 'csv', false), 'v\r\n"[1,2]"\r\n');
});

test('copy as code: query, stable sort with nulls last, columns; series, arrays, records', () => {
  const all = ['price', 'qty', 'city'];
  assert.equal(copyAsCode('df', 'dataframe', { sort: [], filter: '' }, all), 'df');
  assert.equal(
    copyAsCode('df', 'dataframe', { sort: [{ column: 'price', descending: true }], filter: `city == "Nice" and qty > 2`, columns: ['city', 'price'] }, all),
    'df.query("city == \\"Nice\\" and qty > 2").sort_values("price", ascending=False, kind="stable", na_position="last")[["city", "price"]]',
  );
  assert.equal(
    copyAsCode('self.data["x"]', 'dataframe', { sort: [{ column: 'city' }, { column: 'price', descending: true }], filter: '', columns: all }, all),
    'self.data["x"].sort_values(["city", "price"], ascending=[True, False], kind="stable", na_position="last")',
  );
  assert.equal(copyAsCode('s', 'series', { sort: [{ column: 'value', descending: true }], filter: '' }, ['value']), 's.sort_values(ascending=False, kind="stable", na_position="last")');
  assert.equal(copyAsCode('s', 'series', { sort: [], filter: 'v > 1' }, ['v']), 's.to_frame(name="v").query("v > 1")["v"]');
  assert.equal(copyAsCode('arr', 'ndarray', { sort: [{ column: '1' }], filter: '`0` > 1' }, ['0', '1'], 2), 'pd.DataFrame(arr).rename(columns=str).query("`0` > 1").sort_values("1", ascending=True, kind="stable", na_position="last")');
  assert.equal(copyAsCode('rows', 'records', { sort: [], filter: 'a > 1' }, ['a']), 'pd.DataFrame.from_records(list(rows)).query("a > 1")');
  assert.equal(pyString('it\'s "x"\\'), '"it\'s \\"x\\"\\\\"');
});
