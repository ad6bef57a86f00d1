// agent.js: the MCP workflow on Node — records, a threshold an agent
// changes, a helper called with it. Tests find lines by "// @name" markers.
'use strict';

function summarize(rows, threshold) {
  const big = rows.filter((r) => r.price > threshold);
  let total = 0;
  for (const r of big) {
    total += r.price;
  }
  return { count: big.length, total }; // @summary
}

function main() {
  const rows = Array.from({ length: 20 }, (_, i) => ({ id: i, price: i * 5, name: 'item' + i }));
  let threshold = 10;
  console.log('rows', rows.length);
  const result = summarize(rows, threshold); // @call
  console.log('result', result.count, result.total);
  return result;
}

main();
