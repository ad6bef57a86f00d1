# dapscope lldb probe: pages of native arrays (dapscope/page, the viewer's
# rows) computed here from memory, never in the program: numbers in memory
# (C arrays, ptr@N, std::vector/std::array, Rust Vec, slices, arrays, 1-D
# ndarray arrays) as one column named `value`, a 2-D ndarray as columns
# "0", "1", … (as the Python probe pages a 2-D numpy array), and a Vec/vector/array of structs whose fields
# are numbers as a table of those fields (read with numpy's structured
# dtype over the one read). Sorted (stable, NaN last) and filtered by a
# small expression over the columns (`value > 3 and value < 10`,
# `price * qty > 100`): names, number literals, comparisons, and/or/not,
# arithmetic; anything else is refused. A comparison with NaN is unknown,
# and an unknown row is no match (counted in filter_na_rows).

import ast as _ast
import operator as _op

_SEL_CMP = {_ast.Eq: _op.eq, _ast.NotEq: _op.ne, _ast.Lt: _op.lt, _ast.LtE: _op.le, _ast.Gt: _op.gt, _ast.GtE: _op.ge}
_SEL_ARITH = {_ast.Add: _op.add, _ast.Sub: _op.sub, _ast.Mult: _op.mul, _ast.Div: _op.truediv, _ast.Mod: _op.mod}


def _sel_columns(v, span, np):
    """{name: numpy array} of the span's elements, and the column order;
    None when they are neither numbers nor structs of numbers."""
    addr, et, n = span
    num = _numeric(et)
    size = et.GetByteSize()
    if num is not None:
        return {'value': np.frombuffer(_read(_PROCESS[0], addr, n * size), dtype=num[0] if num[0] != '?' else '?')}, ['value']
    t = et.GetCanonicalType()
    names, formats, offsets = [], [], []
    for i in range(t.GetNumberOfFields()):
        f = t.GetFieldAtIndex(i)
        fnum = _numeric(f.GetType())
        if fnum is None or f.IsBitfield():
            continue
        names.append(f.GetName() or ('_%d' % i))
        formats.append(fnum[0])
        offsets.append(f.GetOffsetInBytes())
    if not names or n * size > 1 << 30:
        return None
    dt = np.dtype({'names': names, 'formats': formats, 'offsets': offsets, 'itemsize': size})
    rec = np.frombuffer(_read(_PROCESS[0], addr, n * size), dtype=dt)
    return dict((nm, np.ascontiguousarray(rec[nm])) for nm in names), names


_PROCESS = [None]


def _sel_eval(np, node, cols, text):
    """(values, unknown mask or None) of a filter node over the columns."""
    if isinstance(node, _ast.Expression):
        return _sel_eval(np, node.body, cols, text)
    if isinstance(node, _ast.Constant) and isinstance(node.value, (int, float, bool)):
        return node.value, None
    if isinstance(node, _ast.Name):
        if node.id not in cols:
            raise ValueError('no column %r (columns: %s)' % (node.id, ', '.join(cols)))
        a = cols[node.id]
        return a, (np.isnan(a) if a.dtype.kind == 'f' else None)
    if isinstance(node, _ast.UnaryOp) and isinstance(node.op, (_ast.USub, _ast.Not)):
        a, na = _sel_eval(np, node.operand, cols, text)
        return (-a if isinstance(node.op, _ast.USub) else np.logical_not(a)), na
    if isinstance(node, _ast.BinOp) and type(node.op) in _SEL_ARITH:
        a, na = _sel_eval(np, node.left, cols, text)
        b, nb = _sel_eval(np, node.right, cols, text)
        with np.errstate(all='ignore'):
            r = _SEL_ARITH[type(node.op)](np.asarray(a, dtype='float64') if isinstance(node.op, _ast.Div) else a, b)
        return r, _sel_or(np, na, nb)
    if isinstance(node, _ast.Compare):
        out, unk = None, None
        left, nl = _sel_eval(np, node.left, cols, text)
        for op, right in zip(node.ops, node.comparators):
            if type(op) not in _SEL_CMP:
                raise ValueError('operator %s is not allowed' % type(op).__name__)
            r, nr = _sel_eval(np, right, cols, text)
            with np.errstate(invalid='ignore'):
                c = _SEL_CMP[type(op)](left, r)
            out = c if out is None else np.logical_and(out, c)
            unk = _sel_or(np, unk, _sel_or(np, nl, nr))
            left, nl = r, nr
        return out, unk
    if isinstance(node, _ast.BoolOp):
        vals = [_sel_eval(np, x, cols, text) for x in node.values]
        acc, accn = vals[0]
        for v, nv in vals[1:]:
            acc, accn = _sel_kleene(np, isinstance(node.op, _ast.And), acc, accn, v, nv)
        return acc, accn
    part = _ast.get_source_segment(text, node) or type(node).__name__
    raise ValueError('%r is not allowed: a filter is column names, number literals, comparisons, and/or/not and arithmetic' % part)


def _sel_or(np, a, b):
    if a is None:
        return b
    if b is None:
        return a
    return np.logical_or(a, b)


