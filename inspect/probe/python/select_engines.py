# dapscope Python probe: pages of engine tables (polars, pyarrow, DuckDB,
# Spark, Dask) computed by the engine itself; the page has select.py's
# shape (kind, total_rows, all_rows, positions, columns, rows…), so every
# surface browses an engine's table as it browses a DataFrame. An engine's
# page function returns {names, dtypes, rows, positions, total, all_rows,
# na, cached}; orders it computed are kept in select.py's cache. An engine
# whose count is a job of its own (Spark; Dask's filter) returns total (and
# all_rows) None unless the selection asks for the count, and says why in
# pending: the page comes first, its totals on request.


def _eng_cache_key(obj, sel):
    return (id(obj), 'engine', json.dumps([sel.get('filter'), sel.get('sort')], sort_keys=True, default=str))


def _eng_cache_get(obj, sel):
    key = _eng_cache_key(obj, sel)
    hit = _SEL['cache'].get(key)
    if hit is None:
        return None
    if not _sel_same(hit, obj, _eng_version(obj)):
        _SEL['bytes'] -= _SEL['cache'].pop(key)['order'].nbytes
        return None
    _SEL['tick'] += 1
    hit['tick'] = _SEL['tick']
    return hit


class _EngOrder(object):
    """An order kept in the engine's own array (a polars Series, a
    pyarrow Array: no numpy needed), sliced per page."""
    __slots__ = ('a', 'nbytes')

    def __init__(self, a, nbytes):
        self.a, self.nbytes = a, int(nbytes)

    def __len__(self):
        return len(self.a)

    def page(self, off, lim):
        return self.a.slice(off, max(0, min(lim, len(self.a) - off))) if off < len(self.a) else self.a.slice(0, 0)


def _eng_cache_put(obj, sel, order, na):
    """order: an _EngOrder."""
    key = _eng_cache_key(obj, sel)
    _SEL['tick'] += 1
    hit = _SEL['cache'][key] = {'order': order, 'total': len(order), 'full': True, 'na': int(na),
                                'tick': _SEL['tick'], 'ref': _sel_hold(obj), 'version': _eng_version(obj)}
    _SEL['bytes'] += order.nbytes
    while _SEL['bytes'] > _SEL_LIMIT and len(_SEL['cache']) > 1:
        old = min((k for k in _SEL['cache'] if k != key), key=lambda k: _SEL['cache'][k]['tick'])
        _SEL['bytes'] -= _SEL['cache'].pop(old)['order'].nbytes
    return hit


def _eng_version(obj):
    """A fingerprint of an engine value: its type, its shape where free,
    and its column names."""
    v = [id(type(obj))]
    if _is(obj, 'duckdb', 'DuckDBPyRelation'):  # its shape runs a count: names and types
        return tuple(v + [tuple(obj.columns), tuple(str(t) for t in obj.types)])
    for a in ('shape', 'columns'):
        try:
            x = getattr(obj, a)
            v.append(tuple(x) if isinstance(x, (list, tuple)) else x)
        except Exception:
            pass
    return tuple(v)


_ENGINE_PAGE = {}


