// parity.js: the JavaScript side of the probes' parity table
// (inspect/parity_test.go). build() turns the shared data (values.json) into
// JavaScript's kinds: a records table is an array of records, a numeric array
// a typed array, a mapping a Map, an object a class instance. parity.py
// builds the same values for Python.
'use strict';
const fs = require('fs');
const path = require('path');

const num = (x) => (x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);

class Widget {
  constructor(d) {
    Object.assign(this, d);
  }
}

function build() {
  const d = JSON.parse(fs.readFileSync(path.join(__dirname, 'values.json'), 'utf8'));
  const n = d.big_len;
  const big = new Float64Array(n);
  for (let i = 0; i < n; i++) big[i] = ((i * 7919) % 10007) / 7.0;
  // pandas makes a missing price NaN; a records table keeps null.
  return {
    records: d.records,
    record_list: d.records, // the same array: parity.py's list of dicts (inspect/parity_pages_test.go)
    empty_records: [],
    floats: Float64Array.from(d.floats, num),
    ints: Int32Array.from(d.ints),
    big,
    mapping: new Map(Object.entries(d.mapping)),
    text: d.text,
    short_text: d.short_text,
    precise: Float64Array.from(d.precise),
    obj: new Widget(d.obj),
    nothing: null,
    flag: true,
    count: 42,
    ratio: d.precise[0],
    nums_list: d.nums_list,
    words: d.words,
    flags: d.flags,
  };
}

module.exports = { build };
