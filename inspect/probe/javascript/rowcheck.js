// dapscope JavaScript probe: row checks of a browse — a page of an array
// of records checks for getters and proxies only what it reads, before it
// reads it: the rows it returns, in its own columns; a sort or a filter,
// which read their columns over every row, check those columns over every
// row (once per view: a stop). An inspection reads every cell and checks
// them all (verifyRows, table.js); checking every cell of 1,000,000 rows of
// 8 fields costs ~0.3 s, which a page of 100 rows must not pay.
//
// A view of records carries check = {a, n, proto, rows, bad, cols}: rows
// says every row was checked to be data (bad: the first one that is not,
// -1: none) and cols[j] that column j was checked on every row (a getter
// found there makes the column an accessor: listed, never read).

// Placeholders of the cells a page does not read: a getter (an accessor
// element, or a field with a getter), a Proxy row, a row that is not a
// record of the table's kind. pageRows writes their text.
const HID_GETTER = { text: '<getter>', what: 'an accessor (a getter)' };
const HID_PROXY = { text: '<proxy>', what: 'a Proxy' };
const HID_ROW = { text: '<not a record>', what: 'not a record of the table\'s kind' };

function hiddenText(x) {
  return x === HID_GETTER || x === HID_PROXY || x === HID_ROW ? x.text : null;
}

function newCheck(a, n, proto, ncols) {
  return { a, n, proto, rows: false, bad: -1, cols: new Uint8Array(ncols), pos: null, hid: null };
}

// rowHidden: null when row i of a can be read (null, undefined, or a
// non-Proxy object of the table's prototype, held by a data element), else
// the placeholder of its cells. The prototype's chain has no Proxy
// (sampleColumns), so lookupGetter on such a row runs no trap.
function rowHidden(a, i, proto) {
  if (lookupGetter(a, i) !== undefined) return HID_GETTER;
  const r = a[i];
  if (r === null || r === undefined) return null;
  if (typeof r !== 'object') return HID_ROW;
  if (isProxy(r)) return HID_PROXY;
  const p = getProto(r);
  if (p !== proto && !(p === ObjectProto && proto === null) && !(p === null && proto === ObjectProto)) return HID_ROW;
  return null;
}

// recordCells reads field column c of v at rows pos, each row and cell
// checked first (a placeholder where it cannot be read); a column checked
// on every row is read by its compiled loop. The rows are checked once for
// all the columns of a page (the same pos).
function recordCells(v, c, pos) {
  const chk = v.check;
  if (chk.rows && chk.bad < 0 && chk.cols[c.j]) return columnAt(c, pos, v.n);
  const a = c.a, key = c.key, m = pos.length, out = new A(m);
  if (chk.pos !== pos) {
    chk.hid = chk.rows && chk.bad < 0 ? null : pageRowsHidden(a, pos, chk.proto);
    chk.pos = pos;
  }
  const hid = chk.hid;
  for (let k = 0; k < m; k++) {
    const h = hid === null ? null : hid[k];
    if (h !== null) { out[k] = h; continue; }
    const r = a[pos[k]];
    out[k] = r === null || r === undefined ? undefined : lookupGetter(r, key) !== undefined ? HID_GETTER : r[key];
  }
  return out;
}

// pageRowsHidden: rowHidden of each row at pos (null: all readable).
function pageRowsHidden(a, pos, proto) {
  let out = null;
  for (let k = 0; k < pos.length; k++) {
    const h = rowHidden(a, pos[k], proto);
    if (h === null) continue;
    if (out === null) out = new A(pos.length).fill(null);
    out[k] = h;
  }
  return out;
}

// checkColumns checks columns js of v on every row before a sort or a
// filter reads them there: rows that are not data refuse (what: the
// operation, for the message); a column with a getter becomes an accessor.
function checkColumns(v, js, what) {
  const chk = v.check;
  if (!chk || !js.length) return;
  if (chk.bad >= 0) throw badRow(chk, what);
  const keys = [], idx = [];
  for (let q = 0; q < js.length; q++) {
    const c = v.cols[js[q]];
    if (c.a && !c.accessor && !chk.cols[c.j] && idx.indexOf(c.j) < 0) { keys.push(c.key); idx.push(c.j); }
  }
  if (!chk.rows || keys.length) {
    const hits = new Uint8Array(keys.length);
    const bad = VERIFY(chk.a, 0, chk.n, chk.proto, keys, hits, !chk.rows, lookupGetter, isProxy, getProto, ObjectProto);
    if (!chk.rows) { chk.rows = true; chk.bad = bad; }
    if (bad < 0) {
      for (let q = 0; q < idx.length; q++) {
        chk.cols[idx[q]] = 1;
        if (hits[q]) v.cols[idx[q]].accessor = true;
      }
    }
  }
  if (chk.bad >= 0) throw badRow(chk, what);
}

function badRow(chk, what) {
  return new ProbeError('INVALID_ARGUMENT', what + ' reads every row, and row ' + chk.bad + ' is ' + (rowHidden(chk.a, chk.bad, chk.proto) || HID_ROW).what +
    ', which the probe never runs or reads', 'pages without a sort or filter show that row as a placeholder');
}
