# dapscope lldb probe: the entry point. The sidecar defines the probe once
# per debugger (a module kept in sys.modules) and registers it as an lldb
# command named after the probe's slot; each inspection is that command
# with base64 JSON arguments, run by lldb-dap's evaluate in the REPL
# context in the selected frame. The answer is the command's result (one
# JSON line), never program output.

import base64


def _inspect(v, length, process, opts, res):
    if (v.GetTypeName() or '').startswith(('std::array<', 'std::__1::array<')):
        elems = v.GetNonSyntheticValue().GetChildMemberWithName('_M_elems')
        if elems.IsValid():  # libstdc++'s std::array has no formatter in lldb 19
            v = elems
    nd = _nd_parts(v) if length is None else None
    if nd is not None and _numeric(nd[1]) is not None:
        return _nd_inspect(v, nd, process, opts, res)
    t = _canon(v)
    kind = _classify(v, t, length)
    items = int(opts.get('max_preview_items', 10))
    tr = _Trunc()
    if kind == 'scalar':
        num = _numeric(t)
        val = _cell(v, 0, tr)
        res['detected_type'] = 'bool' if num and num[1] == 'bool' else ('float' if num and num[1].startswith('float') else ('int' if num else 'unknown'))
        res['structure'] = {'value': val}
        if num:
            res['structure']['dtype'] = num[1]
        return
    if kind == 'str':
        s = _unquote(v.GetSummary() or '') or ''
        n = v.GetNumChildren() if (v.GetTypeName() or '').startswith(('alloc::string::String', '&str')) else len(s)
        n = max(n, len(s))
        raw = _rust_raw_text(v, 250) if not s else None
        if raw is not None:
            s, n = raw
        res['detected_type'] = 'str'
        res['structure'] = {'length': n, 'line_count': s.count('\n') + 1}
        text = s if len(s) <= 250 else s[:200] + _ELL + s[-50:]
        res['preview'] = {'text': text}
        if len(s) > 250 or n > len(s):
            res['preview']['is_truncated'] = True
        return
    if kind in ('span', 'sequence'):
        if kind == 'span':
            et = t.GetPointeeType()
            span = (v.GetValueAsUnsigned(), et, length)
        else:
            span = _contiguous(v)
        if span is not None and _numeric(span[1]) is not None:
            return _numbers(v, span, process, opts, res)
        if kind == 'span':
            return _list([v.GetChildAtIndex(i, 0, True) for i in range(min(length, items))], length, res, tr)
        n = v.GetNumChildren()
        return _list([v.GetChildAtIndex(i) for i in range(min(n, items))], n, res, tr)
    if kind == 'set':
        return _set(v, items, res, tr)
    if kind == 'map':
        if (v.GetTypeName() or '').startswith(_BTREE):
            n, pairs = _btree(v, items)
        else:
            n = v.GetNumChildren()
            pairs = [_pair(v.GetChildAtIndex(i)) if _pair(v.GetChildAtIndex(i))[0] is not None else (v.GetChildAtIndex(i), None)
                     for i in range(min(n, items))]
        res['detected_type'] = 'dict'
        res['structure'] = {'length': n}
        out = []
        for k, val in pairs:
            it = {'key': _cell(k, 1, tr), 'value': _cell(val, 1, tr) if val is not None else None}
            if val is not None:
                it['type'] = val.GetTypeName()
            out.append(it)
        if n > items:
            tr.hit = True
        res['preview'] = {'items': out}
        if tr.hit:
            res['preview']['is_truncated'] = True
        if pairs:
            res['structure']['key_type'] = pairs[0][0].GetTypeName()
        return
    if kind in ('option', 'enum'):
        return _variant(v, res, tr)
    if kind == 'pointer':
        res['detected_type'] = 'pointer'
        addr = v.GetValueAsUnsigned()
        res['structure'] = {'address': '0x%x' % addr, 'target_type': t.GetPointeeType().GetName()}
        if addr == 0:
            res['structure']['nil'] = True
        return
    _struct(v, res, tr)


