# dapscope Python probe: filters of browsed tables (select's `filter`).
# A filter is parsed with Python's ast and only what a filter needs is
# allowed: column names (bare, or backticked: `unit price`, `0`), literals,
# comparisons (chained, in / not in), and / or / not, & | ^ ~, arithmetic,
# and a short list of methods (_FL_METHODS, _FL_STR_METHODS) whose
# arguments are literals. Nothing else is ever evaluated: no other call, no
# other attribute, no subscript, no dunder or private name; the refusal
# names the offending part. The tree is then evaluated here over pandas
# Series (never DataFrame.eval: no numexpr, whose dtypes are narrower) with
# an explicit null mask per value, so every dtype answers the same way
# (numpy, nullable Int64/boolean, pyarrow-backed, categorical, strings): a
# comparison with a missing value is unknown, unknown propagates through
# and / or / not as in SQL (Kleene logic), and an unknown row is no match,
# counted in the page (filter_na_rows).

import ast
import operator
import warnings

_FILTER_CHARS = _LIMITS['filter_chars']  # characters of a filter
_FILTER_NODES = _LIMITS['filter_nodes']  # syntax nodes of a filter
_FL_METHODS = ('isin', 'isna', 'notna', 'isnull', 'notnull', 'between', 'duplicated')
_FL_STR_METHODS = ('contains', 'match', 'startswith', 'endswith', 'len', 'lower', 'upper', 'strip')
_FL_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge}
_FL_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_FL_HINT = ('a filter is column names (`backticks` for any other label), literals, comparisons, and/or/not, '
            'arithmetic and ' + ', '.join(_FL_METHODS) + ', str.' + ', str.'.join(_FL_STR_METHODS)
            + ', and duplicated(keep=, subset=[...]) over the frame (contains is a plain substring unless'
            ' regex=True; a pattern runs in a linear-time engine, or is refused where it could run for ever)')


class _FV(object):
    """A value in a filter: kind 'lit' (a Python literal), 'col' (a pandas
    Series, one per row) or 'bool' (a numpy bool array of known truths);
    null: the rows where it is unknown (a numpy bool mask, None: none)."""
    __slots__ = ('kind', 'v', 'null')

    def __init__(self, kind, v, null=None):
        self.kind, self.v, self.null = kind, v, null


def _fl_refuse(text, node, what, names):
    seg = ast.get_source_segment(text, node) or ''
    for ph, label in names.items():
        seg = seg.replace(ph, '`%s`' % label)
    at = getattr(node, 'col_offset', None)
    where = ' at column %d' % (at + 1) if isinstance(at, int) else ''
    return _ProbeError('INVALID_EXPRESSION', 'filter refused: %s%s: %s' % (what, where, _cut(seg, 120, _Trunc())), _FL_HINT)


def _fl_backticks(text):
    """The filter with each `label` replaced by a placeholder identifier,
    & and | by and / or (DataFrame.query's precedence: a == 1 | b == 2 is
    (a == 1) or (b == 2)), and {placeholder: label}; quotes are respected."""
    out, names, i, q = [], {}, 0, None
    while i < len(text):
        ch = text[i]
        if q:
            out.append(ch)
            if ch == '\\' and i + 1 < len(text):
                out.append(text[i + 1])
                i += 1
            elif ch == q:
                q = None
        elif ch in '\'"':
            q = ch
            out.append(ch)
        elif ch in '&|':  # as DataFrame.query: & and | bind as and / or
            out.append(' and ' if ch == '&' else ' or ')
        elif ch == '`':
            j = text.find('`', i + 1)
            if j < 0:
                raise _ProbeError('INVALID_EXPRESSION', 'filter %r: a backtick at column %d is never closed' % (_cut(text, 200, _Trunc()), i + 1), _FL_HINT)
            ph = '_dapscope_bt%d' % len(names)
            names[ph] = text[i + 1:j]
            out.append(ph)
            i = j
        else:
            out.append(ch)
        i += 1
    return ''.join(out), names


