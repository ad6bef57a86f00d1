# dapscope Python probe: the filter methods that need more care than a
# comparison (filter.py calls them): duplicated() over the frame or a
# column, and regular expressions (str.contains(..., regex=True),
# str.match), which never block the program: Python's re has no step
# bound ((x+)+y on 'x' * 28 + '!' ran for minutes), so a pattern runs in
# RE2 (pyarrow.compute, linear time) where pyarrow is importable, and
# otherwise a pattern that could backtrack for ever (a quantified group
# that holds a quantifier, a backreference) is refused with the reason.


def _fl_duplicated(ctx, n, a):
    """duplicated(keep='first'|'last'|False, subset=[labels]) over the
    frame (a is None) or a column: a truth per row, never unknown (a
    missing value equals another missing value, as pandas)."""
    np, df = ctx['np'], ctx['df']
    args = [_fl_literal(x) for x in n.args]
    kw = dict((k.arg, _fl_literal(k.value)) for k in n.keywords)
    if args or set(kw) - ({'keep'} if a is not None else {'keep', 'subset'}):
        raise _fl_refuse(ctx['src'], n, 'duplicated takes keep= (and over the frame subset=[columns])', ctx['names'])
    keep = kw.get('keep', 'first')
    if keep not in ('first', 'last', False):
        raise _fl_refuse(ctx['src'], n, "keep= is 'first', 'last' or False", ctx['names'])
    try:
        if a is not None:
            r = a.v.duplicated(keep=keep)
        else:
            sub = kw.get('subset')
            if sub is not None:
                if not isinstance(sub, list):
                    sub = [sub]
                pos = []
                for label in sub:
                    if not isinstance(label, str):
                        raise _fl_refuse(ctx['src'], n, 'subset= lists column names', ctx['names'])
                    _fl_column(ctx, n, label)  # refuses an unknown or ambiguous name
                    pos.append(next(i for i, c in enumerate(df.columns) if _label(c)[0] == label))
                frame = df.iloc[:, pos]
            else:
                frame = df
            r = frame.duplicated(keep=keep)
    except _ProbeError:
        raise
    except Exception as e:
        _fl_fail(ctx, n, e)
    return _FV('bool', np.asarray(r, dtype=bool))


def _regex_refusal(pattern):
    """Why Python's re could run for ever on pattern (None: it cannot
    backtrack exponentially): a backreference, or a repeated group that
    itself repeats (nested quantifiers)."""
    try:
        import re
        parser = getattr(re, '_parser', None) or __import__('sre_parse')
        tree = parser.parse(pattern)
    except Exception as e:
        return 'the pattern does not compile: %s' % e
    names = ('MAX_REPEAT', 'MIN_REPEAT', 'POSSESSIVE_REPEAT')

    def walk(items, in_repeat):
        for op, av in items:
            name = str(op)
            if name in ('GROUPREF', 'GROUPREF_EXISTS'):
                return 'a backreference'
            if name in names:
                lo, hi, sub = av
                rep = hi is None or hi > 1 or str(hi) == 'MAXREPEAT'
                if rep and in_repeat:
                    return 'a quantifier inside a repeated group (nested quantifiers)'
                why = walk(sub, in_repeat or rep)
                if why:
                    return why
            elif name == 'SUBPATTERN':
                why = walk(av[-1], in_repeat)
                if why:
                    return why
            elif name == 'BRANCH':
                for b in av[1]:
                    why = walk(b, in_repeat)
                    if why:
                        return why
            elif name in ('ASSERT', 'ASSERT_NOT'):
                why = walk(av[1], in_repeat)
                if why:
                    return why
        return None
    try:
        return walk(tree, False)
    except Exception:
        return 'the pattern could not be checked'


def _re2():
    """pyarrow.compute (RE2) when pyarrow is importable, else None: a
    library import, only when a filter asks for a pattern."""
    pc = _mod('pyarrow.compute')
    if pc is not None:
        return pc
    try:
        import importlib
        import importlib.util
        if _mod('pyarrow') is None and importlib.util.find_spec('pyarrow') is None:
            return None
        return importlib.import_module('pyarrow.compute')
    except Exception:
        return None


def _fl_regex(ctx, n, a, args, kw, anchored):
    """str.contains(pattern, regex=True, case=) or str.match(pattern,
    case=) over a column: RE2 through pyarrow.compute when pyarrow is
    importable (linear time; its syntax: no backreferences or
    lookarounds), else Python's re for patterns _regex_refusal passes."""
    np, pd = ctx['np'], ctx['pd']
    what = 'str.match' if anchored else 'str.contains'
    if len(args) != 1 or not isinstance(args[0], str) or set(kw) - ({'case'} if anchored else {'case', 'regex'}):
        raise _fl_refuse(ctx['src'], n, '%s takes one string literal (and case=)' % what, ctx['names'])
    pat, case = args[0], bool(kw.get('case', True))
    s = a.v
    pc = _re2()
    if pc is not None:
        try:
            import pyarrow as pa
            arr = pa.array(s.to_numpy(dtype=object, na_value=None), type=pa.string(), from_pandas=True)
        except Exception:
            arr = None  # not all strings: the guarded re below
        if arr is not None:
            try:
                got = pc.match_substring_regex(arr, pattern=('^(?:%s)' % pat) if anchored else pat, ignore_case=not case)
            except Exception as e:
                raise _fl_refuse(ctx['src'], n, 'the pattern is not one RE2 (a linear-time engine) runs: %s' % _cut(str(e), 160, _Trunc()), ctx['names'])
            r = np.asarray(got.fill_null(False).to_numpy(zero_copy_only=False), dtype=bool)
            return _FV('bool', r, a.null)
    why = _regex_refusal(pat)
    if why:
        err = _fl_refuse(ctx['src'], n, 'the pattern could run for ever in Python\'s re (%s; without pyarrow there is no '
                         'linear-time engine)' % why, ctx['names'])
        raise err
    try:
        target = s.str
        r = target.match(pat, case=case) if anchored else target.contains(pat, case=case, regex=True)
    except Exception as e:
        _fl_fail(ctx, n, e)
    return _FV('bool', _fl_bools(np, r, n, ctx), a.null)