def _engine_select(obj, kind, sel, args, B, path, t0):
    rows = sel.get('rows') or {}
    off = max(0, int(rows.get('offset', 0)))
    lim = min(_MAX_PAGE, max(0, int(rows.get('limit', 100))))
    f = _ENGINE_PAGE.get(kind)
    if f is None:
        raise _ProbeError('INVALID_ARGUMENT', 'a %s cannot be browsed by rows' % _short(type(obj)))
    try:
        p = f(obj, kind, sel, off, lim, B)
        _eng_counts(obj, sel, p)
    except _ProbeError:
        raise
    except Exception as e:
        if sel.get('filter') and B.ok('selection'):
            raise _ProbeError('INVALID_EXPRESSION', 'filter failed: %s: %s' % (_short(type(e)), _cut(str(e), 300, _Trunc())), _FL_HINT)
        raise
    tr = _Trunc()
    total, all_rows = _eng_totals(p, sel, off, lim)
    page = {
        'kind': _ENGINE_DETECTED[kind] if _ENGINE_DETECTED[kind] != 'ndarray' else 'ndarray',
        'total_rows': total, 'all_rows': all_rows, 'offset': off, 'limit': lim,
        'positions': [int(x) for x in p['positions']],
        'columns': [{'name': n, 'dtype': d} for n, d in zip(p['names'], p['dtypes'])],
        'column_count': int(p.get('column_count', len(p['names']))),
        'cached': bool(p.get('cached')),
    }
    if sel.get('filter'):
        page['filter'] = sel['filter']
        if p.get('na'):
            page['filter_na_rows'] = int(p['na'])
    if sel.get('sort'):
        page['sort'] = sel['sort']
    if p.get('computed'):
        page['computed'] = p['computed']
    for k in ('total_rows', 'all_rows'):
        if page[k] is None:
            del page[k]
    if p.get('pending') or total is None or all_rows is None:  # not counted (a total the page proved may be there)
        page['total_pending'] = p.get('pending') or 'counted on request'
    cols = p['cols'] if 'cols' in p else (list(zip(*p['rows'])) if p['rows'] else [])
    texts = [_eng_json_col(v, tr) for v in cols]
    n = len(page['positions'])
    rows = '[' + ','.join('[' + ','.join(r) + ']' for r in zip(*texts)) + ']' if texts else '[' + ','.join(['[]'] * n) + ']'
    res = {'name': _path_str(path), 'type': _tname(type(obj))}
    if tr.hit:
        res['warnings'] = ['some cells were shortened']
    if not B.ok('selection'):
        res['partial'] = True
        res['timed_out'] = B.timed_out
    res['probe_ms'] = round((time.perf_counter() - t0) * 1000, 3)
    res['page'] = page
    page['rows'] = None  # last key of the last key: spliced in below, as select.py does
    text = json.dumps(res, ensure_ascii=False, allow_nan=False, default=str, separators=(',', ':'))
    return text[:-len('null}}')] + rows + '}}'


def _eng_counts(obj, sel, p):
    """A selection's counts asked for (count: true), kept for the stop: a
    later page of it, counted on request, carries them without a job."""
    key = (id(obj), sel.get('filter') or '')
    if sel.get('count'):
        if p.get('total') is not None and p.get('all_rows') is not None:
            _SEL['counts'][key] = {'ref': _sel_hold(obj), 'version': _eng_version(obj), 'c': (p['total'], p['all_rows'], p.get('na') or 0)}
        return
    hit = _SEL['counts'].get(key) if p.get('pending') else None
    if hit is not None and _sel_same(hit, obj, _eng_version(obj)):
        p['total'], p['all_rows'], p['na'] = hit['c']
        p['pending'] = None


def _eng_totals(p, sel, off, lim):
    """The page's totals (None: not counted, the engine answered its page
    first); a page that ends before its limit tells the filtered total,
    and without a filter that is every row."""
    total, all_rows = p.get('total'), p.get('all_rows')
    n = len(p['positions'])
    if total is None and n < lim and (n or not off):
        total = off + n
    if all_rows is None and total is not None and not sel.get('filter'):
        all_rows = total
    return (None if total is None else int(total)), (None if all_rows is None else int(all_rows))


def _eng_json_col(vals, tr):
    """A column's cells as JSON texts, each equal to json.dumps of what
    _cell gives (the common cells written directly: floats as _page_json
    writes them, ints, short strings, nulls)."""
    dumps, enc = json.dumps, json.encoder.encode_basestring
    full = getattr(_PREC, 'full', False)
    d = getattr(_PREC, 'cell', _CELL)
    big, fmt = (-1.0 if full else 10.0 ** (d - 1)), '%%.%dg' % d
    out = []
    add = out.append
    for x in vals:
        t = type(x)
        if t is float and -big < x < big:
            s = fmt % x
            add(s if '.' in s or 'e' in s or 'n' in s else s + '.0')
        elif t is float and big > 0 and -1e13 < x < 1e13:  # _num keeps the integer part: as many digits, and one more
            s = '%.*g' % (int(math.log10(abs(x))) + 2, x)
            add(s if '.' in s else s + '.0')
        elif t is int and -9223372036854775808 <= x < 18446744073709551616:
            add(str(x))
        elif t is str and len(x) <= _MAX_STR:
            add(enc(x))
        elif x is None:
            add('null')
        else:
            add(dumps(_cell(x, 1, tr), ensure_ascii=False, allow_nan=False, default=str))
    return out
