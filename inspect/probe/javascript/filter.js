// dapscope JavaScript probe: filter — the expression that runs a browse
// filter (a JavaScript expression over a row's fields: qty > 5 && city ===
// "Nice") in ONE evaluate of its own, which the sidecar sends with V8's
// side-effect check (throwOnSideEffect): the filter may read anything and
// call side-effect-free functions, but anything that would change the
// program (an assignment to its objects, ++, delete, a call that writes,
// console) ends the evaluate with an EvalError instead. The probe's own call
// cannot carry it (installing the probe and caching orders are side
// effects), so P.select prepares the rows (SEL.pending) and returns this
// expression; it loops over the rows inline (a call per row costs ~1 µs
// under the check, an inlined test ~40 ns) and answers 'M' and a bitmap of
// the kept rows, six per character, or 'E' + the row + the error the filter
// threw there. The next select call reads that answer (maskRows).

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const RESERVED = new Set(('break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static ' +
  'implements interface package private protected public await eval arguments undefined NaN Infinity').split(' '));

// named reports whether name occurs in text as a whole identifier (an
// over-approximation: inside a string literal too).
function named(text, name) {
  const word = /[\w$\u0080-\uffff]/;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if ((at === 0 || !word.test(text[at - 1])) && (at + name.length === text.length || !word.test(text[at + name.length]))) return true;
  }
  return false;
}

// bindable: a field name the filter can use as a variable.
function bindable(name) {
  return /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name) && name !== '$row' && name !== '$i' && apply(strSlice, name, [0, 2]) !== '$$';
}

// filterExpression prepares v's rows for the filter and writes the
// expression that runs it. Each field the filter names (and every field
// when it uses $row) is bound: records' fields are read from their rows,
// a library's columns are read whole first (here, where side effects are
// allowed). $row is the row (a record; otherwise an object of its fields)
// and $i its position; other names are the frame's.
function filterExpression(v, filter, slot) {
  const arrays = [], ids = new Map();
  const ref = (a) => {
    let i = ids.get(a);
    if (i === undefined) { i = arrays.length; arrays.push(a); ids.set(a, i); }
    return '$$a' + i;
  };
  const wantsRow = named(filter, '$row');
  const rowsRead = new Map(); // array of rows -> its row variable
  const decls = [], binds = [], fields = [];
  const field = (j) => {
    const c = v.cols[j];
    if (c.vals || c.lib) return ref(c.lib ? columnValues(c, v.n) : c.vals) + '[$i]';
    let r = rowsRead.get(c.a);
    if (!r) {
      r = '$$r' + rowsRead.size;
      rowsRead.set(c.a, r);
      decls.push('const ' + r + ' = ' + ref(c.a) + '[$i];');
    }
    return '(' + r + ' == null ? undefined : ' + r + '[' + J.stringify(c.key) + '])';
  };
  // the fields the filter reads, checked on every row first (rowcheck.js)
  const reads = [];
  for (let j = 0; j < v.names.length; j++) if (wantsRow || (bindable(v.names[j]) && named(filter, v.names[j]))) reads.push(j);
  checkColumns(v, reads, 'filter ' + quoted(cut(filter, 200)));
  // a row with a getter is never handed to the filter (it could read the
  // getter): $row is then an object of the row's data fields
  const rowObj = v.kind !== 'records' || v.cols.some((c) => c.accessor);
  for (let j = 0; j < v.names.length; j++) {
    const name = v.names[j];
    const use = bindable(name) && named(filter, name);
    if (!use && !(wantsRow && rowObj)) continue;
    if (v.cols[j].accessor) {
      if (use) throw new ProbeError('INVALID_EXPRESSION', 'filter ' + quoted(cut(filter, 200)) + ' reads ' + quoted(name) + ', whose values are getters, which the probe never runs');
      continue;
    }
    const e = field(j);
    if (use) binds.push('const ' + name + ' = ' + e + ';');
    fields.push(J.stringify(name) + ': ' + (use ? name : e));
  }
  if (wantsRow) {
    if (!rowObj) {
      if (!rowsRead.has(v.rows)) field(v.cols.findIndex((c) => c.a === v.rows));
      binds.push('const $row = ' + rowsRead.get(v.rows) + ';');
    } else binds.push('const $row = {' + fields.join(', ') + '};');
  }
  // a few filters in flight at once (an agent's and the viewer's); the
  // oldest one's rows are let go first
  const token = SEL.next++;
  if (SEL.pending.size >= 4) {
    const old = SEL.pending.keys().next().value;
    SEL.pending.delete(old);
    delete P.slots[old];
  }
  const entry = { n: v.n, arrays };
  SEL.pending.set(token, entry);
  P.slots[token] = entry;
  // the probe is found by its string key and the rows in a prototype-less
  // object: nothing here calls a function the program could have replaced
  const probe = 'const $$P = globalThis[' + J.stringify(slot) + '], $$p = $$P === undefined ? undefined : $$P.slots[' + token + '];\n' +
    "if ($$p === undefined) return 'X';\n";
  const unpack = arrays.map((a, i) => '$$a' + i + ' = $$p.arrays[' + i + ']').join(', ');
  return '(() => {\n' + probe +
    'const $$n = $$p.n' + (unpack ? ', ' + unpack : '') + ", $$AL = '" + B64 + "';\n" +
    "let $$o = '', $$b = 0, $$k = 0, $i = 0;\n" +
    'try {\n  for (; $i < $$n; $i++) {\n    ' + decls.concat(binds).join('\n    ') + '\n' +
    '    if ((' + filter + '\n    )) $$b |= 1 << $$k;\n' +
    '    if (++$$k === 6) { $$o += $$AL[$$b]; $$b = 0; $$k = 0; }\n  }\n' +
    "} catch ($$e) {\n  return 'E' + $i + ':' + ($$e !== null && typeof $$e === 'object' ? $$e.name + ': ' + $$e.message : typeof $$e === 'string' ? $$e : typeof $$e);\n}\n" +
    "if ($$k) $$o += $$AL[$$b];\nreturn 'M' + $$o;\n})()";
}

