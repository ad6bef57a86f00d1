// tables.js: one value of each JavaScript data library the probe recognises
// (apache-arrow Table and Vector, arquero tables, nodejs-polars DataFrame and
// Series), built from the same deterministic 40-row data, for the golden
// tests in inspect/node_libs_test.go, and an object with JavaScript names. The libraries are installed by
// `make setup-node-libs` into node_modules beside this file. The tests stop
// at the "// BREAK" line.
'use strict';

const arrow = require('apache-arrow');
const aq = require('arquero');
const pl = require('nodejs-polars');

function build() {
  const n = 40;
  const cities = ['Nice', 'Oslo', 'Lima', 'Pune'];
  const id = Int32Array.from({ length: n }, (_, i) => i + 1);
  const price = Float64Array.from({ length: n }, (_, i) => (i % 9 === 4 ? NaN : 10 + ((i * 37) % 50) / 4));
  const city = Array.from({ length: n }, (_, i) => (i % 10 === 7 ? null : cities[i % 4]));
  const qty = Array.from({ length: n }, (_, i) => (i % 8 === 3 ? null : (i * 7) % 13));
  const paid = Array.from({ length: n }, (_, i) => i % 3 !== 0);

  // apache-arrow: a Table (typed columns, a dictionary-encoded string column
  // with nulls) and one Vector with nulls.
  const arrowTable = arrow.tableFromArrays({ id, price, city, paid });
  const arrowVector = arrow.vectorFromArray(qty, new arrow.Int32());

  // arquero: a table over plain and typed arrays, and a filtered view.
  const aqTable = aq.table({ id, city, qty, paid });
  const aqFiltered = aqTable.filter((d) => d.id > 30);

  // nodejs-polars: a DataFrame and a Series (both are Proxies).
  const plFrame = pl.DataFrame({ id: pl.Series('id', Array.from(id), pl.Int32), price: Array.from(price), city, qty });
  const plSeries = pl.Series('qty', qty, pl.Float64);

  // JavaScript names for the path grammar: $ in names, reserved words as
  // property names.
  const $opts = { class: 'first', default: 3, from: [1, 2, 3], $inner: { new: true } };

  debugger; // BREAK
  return [arrowTable, arrowVector, aqTable, aqFiltered, plFrame, plSeries, $opts];
}

build();