def _fl_check(text, tree, names):
    """Refuses any node a filter does not need; dunder and private names
    first (whatever encloses them), then the outermost other offence."""
    nodes = list(ast.walk(tree))
    if len(nodes) > _FILTER_NODES:
        raise _ProbeError('INVALID_EXPRESSION', 'filter refused: %d syntax nodes, at most %d' % (len(nodes), _FILTER_NODES), _FL_HINT)
    for n in nodes:
        name = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
        if name is not None and name.startswith('_') and name not in names:
            raise _fl_refuse(text, n, 'the name %s (dunder and private names are never read)' % name, names)
    allowed = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.Invert,
               ast.BinOp, ast.BitAnd, ast.BitOr, ast.BitXor, ast.Compare, ast.In, ast.NotIn, ast.Constant,
               ast.Name, ast.Load, ast.List, ast.Tuple, ast.Set, ast.Call, ast.Attribute, ast.keyword)
    allowed += tuple(_FL_CMP) + tuple(_FL_ARITH)
    calls = [p for p in nodes if isinstance(p, ast.Call)]
    funcs = set(id(p.func) for p in calls)
    strs = set(id(p.func.value) for p in calls if isinstance(p.func, ast.Attribute) and p.func.attr in _FL_STR_METHODS)
    for n in nodes:
        if not isinstance(n, allowed):
            raise _fl_refuse(text, n, '%s is not allowed' % type(n).__name__, names)
        if isinstance(n, ast.Constant) and not isinstance(n.value, (int, float, str, bool, type(None))):
            raise _fl_refuse(text, n, 'a %s literal is not allowed' % _short(type(n.value)), names)
        if isinstance(n, ast.Call):
            f = n.func
            ok = isinstance(f, ast.Name) and f.id == 'duplicated' or isinstance(f, ast.Attribute) and (
                f.attr in _FL_METHODS and not (isinstance(f.value, ast.Attribute) and f.value.attr == 'str')
                or f.attr in _FL_STR_METHODS and isinstance(f.value, ast.Attribute) and f.value.attr == 'str')
            if not ok:
                what = f.attr if isinstance(f, ast.Attribute) else getattr(f, 'id', type(f).__name__)
                raise _fl_refuse(text, n, 'calling %s() is not allowed' % what, names)
            for a in list(n.args) + [k.value for k in n.keywords]:
                if not _fl_literal_node(a):
                    raise _fl_refuse(text, a, 'a method argument must be a literal', names)
        if isinstance(n, ast.Attribute) and not (id(n) in funcs or id(n) in strs and n.attr == 'str'):
            raise _fl_refuse(text, n, 'the attribute %s is not allowed (a column named so is written `%s`)' % (n.attr, n.attr), names)
        if isinstance(n, ast.keyword) and n.arg not in ('case', 'regex', 'inclusive', 'keep', 'subset'):
            raise _fl_refuse(text, n.value, 'the keyword %s= is not allowed' % n.arg, names)


def _fl_literal_node(n):
    if isinstance(n, ast.Constant):
        return True
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
        return isinstance(n.operand, ast.Constant) and isinstance(n.operand.value, (int, float))
    if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
        return all(_fl_literal_node(e) and not isinstance(e, (ast.List, ast.Tuple, ast.Set)) for e in n.elts)
    return False


def _filter_mask(df, text, np, pd):
    """(mask, unknown rows) of a filter over df: mask a numpy bool array,
    True where the filter holds (unknown rows are False)."""
    if len(text) > _FILTER_CHARS:
        raise _ProbeError('INVALID_EXPRESSION', 'filter refused: %d characters, at most %d' % (len(text), _FILTER_CHARS), _FL_HINT)
    src, names = _fl_backticks(text)
    try:
        tree = ast.parse(src.strip(), mode='eval')
    except SyntaxError as e:
        at = e.offset if isinstance(e.offset, int) and e.offset > 0 else len(src.rstrip()) + 1
        where = ' at column %d' % at
        raise _ProbeError('INVALID_EXPRESSION', 'filter %r%s: %s' % (_cut(text, 200, _Trunc()), where, e.msg), _FL_HINT)
    except (ValueError, RecursionError, MemoryError) as e:
        raise _ProbeError('INVALID_EXPRESSION', 'filter %r: %s' % (_cut(text, 200, _Trunc()), _short(type(e))), _FL_HINT)
    src = src.strip()
    _fl_check(src, tree, names)
    ctx = {'df': df, 'np': np, 'pd': pd, 'src': src, 'names': names, 'cols': {}, 'n': len(df)}
    with warnings.catch_warnings():  # nothing in the program's console
        warnings.simplefilter('ignore')
        r = _fl_truth(ctx, _fl_eval(ctx, tree.body), tree.body)
    if r.null is None:
        return r.v, 0
    return r.v & ~r.null, int(np.count_nonzero(r.null))


def _fl_err(ctx, node, e):
    return _fl_refuse(ctx['src'], node, '%s: %s' % (_short(type(e)), _cut(str(e), 200, _Trunc())), ctx['names']).message


def _fl_fail(ctx, node, e):
    raise _ProbeError('INVALID_EXPRESSION', _fl_err(ctx, node, e).replace('filter refused: ', 'filter failed: ', 1), _FL_HINT)