// maskRows reads the filter evaluate's answer: the positions of the kept
// rows, or the filter's error.
function maskRows(mask, n, filter) {
  const what = 'filter ' + quoted(cut(filter, 200));
  if (mask[0] === 'E') {
    const colon = apply(strIndexOf, mask, [':']);
    throw new ProbeError('INVALID_EXPRESSION', what + ' threw at row ' + apply(strSlice, mask, [1, colon]) + ': ' + cut(apply(strSlice, mask, [colon + 1]), 300),
      'a JavaScript expression over the row\'s fields, e.g. qty > 5 && city === "Nice"; $row is the row, $i its position');
  }
  const want = M.ceil(n / 6);
  if (mask[0] !== 'M' || mask.length !== want + 1) {
    throw new ProbeError('INTERNAL', what + ': the filter\'s rows were lost (' + (mask[0] === 'X' ? 'other filters took their place, or the probe was reloaded' : 'an answer of ' + mask.length + ' characters for ' + n + ' rows') + '); ask again');
  }
  const dec = new Int8Array(128);
  for (let i = 0; i < 64; i++) dec[apply(charCodeAt, B64, [i])] = i;
  let count = 0;
  for (let i = 1; i <= want; i++) { let b = dec[apply(charCodeAt, mask, [i])]; while (b) { count += b & 1; b >>= 1; } }
  const out = new Uint32Array(count);
  for (let i = 1, k = 0; i <= want; i++) {
    const b = dec[apply(charCodeAt, mask, [i])];
    if (!b) continue;
    for (let bit = 0; bit < 6; bit++) if (b & (1 << bit)) out[k++] = (i - 1) * 6 + bit;
  }
  return out;
}