def _sel_kleene(np, conj, a, na, b, nb):
    """SQL's three-valued and/or: (truth, unknown)."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    ta = a if na is None else a & ~na
    tb = b if nb is None else b & ~nb
    if conj:
        fa = ~a if na is None else ~a & ~na
        fb = ~b if nb is None else ~b & ~nb
        t = ta & tb
        return t, _sel_or(np, None if na is None and nb is None else ~(t | fa | fb), None)
    t = ta | tb
    unk = _sel_or(np, na, nb)
    return t, (None if unk is None else unk & ~t)


def _sel_order(np, a, desc):
    """Stable order of a, NaN last either way."""
    n = a.shape[0]
    nan = np.isnan(a) if a.dtype.kind == 'f' else None
    idx = np.arange(n) if nan is None else np.flatnonzero(~nan)
    vals = a[idx]
    if desc:
        o = idx[::-1][np.argsort(vals[::-1], kind='stable')[::-1]]
    else:
        o = idx[np.argsort(vals, kind='stable')]
    return o if nan is None else np.concatenate([o, np.flatnonzero(nan)])


def _sel_cell(x, kind):
    if kind == 'f':
        return _num(x, _LIMITS['cell_digits'])  # NaN and inf: null, as the Python probe's pages
    if kind == 'b':
        return bool(x)
    return int(x)


def select(frame, args):
    process = frame.GetThread().GetProcess()
    _PROCESS[0] = process
    path = args['path']
    sel = args.get('selection') or {}
    (found, _followed, err) = _walk(frame, process.GetTarget(), path)
    if err is not None:
        return err
    v, length = found
    why = _unavailable(v)
    if why:
        return _fail('NOT_BROWSABLE', '%s: %s' % (_path_str(path), why))
    v = _strip(v)
    if (v.GetTypeName() or '').startswith(('std::array<', 'std::__1::array<')):
        elems = v.GetNonSyntheticValue().GetChildMemberWithName('_M_elems')
        if elems.IsValid():
            v = elems
    nd = _nd_parts(v) if length is None else None
    np = _np()
    if nd is not None and _numeric(nd[1]) is not None:
        got = _nd_columns(np, process, nd) if np is not None else None
        n = nd[2][0] if got is not None else 0
    else:
        t = _canon(v)
        kind = _classify(v, t, length)
        span = None
        if kind == 'span':
            span = (v.GetValueAsUnsigned(), t.GetPointeeType(), length)
        elif kind == 'sequence':
            span = _contiguous(v)
        got = _sel_columns(v, span, np) if span is not None and np is not None else None
        n = span[2] if got is not None else 0
    if got is None:
        return _fail('NOT_BROWSABLE', '%s (%s) has no rows to page here: arrays and vectors of numbers or of structs of numbers, and 1-D or 2-D ndarray arrays, are browsed%s'
                     % (_path_str(path), v.GetTypeName(), '' if np is not None else ' (with numpy in lldb\'s Python)'))
    cols, order_names = got
    pos = np.arange(n)
    na = 0
    text = sel.get('filter') or ''
    if text:
        try:
            tree = _ast.parse(text.replace('`', ''), mode='eval')
            if sum(1 for _ in _ast.walk(tree)) > _LIMITS['filter_nodes']:
                raise ValueError('over %d syntax nodes' % _LIMITS['filter_nodes'])
            m, unk = _sel_eval(np, tree, cols, text.replace('`', ''))
        except (SyntaxError, ValueError, TypeError) as e:
            return _fail('INVALID_EXPRESSION', 'filter refused: %s' % e)
        m = np.broadcast_to(np.asarray(m, dtype=bool), (n,))
        if unk is not None:
            unk = np.broadcast_to(unk, (n,))
            na = int(np.count_nonzero(unk & ~m))
            m = m & ~unk
        pos = np.flatnonzero(m)
    for key in reversed(sel.get('sort') or []):
        c = key.get('column')
        name = order_names[c] if isinstance(c, int) and 0 <= c < len(order_names) else str(c)
        if name not in cols:
            return _fail('INVALID_ARGUMENT', 'no column %r to sort by (columns: %s)' % (c, ', '.join(order_names)))
        pos = pos[_sel_order(np, cols[name][pos], bool(key.get('descending')))]
    rows = sel.get('rows') or {}
    off, lim = int(rows.get('offset', 0)), int(rows.get('limit', 100))
    page_pos = pos[off:off + lim]
    chosen = order_names
    if sel.get('columns'):
        chosen = [order_names[c] if isinstance(c, int) and 0 <= c < len(order_names) else c for c in sel['columns']]
        chosen = [c for c in chosen if c in cols]
    take = [(cols[c][page_pos], cols[c].dtype.kind) for c in chosen]
    page = {'kind': 'ndarray' if order_names == ['value'] or nd is not None else 'records', 'total_rows': int(pos.shape[0]), 'all_rows': n,
            'offset': off, 'limit': lim, 'positions': page_pos.tolist(),
            'columns': [{'name': c, 'dtype': _numeric_name(cols[c])} for c in chosen], 'column_count': len(order_names),
            'rows': [[_sel_cell(a[i], k) for a, k in take] for i in range(page_pos.shape[0])]}
    if text:
        page['filter'] = text
        if na:
            page['filter_na_rows'] = na
    if sel.get('sort'):
        page['sort'] = sel['sort']
    return {'name': _path_str(path), 'type': v.GetTypeName(), 'page': page}


def _numeric_name(a):
    return {'f': 'float', 'i': 'int', 'u': 'uint', 'b': 'bool'}.get(a.dtype.kind, 'float') + ('' if a.dtype.kind == 'b' else str(a.dtype.itemsize * 8))