def _numbers(v, span, process, opts, res):
    addr, et, n = span
    fmt, dtype = _numeric(et)
    size = et.GetByteSize()
    res['detected_type'] = 'ndarray'
    res['structure'] = {'shape': [n], 'ndim': 1, 'dtype': dtype, 'size': n, 'nbytes': n * size,
                        'itemsize': size, 'element_type': et.GetName()}
    items = int(opts.get('max_preview_items', 10))
    k = max(1, items // 2)
    if n <= 2 * k:
        head = _decode(fmt, _read(process, addr, n * size)).tolist()
        tail = []
    else:
        head = _decode(fmt, _read(process, addr, k * size)).tolist()
        tail = _decode(fmt, _read(process, addr + (n - k) * size, k * size)).tolist()
    cell = (lambda x: bool(x)) if dtype == 'bool' else ((lambda x: x if x == x and x not in (math.inf, -math.inf) else None) if dtype.startswith('float') else int)
    vals = [cell(x) for x in head] + ([_ELL] + [cell(x) for x in tail] if tail else [])
    res['preview'] = {'values': vals}
    if tail:
        res['preview']['is_truncated'] = True
    if not opts.get('include_statistics', True) or n == 0:
        return
    stats = res['statistics'] = {}
    data, sampled = _elements(process, addr, fmt, size, n, _LIMITS['array_sample'])
    _stats(data, fmt if fmt != '?' else 'B', dtype, stats)
    if sampled:
        k = len(data) // size
        stats['sampled'] = True
        stats['sample_size'] = k
        res['warnings'].append('statistics computed on %d evenly spaced of %d elements' % (k, n))


def _list(children, n, res, tr):
    res['detected_type'] = 'list'
    res['structure'] = {'length': n}
    out = []
    for i, c in enumerate(children):
        out.append({'index': i, 'value': _cell(c, 1, tr), 'type': c.GetTypeName()})
    if n > len(children):
        tr.hit = True
    res['preview'] = {'items': out}
    if tr.hit:
        res['preview']['is_truncated'] = True
    if children:
        res['structure']['element_type'] = children[0].GetTypeName()


def _variant(v, res, tr):
    """Option/Result/std::optional and enums: the active variant by name,
    and its fields."""
    name = v.GetTypeName() or ''
    var = _active_variant(v)
    if var is not None:
        variant, fields = var
    elif name.startswith(('std::optional<', 'std::__1::optional<')):
        n = v.GetNumChildren()
        variant = 'Some' if n else 'None'
        fields = [v.GetChildAtIndex(0)] if n else []
    else:
        variant, fields = (v.GetValue() or '').split('::')[-1], []
    cells = [(f.GetName() or '', _cell(f, 1, tr), f.GetTypeName()) for f in fields]
    text = _variant_text(variant, [(nm, c) for nm, c, _ in cells])
    if variant == 'None' and name.startswith(('core::option::Option<', 'std::optional<', 'std::__1::optional<')):
        res['detected_type'] = 'none'
        res['structure'] = {'value': 'None', 'class': name, 'kind': 'None'}
        return
    res['detected_type'] = 'object'
    res['structure'] = {'class': name, 'kind': variant, 'value': text,
                        'attributes': [{'name': nm, 'type': tn, 'repr': json.dumps(c, ensure_ascii=False)} for nm, c, tn in cells]}


def _struct(v, res, tr):
    res['detected_type'] = 'object'
    name = v.GetTypeName() or ''
    raw = v.GetNonSyntheticValue()
    n = raw.GetNumChildren()
    attrs = []
    for i in range(min(n, 50)):
        c = raw.GetChildAtIndex(i)
        t2 = _Trunc()
        a = {'name': c.GetName() or ('[%d]' % i), 'type': c.GetTypeName(), 'repr': json.dumps(_cell(c, 1, t2), ensure_ascii=False)}
        if t2.hit:
            a['is_truncated'] = True
        attrs.append(a)
    res['structure'] = {'class': name, 'kind': 'struct', 'attributes': attrs, 'attribute_count': n,
                        'fields': [{'name': a['name'], 'dtype': a['type']} for a in attrs]}


def run(frame, args):
    process = frame.GetThread().GetProcess()
    target = process.GetTarget()
    path = args['path']
    opts = args.get('opts') or {}
    (found, followed, err) = _walk(frame, target, path)
    if err is not None:
        return err
    v, length = found
    res = {'name': _path_str(path), 'type': v.GetTypeName(), 'warnings': []}
    if followed:
        res['warnings'].append('followed ' + ', '.join(followed))
    why = _unavailable(v)
    if why:
        res['detected_type'] = 'unknown'
        res['summary'] = '%s: %s' % (v.GetTypeName() or res['name'], why)
        res['warnings'].append(why)
        return res
    try:
        _inspect(_strip(v), length, process, opts, res)
    except MemoryError as e:
        res['warnings'].append(str(e))
    if not res['warnings']:
        del res['warnings']
    return res


def _path_str(path):
    s = ''
    for kind, v in path:
        if kind == 'name':
            s += v
        elif kind == 'attr':
            s += '.' + v
        elif kind == 'len':
            s += '@%d' % v
        else:
            s += '[' + json.dumps(v) + ']'
    return s


def _frame_of(exe_ctx, args):
    """The frame: lldb-dap selects the request's frame before a command;
    the DAP frame id (thread index << 19 | frame index) is the fallback."""
    f = exe_ctx.GetFrame()
    fid = args.get('frame_id') or 0
    if fid:
        th = exe_ctx.GetProcess().GetThreadByIndexID(fid >> 19)
        if th.IsValid():
            g = th.GetFrameAtIndex(fid & ((1 << 19) - 1))
            if g.IsValid():
                return g
    return f


_QUIET = []


def _quiet(result):
    """CodeLLDB tees a command's output into its Debug Console (the
    result's immediate output file); the answer is dapscope's alone, so
    that copy goes to the null device. lldb-dap sets no such file."""
    try:
        if not _QUIET:
            import os
            _QUIET.append(open(os.devnull, 'w'))
        result.SetImmediateOutputFile(_QUIET[0])
    except Exception:
        pass


def command(debugger, line, exe_ctx, result, internal_dict):
    import time
    t0 = time.perf_counter()
    _quiet(result)
    try:
        args = json.loads(base64.b64decode(line.strip()).decode('utf-8'))
        frame = _frame_of(exe_ctx, args)
        if not frame.IsValid():
            out = _fail('NOT_PAUSED', 'no stopped frame')
        else:
            fn = args.get('fn')
            out = summarize(frame, args) if fn == 'summarize' else (select(frame, args) if fn == 'select' else run(frame, args))
    except Exception as e:
        out = _fail('INTERNAL', 'the lldb probe failed: %s: %s' % (type(e).__name__, e))
    if 'error' not in out:
        out['probe_ms'] = round((time.perf_counter() - t0) * 1000, 3)
    text = json.dumps(out, ensure_ascii=True, allow_nan=False, default=str)
    if len(text) > _LIMITS['max_out']:
        text = json.dumps(_fail('LIMIT_EXCEEDED', 'the answer is over %d bytes' % _LIMITS['max_out']))
    result.AppendMessage(text)
