// dapscope JavaScript probe: objects — functions and classes, errors, plain
// objects and class instances (own data properties, getters listed, never
// run).

function funcHeader(f) {
  let src = '';
  try { src = apply(fnToString, f, []); } catch (e) { return ''; }
  const head = apply(strSlice, src, [0, 400]);
  return head;
}

function inspectFunction(f, res) {
  const n = dataValue(f, 'name'), len = dataValue(f, 'length');
  const name = typeof n === 'string' ? n : '';
  const src = funcHeader(f);
  const st = res.structure = { class: name || '(anonymous)' };
  if (/^class\b/.test(src)) {
    res.type = 'class'; res.detected_type = 'class';
    const base = getProto(f);
    if (typeof base === 'function' && base !== FunctionProto) st.bases = [dataValue(base, 'name') || '(anonymous)'];
    const proto = dataValue(f, 'prototype');
    if (proto && typeof proto === 'object') {
      const methods = ownKeys(proto).filter((k) => typeof k === 'string' && k !== 'constructor');
      st.attribute_count = methods.length;
      st.attributes = methods.slice(0, 20).map((k) => {
        const d = getDesc(proto, k);
        return { name: k, type: d.get || d.set ? 'getter' : typeName(d.value) };
      });
    }
    const ctor = /constructor\s*(\([^)]*\))/.exec(src);
    st.signature = ctor ? ctor[1] : '()';
    return;
  }
  res.type = 'function'; res.detected_type = 'callable';
  let kind = 'function';
  if (/^async\b/.test(src)) kind = 'async';
  if (/^(async\s*)?function\s*\*/.test(src)) kind = 'generator';
  if (/^\s*(async\s*)?(\([^)]*\)|[\w$]+)\s*=>/.test(src)) kind = 'arrow';
  if (/\{\s*\[native code\]\s*\}\s*$/.test(src)) kind = /^bound /.test(name) ? 'bound' : 'native';
  st.kind = kind;
  const sig = /^[^(]*?(\([^)]*\))/.exec(src);
  const arrow = /^\s*(?:async\s*)?([\w$]+)\s*=>/.exec(src);
  st.signature = arrow ? '(' + arrow[1] + ')' : sig ? sig[1].replace(/\s+/g, ' ') : '(' + (typeof len === 'number' ? len + ' args' : '') + ')';
  if (typeof len === 'number') st.length = len;
  res.preview = { repr: cut(src.split('\n')[0], 200) };
  const own = ownKeys(f).filter((k) => typeof k === 'string' && ['length', 'name', 'prototype', 'arguments', 'caller'].indexOf(k) < 0);
  if (own.length) st.attribute_count = own.length;
}

function inspectError(e, items, res) {
  const name = dataValue(e, 'name'), message = dataValue(e, 'message'), stack = dataValue(e, 'stack');
  res.type = className(e); res.detected_type = 'error';
  const st = res.structure = { class: res.type };
  const tr = new Trunc();
  const attrs = [
    { name: 'name', type: typeName(name), repr: repr(name, tr) },
    { name: 'message', type: typeName(message), repr: repr(message, tr) },
  ];
  const causeD = getDesc(e, 'cause');
  if (causeD) attrs.push({ name: 'cause', type: 'value' in causeD ? typeName(causeD.value) : 'getter', repr: 'value' in causeD ? repr(causeD.value, tr) : '[Getter]' });
  for (const k of keysOf(e)) {
    if (attrs.length >= items + 3 || k === 'cause') continue;
    const d = getDesc(e, k);
    attrs.push({ name: k, type: 'value' in d ? typeName(d.value) : 'getter', repr: 'value' in d ? repr(d.value, tr) : '[Getter]' });
  }
  st.attributes = attrs;
  if (typeof stack === 'string') {
    const lines = stack.split('\n');
    res.preview = { text: lines.slice(0, 30).join('\n') };
    if (lines.length > 30) res.preview.is_truncated = true;
  }
  res.summary = errText(e);
}

// inspectObject: plain objects (and null-prototype ones), class instances,
// module namespaces, boxed primitives: own properties (data read, getters
// listed), inherited getters listed, never invoked.
function inspectObject(v, k, items, B, res) {
  const name = className(v);
  res.type = name; res.detected_type = 'object';
  const proto = getProto(v);
  const kind = k === 'Module' ? 'module' : k === 'Boxed' ? 'boxed' : proto === null ? 'null-prototype' : proto === ObjectProto ? 'plain' : 'instance';
  const st = res.structure = { class: name, kind: kind };
  const tr = new Trunc();
  const keys = ownKeys(v);
  const attrs = [], getters = [];
  let count = 0;
  for (const key of keys) {
    const d = getDesc(v, key);
    if (!d || (!d.enumerable && kind !== 'instance')) continue;
    const label = typeof key === 'symbol' ? '[' + apply(symToString, key, []) + ']' : key;
    if (!('value' in d)) { getters.push(label); continue; }
    if (!d.enumerable) continue;
    count++;
    if (attrs.length < items) {
      const t2 = new Trunc();
      const a = { name: label, type: typeName(d.value), repr: repr(d.value, t2, 1) };
      if (t2.hit) a.is_truncated = true;
      attrs.push(a);
    }
  }
  if (count > attrs.length) res.warnings.push('showing ' + attrs.length + ' of ' + count + ' properties');
  // Getters of the class chain (not Object.prototype's).
  for (const p of protoChain(v)) {
    for (const key of ownKeys(p)) {
      if (key === 'constructor' || key === '__proto__') continue;
      const d = getDesc(p, key);
      const label = typeof key === 'symbol' ? '[' + apply(symToString, key, []) + ']' : key;
      if (d && d.get && getters.indexOf(label) < 0) getters.push(label);
    }
    if (getters.length >= 50) break;
  }
  st.attribute_count = count;
  st.attributes = attrs;
  if (getters.length) st.properties = getters.slice(0, 50);
  res.preview = { repr: repr(v, tr) };
  if (tr.hit) res.preview.is_truncated = true;
  res.summary = (kind === 'plain' ? 'Object' : name) + ' ' + plural(count, 'property', 'properties') +
    (getters.length ? ', ' + plural(getters.length, 'getter') + ' (not invoked)' : '');
}
