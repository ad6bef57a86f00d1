# dapscope Python probe: the filter grammar (filter.py: parsed with ast,
# the same allow-list and refusals) compiled to an engine's own expression,
# so the engine filters where the data lives: a polars Expr, a
# pyarrow.compute Expression, SQL text with bound parameters (DuckDB; the
# user's literals are never spliced into the text, identifiers are quoted),
# a Spark Column. All four engines use SQL's three-valued logic, as
# filter.py does over pandas: a comparison with a null is unknown, unknown
# rows are no match, and are counted (filter_na_rows).

import re as _re


def _fl_parse(text):
    """(src, tree, names) of a filter, refused as filter.py refuses it."""
    if len(text) > _FILTER_CHARS:
        raise _ProbeError('INVALID_EXPRESSION', 'filter refused: %d characters, at most %d' % (len(text), _FILTER_CHARS), _FL_HINT)
    src, names = _fl_backticks(text)
    try:
        tree = ast.parse(src.strip(), mode='eval')
    except SyntaxError as e:
        at = e.offset if isinstance(e.offset, int) and e.offset > 0 else len(src.rstrip()) + 1
        raise _ProbeError('INVALID_EXPRESSION', 'filter %r at column %d: %s' % (_cut(text, 200, _Trunc()), at, e.msg), _FL_HINT)
    except (ValueError, RecursionError, MemoryError) as e:
        raise _ProbeError('INVALID_EXPRESSION', 'filter %r: %s' % (_cut(text, 200, _Trunc()), _short(type(e))), _FL_HINT)
    src = src.strip()
    _fl_check(src, tree, names)
    return src, tree, names


class _FC(object):
    """A compiled filter value: lit (a Python literal), col (an engine
    expression, one value per row) or truth (an engine boolean)."""
    __slots__ = ('kind', 'v', 'dk')

    def __init__(self, kind, v, dk=None):
        self.kind, self.v, self.dk = kind, v, dk  # dk: a bare column's dtype kind


def _fl_compile(text, columns, back):
    """The filter as back's expression (back: an engine's _FB_* backend;
    columns: the table's names and their dtype kinds)."""
    src, tree, names = _fl_parse(text)
    ctx = {'src': src, 'names': names, 'columns': columns, 'back': back}
    r = _fc_truth(ctx, _fc(ctx, tree.body), tree.body)
    return r.v


def _fc_refuse(ctx, n, what):
    return _fl_refuse(ctx['src'], n, what, ctx['names'])


def _fc_truth(ctx, a, n):
    if a.kind == 'truth':
        return a
    if a.kind == 'lit' and isinstance(a.v, bool):
        return _FC('truth', ctx['back'].lit(a.v))
    raise _ProbeError('INVALID_EXPRESSION', 'filter %r does not give one true/false per row: %s is %s' % (
        _cut(ctx['src'], 200, _Trunc()), (ast.get_source_segment(ctx['src'], n) or '?'),
        'a literal' if a.kind == 'lit' else 'not a boolean column'), _FL_HINT)