def _fl_or_null(np, a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a | b


def _fl_column(ctx, node, label):
    if label in ctx['cols']:
        return ctx['cols'][label]
    df, np = ctx['df'], ctx['np']
    labels = [_label(c)[0] for c in df.columns]
    hits = [i for i, c in enumerate(df.columns) if isinstance(c, str) and c == label] or \
        [i for i, l in enumerate(labels) if l == label]
    if len(hits) > 1:
        raise _fl_refuse(ctx['src'], node, 'the column name %s is ambiguous (%d columns)' % (label, len(hits)), ctx['names'])
    if hits:
        s = _column(df, hits[0])
    elif label == 'index' or label in [str(x) for x in df.index.names if x is not None]:
        idx = df.index if label == 'index' or df.index.nlevels == 1 else df.index.get_level_values(label)
        s = ctx['pd'].Series(idx, index=df.index)
    else:
        e = _fl_refuse(ctx['src'], node, 'no column named %s' % label, ctx['names'])
        e.code, e.available = 'VARIABLE_NOT_FOUND', labels[:50]
        raise e
    nul = np.asarray(s.isna(), dtype=bool)
    fv = _FV('col', s, nul if nul.any() else None)
    ctx['cols'][label] = fv
    return fv


def _fl_literal(n):
    if isinstance(n, ast.Constant):
        return n.value
    if isinstance(n, ast.UnaryOp):
        v = n.operand.value
        return -v if isinstance(n.op, ast.USub) else v
    return [_fl_literal(e) for e in n.elts]


def _fl_eval(ctx, n):
    np = ctx['np']
    if isinstance(n, ast.Constant) or _fl_literal_node(n) and isinstance(n, ast.UnaryOp):
        return _FV('lit', _fl_literal(n))
    if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
        if not _fl_literal_node(n):
            raise _fl_refuse(ctx['src'], n, 'a list in a filter holds literals only', ctx['names'])
        return _FV('lit', _fl_literal(n))
    if isinstance(n, ast.Name):
        return _fl_column(ctx, n, ctx['names'].get(n.id, n.id))
    if isinstance(n, ast.BoolOp):
        r = _fl_truth(ctx, _fl_eval(ctx, n.values[0]), n.values[0])
        for x in n.values[1:]:
            r = _fl_kleene(np, isinstance(n.op, ast.And), r, _fl_truth(ctx, _fl_eval(ctx, x), x))
        return r
    if isinstance(n, ast.UnaryOp):
        a = _fl_eval(ctx, n.operand)
        if isinstance(n.op, ast.Not) or isinstance(n.op, ast.Invert) and _fl_is_truth(ctx, a):
            a = _fl_truth(ctx, a, n.operand)
            return _FV('bool', ~a.v, a.null)
        if a.kind == 'lit':
            if not isinstance(a.v, (int, float)) or isinstance(n.op, ast.Invert) and not isinstance(a.v, int):
                raise _fl_refuse(ctx['src'], n, 'that operator needs a number', ctx['names'])
            return _FV('lit', -a.v if isinstance(n.op, ast.USub) else ~a.v if isinstance(n.op, ast.Invert) else a.v)
        return _fl_arith(ctx, n, {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}[type(n.op)], a)
    if isinstance(n, ast.BinOp):
        a, b = _fl_eval(ctx, n.left), _fl_eval(ctx, n.right)
        if isinstance(n.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and _fl_is_truth(ctx, a) and _fl_is_truth(ctx, b):
            a, b = _fl_truth(ctx, a, n.left), _fl_truth(ctx, b, n.right)
            if isinstance(n.op, ast.BitXor):
                return _FV('bool', a.v ^ b.v, _fl_or_null(np, a.null, b.null))
            return _fl_kleene(np, isinstance(n.op, ast.BitAnd), a, b)
        op = _FL_ARITH.get(type(n.op)) or {ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}[type(n.op)]
        return _fl_arith(ctx, n, op, a, b)
    if isinstance(n, ast.Compare):
        r, left = None, _fl_eval(ctx, n.left)
        for op, rn in zip(n.ops, n.comparators):
            right = _fl_eval(ctx, rn)
            c = _fl_compare(ctx, n, op, left, right)
            r = c if r is None else _fl_kleene(np, True, r, c)
            left = right
        return r
    if isinstance(n, ast.Call):
        return _fl_call(ctx, n)
    raise _fl_refuse(ctx['src'], n, '%s is not allowed' % type(n).__name__, ctx['names'])


def _fl_kleene(np, conj, a, b):
    """a and b (conj) or a or b over (truth, unknown) pairs: and is false
    where either is known false, or where either is known true."""
    if a.null is None and b.null is None:
        return _FV('bool', (a.v & b.v) if conj else (a.v | b.v))
    an = a.null if a.null is not None else np.zeros(len(a.v), dtype=bool)
    bn = b.null if b.null is not None else np.zeros(len(b.v), dtype=bool)
    if conj:
        decided = (~a.v & ~an) | (~b.v & ~bn)
        null = (an | bn) & ~decided
        return _FV('bool', a.v & b.v & ~null, null if null.any() else None)
    decided = (a.v & ~an) | (b.v & ~bn)
    null = (an | bn) & ~decided
    return _FV('bool', decided, null if null.any() else None)


def _fl_boolean_dtype(dt):
    return str(dt) in ('bool', 'boolean', 'bool[pyarrow]') or getattr(dt, 'kind', '') == 'b'


def _fl_is_truth(ctx, a):
    if a.kind == 'bool' or a.kind == 'lit' and isinstance(a.v, bool):
        return True
    if a.kind != 'col':
        return False
    if _fl_boolean_dtype(a.v.dtype):
        return True
    return str(a.v.dtype) == 'object' and ctx['pd'].api.types.infer_dtype(a.v, skipna=True) == 'boolean'


def _fl_truth(ctx, a, node):
    """a as a truth value per row (bool), or a refusal naming the part."""
    np = ctx['np']
    if a.kind == 'bool':
        return a
    if a.kind == 'lit' and isinstance(a.v, bool):
        return _FV('bool', np.full(ctx['n'], a.v))
    if a.kind == 'col' and _fl_is_truth(ctx, a):
        return _FV('bool', _fl_bools(np, a.v, node, ctx), a.null)
    raise _ProbeError('INVALID_EXPRESSION', 'filter %r does not give one true/false per row: %s is %s' % (
        _cut(ctx['src'], 200, _Trunc()), (ast.get_source_segment(ctx['src'], node) or '?'),
        'a literal' if a.kind == 'lit' else 'of dtype %s' % a.v.dtype), _FL_HINT)


def _fl_bools(np, s, node, ctx):
    """A boolean Series (numpy, nullable, pyarrow) as a numpy bool array,
    missing values False."""
    try:
        return np.asarray(s.to_numpy(dtype=bool, na_value=False), dtype=bool)
    except Exception:
        try:
            return np.asarray(s.fillna(False).astype(bool), dtype=bool)
        except Exception as e:
            _fl_fail(ctx, node, e)


def _fl_arith(ctx, n, op, a, b=None):
    np = ctx['np']
    vals = [a] if b is None else [a, b]
    for x in vals:
        if x.kind == 'bool':  # a truth in arithmetic: as a column of booleans
            x.kind, x.v = 'col', ctx['pd'].Series(x.v, index=ctx['df'].index)
        if x.kind == 'lit' and not isinstance(x.v, (int, float)) and not (op is operator.add and isinstance(x.v, str)):
            raise _fl_refuse(ctx['src'], n, 'arithmetic needs numbers (a string may only be added)', ctx['names'])
        if x.kind == 'col' and getattr(x.v.dtype, 'kind', 'O') not in 'biufcmM' and op is not operator.add:
            raise _fl_refuse(ctx['src'], n, 'arithmetic needs numbers, dates or durations (dtype %s)' % x.v.dtype, ctx['names'])
    if all(x.kind == 'lit' for x in vals):
        args = [x.v for x in vals]
        if op is operator.pow and not (type(args[1]) is int and 0 <= args[1] <= 64 and abs(args[0]) < 2 ** 64):
            args = [float(x) for x in args]  # never a huge exact power
        try:
            return _FV('lit', op(*args))
        except Exception as e:
            _fl_fail(ctx, n, e)
    try:
        with np.errstate(all='ignore'):
            r = op(*[x.v for x in vals])
    except Exception as e:
        _fl_fail(ctx, n, e)
    nul = np.asarray(r.isna(), dtype=bool)
    for x in vals:
        nul = nul if x.null is None else nul | x.null
    return _FV('col', r, nul if nul.any() else None)


def _fl_compare(ctx, n, op, a, b):
    np = ctx['np']
    null = _fl_or_null(np, a.null, b.null)
    if a.kind == 'bool' or b.kind == 'bool':
        a, b = [_FV('col', ctx['pd'].Series(x.v, index=ctx['df'].index), x.null) if x.kind == 'bool' else x for x in (a, b)]
    if isinstance(op, (ast.In, ast.NotIn)) or type(op) in (ast.Eq, ast.NotEq) and b.kind == 'lit' and isinstance(b.v, list):
        if a.kind != 'col' or not (b.kind == 'col' or isinstance(b.v, list)):
            raise _fl_refuse(ctx['src'], n, 'in / not in take a column and a list (or another column)', ctx['names'])
        try:
            r = _fl_bools(np, a.v.isin(b.v.dropna().unique() if b.kind == 'col' else b.v), n, ctx)
        except _ProbeError:
            raise
        except Exception as e:
            _fl_fail(ctx, n, e)
        if isinstance(op, (ast.NotIn, ast.NotEq)):
            r = ~r
        return _FV('bool', r, null)
    if a.kind == 'lit' and a.v is None or b.kind == 'lit' and b.v is None:
        raise _fl_refuse(ctx['src'], n, 'a comparison with None is never true (use isna() or notna())', ctx['names'])
    f = _FL_CMP[type(op)]
    if a.kind == 'lit' and b.kind == 'lit':
        try:
            return _FV('bool', np.full(ctx['n'], bool(f(a.v, b.v))))
        except Exception as e:
            _fl_fail(ctx, n, e)
    try:
        r = f(a.v, b.v)
    except Exception as e:
        _fl_fail(ctx, n, e)
    if not _fl_boolean_dtype(getattr(r, 'dtype', None)):
        _fl_fail(ctx, n, TypeError('the comparison gave %s, not true/false' % getattr(r, 'dtype', type(r))))
    return _FV('bool', _fl_bools(np, r, n, ctx), null)


def _fl_call(ctx, n):
    np, f = ctx['np'], n.func
    if isinstance(f, ast.Name):  # duplicated() over the frame
        return _fl_duplicated(ctx, n, None)
    is_str = isinstance(f.value, ast.Attribute) and f.value.attr == 'str'
    a = _fl_eval(ctx, f.value.value if is_str else f.value)
    if a.kind != 'col':
        raise _fl_refuse(ctx['src'], n, '%s() applies to a column' % f.attr, ctx['names'])
    args = [_fl_literal(x) for x in n.args]
    kw = dict((k.arg, _fl_literal(k.value)) for k in n.keywords)
    m = f.attr
    if m == 'duplicated':
        return _fl_duplicated(ctx, n, a)
    if is_str and (m == 'match' or m == 'contains' and kw.get('regex')):
        return _fl_regex(ctx, n, a, args, kw, m == 'match')
    if m in ('isna', 'isnull', 'notna', 'notnull'):
        if args or kw:
            raise _fl_refuse(ctx['src'], n, '%s() takes no arguments' % m, ctx['names'])
        k = a.null if a.null is not None else np.zeros(ctx['n'], dtype=bool)
        return _FV('bool', k.copy() if m in ('isna', 'isnull') else ~k)
    if is_str and m == 'contains':
        kw.setdefault('regex', False)  # a plain substring unless asked: no pattern runs by surprise
        if set(kw) - {'case', 'regex'} or len(args) != 1 or not isinstance(args[0], str):
            raise _fl_refuse(ctx['src'], n, 'str.contains takes one string (and case=, regex=)', ctx['names'])
    elif kw and not (m == 'between' and set(kw) == {'inclusive'}):
        raise _fl_refuse(ctx['src'], n, '%s() takes no keyword %s=' % (m, sorted(kw)[0]), ctx['names'])
    if m == 'isin' and (len(args) != 1 or not isinstance(args[0], list)):
        raise _fl_refuse(ctx['src'], n, 'isin takes one list of literals', ctx['names'])
    if m == 'between' and len(args) != 2:
        raise _fl_refuse(ctx['src'], n, 'between takes two bounds', ctx['names'])
    if m in ('startswith', 'endswith'):
        if len(args) != 1 or not (isinstance(args[0], str) or isinstance(args[0], list) and all(isinstance(x, str) for x in args[0])):
            raise _fl_refuse(ctx['src'], n, 'str.%s takes a string or a tuple of strings' % m, ctx['names'])
        args = [tuple(args[0]) if isinstance(args[0], list) else args[0]]
    try:
        target = a.v.str if is_str else a.v
        r = getattr(target, m)(*args, **kw)
    except Exception as e:
        _fl_fail(ctx, n, e)
    if m in ('len', 'lower', 'upper', 'strip'):
        nul = np.asarray(r.isna(), dtype=bool)
        return _FV('col', r, nul if nul.any() else None)
    return _FV('bool', _fl_bools(np, r, n, ctx), a.null)