def _fc(ctx, n):
    b = ctx['back']
    if isinstance(n, ast.Constant) or _fl_literal_node(n) and isinstance(n, (ast.UnaryOp, ast.List, ast.Tuple, ast.Set)):
        return _FC('lit', _fl_literal(n))
    if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
        raise _fc_refuse(ctx, n, 'a list in a filter holds literals only')
    if isinstance(n, ast.Name):
        label = ctx['names'].get(n.id, n.id)
        if label not in ctx['columns']:
            e = _fc_refuse(ctx, n, 'no column named %s' % label)
            e.code, e.available = 'VARIABLE_NOT_FOUND', list(ctx['columns'])[:50]
            raise e
        kind = ctx['columns'][label]
        return _FC('truth' if kind == 'bool' else 'col', b.col(label), kind)
    if isinstance(n, ast.BoolOp):
        r = _fc_truth(ctx, _fc(ctx, n.values[0]), n.values[0])
        for x in n.values[1:]:
            y = _fc_truth(ctx, _fc(ctx, x), x)
            r = _FC('truth', b.and_(r.v, y.v) if isinstance(n.op, ast.And) else b.or_(r.v, y.v))
        return r
    if isinstance(n, ast.UnaryOp):
        a = _fc(ctx, n.operand)
        if isinstance(n.op, ast.Not) or isinstance(n.op, ast.Invert) and a.kind == 'truth':
            return _FC('truth', b.not_(_fc_truth(ctx, a, n.operand).v))
        if a.kind == 'lit':
            if not isinstance(a.v, (int, float)) or isinstance(n.op, ast.Invert) and not isinstance(a.v, int):
                raise _fc_refuse(ctx, n, 'that operator needs a number')
            return _FC('lit', -a.v if isinstance(n.op, ast.USub) else ~a.v if isinstance(n.op, ast.Invert) else a.v)
        if isinstance(n.op, ast.Invert):
            raise _fc_refuse(ctx, n, '~ on a column needs booleans')
        return _FC('col', b.neg(a.v) if isinstance(n.op, ast.USub) else a.v)
    if isinstance(n, ast.BinOp):
        a, c = _fc(ctx, n.left), _fc(ctx, n.right)
        if isinstance(n.op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            if not (a.kind == 'truth' or a.kind == 'lit' and isinstance(a.v, bool)) or \
                    not (c.kind == 'truth' or c.kind == 'lit' and isinstance(c.v, bool)):
                raise _fc_refuse(ctx, n, '& | ^ take true/false values')
            x, y = _fc_truth(ctx, a, n.left).v, _fc_truth(ctx, c, n.right).v
            op = {ast.BitAnd: b.and_, ast.BitOr: b.or_, ast.BitXor: b.xor}[type(n.op)]
            return _FC('truth', op(x, y))
        for x in (a, c):
            if x.kind == 'lit' and not isinstance(x.v, (int, float)) and not (isinstance(n.op, ast.Add) and isinstance(x.v, str)):
                raise _fc_refuse(ctx, n, 'arithmetic needs numbers (a string may only be added)')
        if a.kind == 'lit' and c.kind == 'lit':
            try:
                args = [a.v, c.v]
                if isinstance(n.op, ast.Pow) and not (type(c.v) is int and 0 <= c.v <= 64 and abs(a.v) < 2 ** 64):
                    args = [float(x) for x in args]
                return _FC('lit', _FL_ARITH[type(n.op)](*args))
            except Exception as e:
                _fl_fail(ctx, n, e)
        return _FC('col', b.arith(type(n.op).__name__, _fc_val(b, a), _fc_val(b, c)))
    if isinstance(n, ast.Compare):
        r, left = None, _fc(ctx, n.left)
        for op, rn in zip(n.ops, n.comparators):
            right = _fc(ctx, rn)
            c = _fc_compare(ctx, n, op, left, right)
            r = c if r is None else _FC('truth', b.and_(r.v, c.v))
            left = right
        return r
    if isinstance(n, ast.Call):
        return _fc_call(ctx, n)
    raise _fc_refuse(ctx, n, '%s is not allowed' % type(n).__name__)


def _fc_val(b, x):
    return b.lit(x.v) if x.kind == 'lit' else x.v


def _fc_compare(ctx, n, op, a, c):
    b = ctx['back']
    if isinstance(op, (ast.In, ast.NotIn)) or type(op) in (ast.Eq, ast.NotEq) and c.kind == 'lit' and isinstance(c.v, list):
        if a.kind == 'lit' or not (c.kind == 'lit' and isinstance(c.v, list)):
            raise _fc_refuse(ctx, n, 'in / not in take a column and a list')
        r = b.isin(a.v, c.v)
        return _FC('truth', b.not_(r) if isinstance(op, (ast.NotIn, ast.NotEq)) else r)
    if a.kind == 'lit' and a.v is None or c.kind == 'lit' and c.v is None:
        raise _fc_refuse(ctx, n, 'a comparison with None is never true (use isna() or notna())')
    a, c = _fc_date_literal(ctx, n, a, c), _fc_date_literal(ctx, n, c, a)
    if a.kind == 'lit' and c.kind == 'lit':
        try:
            return _FC('truth', b.lit(bool(_FL_CMP[type(op)](a.v, c.v))))
        except Exception as e:
            _fl_fail(ctx, n, e)
    return _FC('truth', b.cmp(type(op).__name__, _fc_val(b, a), _fc_val(b, c)))


def _fc_date_literal(ctx, n, x, other):
    """A string literal compared with a date column, read as an ISO date
    (pandas compares '2024-06-01' with datetimes so)."""
    if x.kind != 'lit' or not isinstance(x.v, str) or other.dk != 'datetime':
        return x
    import datetime
    try:
        return _FC('lit', datetime.datetime.fromisoformat(x.v))
    except ValueError:
        raise _fc_refuse(ctx, n, '%r is not an ISO date' % _cut(x.v, 60, _Trunc()))


def _fc_call(ctx, n):
    b, f = ctx['back'], n.func
    if isinstance(f, ast.Name):  # duplicated() over the frame
        return _fc_duplicated(ctx, n, None)
    is_str = isinstance(f.value, ast.Attribute) and f.value.attr == 'str'
    a = _fc(ctx, f.value.value if is_str else f.value)
    if a.kind == 'lit':
        raise _fc_refuse(ctx, n, '%s() applies to a column' % f.attr)
    args = [_fl_literal(x) for x in n.args]
    kw = dict((k.arg, _fl_literal(k.value)) for k in n.keywords)
    m = f.attr
    if m in ('isna', 'isnull', 'notna', 'notnull'):
        if args or kw:
            raise _fc_refuse(ctx, n, '%s() takes no arguments' % m)
        return _FC('truth', b.isnull(a.v) if m in ('isna', 'isnull') else b.not_(b.isnull(a.v)))
    if m == 'duplicated':
        return _fc_duplicated(ctx, n, f.value)
    if is_str and m == 'match':  # pandas' re.match: anchored at the start, RE2 in every engine here
        if set(kw) - {'case'} or len(args) != 1 or not isinstance(args[0], str):
            raise _fc_refuse(ctx, n, 'str.match takes one string literal (and case=)')
        return _FC('truth', b.contains(a.v, '^(?:%s)' % args[0], kw.get('case', True) is not False, True))
    if is_str and m == 'contains':
        kw.setdefault('regex', False)
        if set(kw) - {'case', 'regex'} or len(args) != 1 or not isinstance(args[0], str):
            raise _fc_refuse(ctx, n, 'str.contains takes one string (and case=, regex=)')
        return _FC('truth', b.contains(a.v, args[0], kw.get('case', True) is not False, bool(kw['regex'])))
    if kw and not (m == 'between' and set(kw) == {'inclusive'}):
        raise _fc_refuse(ctx, n, '%s() takes no keyword %s=' % (m, sorted(kw)[0]))
    if m == 'isin':
        if len(args) != 1 or not isinstance(args[0], list):
            raise _fc_refuse(ctx, n, 'isin takes one list of literals')
        return _FC('truth', b.isin(a.v, args[0]))
    if m == 'between':
        if len(args) != 2:
            raise _fc_refuse(ctx, n, 'between takes two bounds')
        inc = kw.get('inclusive', 'both')
        if inc not in ('both', 'neither', 'left', 'right'):
            raise _fc_refuse(ctx, n, "inclusive is 'both', 'neither', 'left' or 'right'")
        lo = b.cmp('GtE' if inc in ('both', 'left') else 'Gt', a.v, b.lit(args[0]))
        hi = b.cmp('LtE' if inc in ('both', 'right') else 'Lt', a.v, b.lit(args[1]))
        return _FC('truth', b.and_(lo, hi))
    if m in ('startswith', 'endswith'):
        if len(args) != 1 or not (isinstance(args[0], str) or isinstance(args[0], list) and args[0] and all(isinstance(x, str) for x in args[0])):
            raise _fc_refuse(ctx, n, 'str.%s takes a string or a tuple of strings' % m)
        pats = args[0] if isinstance(args[0], list) else [args[0]]
        r = None
        for p in pats:
            x = b.affix(a.v, p, m == 'startswith')
            r = x if r is None else b.or_(r, x)
        return _FC('truth', r)
    if m in ('len', 'lower', 'upper', 'strip'):
        if args:
            raise _fc_refuse(ctx, n, 'str.%s() takes no arguments' % m)
        return _FC('col', b.strfn(a.v, m))
    raise _fc_refuse(ctx, n, 'calling %s() is not allowed' % m)


def _fc_duplicated(ctx, n, on):
    """duplicated(keep=, subset=[...]) over the frame (on is None) or a
    column (on: its node): back.duplicated(keys, labels, keep), keys the
    engine's expressions, labels their column names (None: an expression),
    computed by the engine in its rows' order, never unknown. An engine
    that cannot (no row order, or a full shuffle) says why (back.no_dup)."""
    b = ctx['back']
    args = [_fl_literal(x) for x in n.args]
    kw = dict((k.arg, _fl_literal(k.value)) for k in n.keywords)
    if args or set(kw) - ({'keep'} if on is not None else {'keep', 'subset'}):
        raise _fc_refuse(ctx, n, 'duplicated takes keep= (and over the frame subset=[columns])')
    keep = kw.get('keep', 'first')
    if keep not in ('first', 'last', False):
        raise _fc_refuse(ctx, n, "keep= is 'first', 'last' or False")
    why = b.no_dup(keep) if hasattr(b, 'no_dup') else 'duplicated() is not available over this engine'
    if why:
        raise _fc_refuse(ctx, n, why)
    if on is not None:
        a = _fc(ctx, on)
        if a.kind == 'lit':
            raise _fc_refuse(ctx, n, 'duplicated() applies to a column')
        label = ctx['names'].get(on.id, on.id) if isinstance(on, ast.Name) else None
        return _FC('truth', b.duplicated([a.v], [label], keep))
    sub = kw.get('subset')
    labels = list(ctx['columns'])
    if sub is not None:
        labels = sub if isinstance(sub, list) else [sub]
        for label in labels:
            if not isinstance(label, str):
                raise _fc_refuse(ctx, n, 'subset= lists column names')
            if label not in ctx['columns']:
                e = _fc_refuse(ctx, n, 'no column named %s' % label)
                e.code, e.available = 'VARIABLE_NOT_FOUND', list(ctx['columns'])[:50]
                raise e
    if not labels:
        raise _fc_refuse(ctx, n, 'duplicated() needs a column')
    return _FC('truth', b.duplicated([b.col(x) for x in labels], labels, keep))


# ---------------------------------------------------------------- backends

class _FBPolars(object):
    def __init__(self, pl):
        self.pl = pl

    def col(self, name):
        return self.pl.col(name)

    def lit(self, v):
        return self.pl.lit(v)

    def and_(self, a, b):
        return a & b

    def or_(self, a, b):
        return a | b

    def xor(self, a, b):
        return a ^ b

    def not_(self, a):
        return ~a

    def neg(self, a):
        return -a

    def arith(self, op, a, b):
        return _FL_ARITH[getattr(ast, op)](a, b)

    def cmp(self, op, a, b):
        return _FL_CMP[getattr(ast, op)](a, b)

    def isin(self, a, vals):
        return a.is_in(self.pl.Series(vals) if vals else self.pl.Series([], dtype=self.pl.Null))

    def isnull(self, a):
        return a.is_null()

    def contains(self, a, pat, case, regex):
        if not case:
            return a.str.contains('(?i)' + (pat if regex else _re.escape(pat)))
        return a.str.contains(pat, literal=not regex)

    def affix(self, a, p, start):
        return a.str.starts_with(p) if start else a.str.ends_with(p)

    def no_dup(self, keep):
        return None

    def duplicated(self, keys, labels, keep):
        """polars' own: a struct of the keys (nulls equal, NaN equal NaN),
        is_duplicated, or the first/last distinct rows negated."""
        pl = self.pl
        k = pl.struct([x.alias('k%d' % i) for i, x in enumerate(keys)])
        return k.is_duplicated() if keep is False else ~(k.is_first_distinct() if keep == 'first' else k.is_last_distinct())

    def strfn(self, a, m):
        s = a.str
        return {'len': s.len_chars, 'lower': s.to_lowercase, 'upper': s.to_uppercase, 'strip': s.strip_chars}[m]()


class _FBArrow(object):
    """pyarrow.compute Expressions (usable by Table.filter and datasets)."""

    def __init__(self, pc):
        self.pc = pc
        self.derived = []  # (column name, key labels, keep): duplicated(), computed by _pa_duplicated

    def no_dup(self, keep):
        return None

    def duplicated(self, keys, labels, keep):
        if None in labels:
            raise _ProbeError('INVALID_EXPRESSION', 'filter refused: over pyarrow, duplicated() applies to a column '
                              'or the frame, not to an expression', _FL_HINT)
        name = '__dapscope_dup%d' % len(self.derived)
        self.derived.append((name, labels, keep))
        return self.pc.field(name)

    def col(self, name):
        return self.pc.field(name)

    def lit(self, v):
        return self.pc.scalar(v)

    def and_(self, a, b):
        return self.pc.and_kleene(a, b)

    def or_(self, a, b):
        return self.pc.or_kleene(a, b)

    def xor(self, a, b):
        return self.pc.xor(a, b)

    def not_(self, a):
        return self.pc.invert(a)

    def neg(self, a):
        return self.pc.negate(a)

    def arith(self, op, a, b):
        f = {'Add': 'add', 'Sub': 'subtract', 'Mult': 'multiply', 'Pow': 'power'}.get(op)
        if op == 'Div':
            return self.pc.divide(self.pc.cast(a, 'float64'), self.pc.cast(b, 'float64'))
        if f is None:
            raise _ProbeError('INVALID_EXPRESSION', 'filter refused: %s is not available over pyarrow' % op, _FL_HINT)
        return getattr(self.pc, f)(a, b)

    def cmp(self, op, a, b):
        return getattr(self.pc, {'Eq': 'equal', 'NotEq': 'not_equal', 'Lt': 'less', 'LtE': 'less_equal',
                                 'Gt': 'greater', 'GtE': 'greater_equal'}[op])(a, b)

    def isin(self, a, vals):
        pa = _mod('pyarrow')
        r = self.pc.is_in(a, value_set=pa.array(vals))
        return self.pc.if_else(self.pc.is_null(a), pa.scalar(None, type=pa.bool_()), r)

    def isnull(self, a):
        return self.pc.is_null(a, nan_is_null=False)

    def contains(self, a, pat, case, regex):
        f = self.pc.match_substring_regex if regex else self.pc.match_substring
        return f(a, pattern=pat, ignore_case=not case)

    def affix(self, a, p, start):
        return (self.pc.starts_with if start else self.pc.ends_with)(a, pattern=p)

    def strfn(self, a, m):
        return {'len': self.pc.utf8_length, 'lower': self.pc.utf8_lower, 'upper': self.pc.utf8_upper,
                'strip': self.pc.utf8_trim_whitespace}[m](a)


def _sql_ident(name):
    """A quoted SQL identifier (double quotes doubled): never text spliced."""
    return '"' + str(name).replace('"', '""') + '"'
