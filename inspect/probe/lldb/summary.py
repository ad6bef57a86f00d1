# dapscope lldb probe: one-line summaries of named values for the editor's
# views (hover, Watch, Variables): numbers in memory (C arrays, ptr@N,
# std::vector/std::array, Rust Vec, slices and arrays, ndarray arrays:
# ndarray.py) as an ndarray with
# their length, dtype, NaN/inf count, min and max, read like the full
# inspection (one read, sampled beyond array_sample); strings as text,
# other sequences and maps by their length, scalars by value. Nothing
# runs in the program.

_RUST_NUM = {'float64': 'f64', 'float32': 'f32', 'int8': 'i8', 'int16': 'i16', 'int32': 'i32', 'int64': 'i64',
             'uint8': 'u8', 'uint16': 'u16', 'uint32': 'u32', 'uint64': 'u64', 'bool': 'bool'}


def _short_type(name, dtype, is_rust):
    """Vec<f64>, &[f64], [i32; 4], vector<double>, double[100]: the type
    as its language writes it, without module paths and allocators."""
    rust = _RUST_NUM.get(dtype, dtype)
    if is_rust and name.endswith(']') and '[' in name and not name.startswith(('&', '[')):
        return '[%s; %s]' % (rust, name.rsplit('[', 1)[1].rstrip(']'))
    if name.startswith('alloc::vec::Vec<'):
        return 'Vec<%s>' % rust
    if name.startswith(('&[', '&mut [')):
        return '&[%s]' % rust
    if name.startswith('[') and name.endswith(']'):
        return '[%s; %s]' % (rust, name.rsplit(';', 1)[-1].strip(' ]'))
    for pre in ('std::__1::', 'std::'):
        if name.startswith(pre + 'vector<'):
            return 'vector<%s>' % name[len(pre) + 7:].split(',')[0].rstrip('>')
    return name


def _is_rust(frame):
    import lldb
    return frame.GetCompileUnit().GetLanguage() == lldb.eLanguageTypeRust


def _summary(frame, target, process, path):
    (found, _followed, err) = _walk(frame, target, path)
    out = {'name': _path_str(path)}
    if err is not None:
        out['error'] = err['error']['message']
        return out
    v, length = found
    why = _unavailable(v)
    if why:
        out['skipped'] = why
        return out
    v = _strip(v)
    if (v.GetTypeName() or '').startswith(('std::array<', 'std::__1::array<')):
        elems = v.GetNonSyntheticValue().GetChildMemberWithName('_M_elems')
        if elems.IsValid():
            v = elems
    nd = _nd_parts(v) if length is None else None
    if nd is not None and _numeric(nd[1]) is not None:
        return _nd_summary(v, nd, process, out)
    t = _canon(v)
    name = v.GetTypeName() or ''
    kind = _classify(v, t, length)
    out['type'] = name
    if kind in ('span', 'sequence'):
        span = (v.GetValueAsUnsigned(), t.GetPointeeType(), length) if kind == 'span' else _contiguous(v)
        num = _numeric(span[1]) if span is not None else None
        if num is not None:
            addr, et, n = span
            fmt, dtype = num
            out.update({'kind': 'ndarray', 'type': _short_type(name, dtype, _is_rust(frame)), 'shape': [n], 'dtype': dtype,
                        'len': n, 'memory': n * et.GetByteSize()})
            if n and dtype != 'bool':
                st = {}
                data, _sampled = _elements(process, addr, fmt, et.GetByteSize(), n, _LIMITS['array_sample'])
                _stats(data, fmt, dtype, st)
                out['nan'] = st.get('nan_count', 0)
                out['inf'] = st.get('inf_count', 0)
                if 'min' in st:
                    out['min'], out['max'] = st['min'], st['max']
            return out
        out.update({'kind': 'container', 'len': length if kind == 'span' else v.GetNumChildren()})
        return out
    if kind == 'str':
        out.update({'kind': 'text', 'value': _clip(json.dumps(_cell(v, 0, _Trunc()), ensure_ascii=False), _LIMITS['sum_str'])})
        return out
    if kind == 'map':
        out.update({'kind': 'container', 'len': v.GetNonSyntheticValue().GetChildMemberWithName('length').GetValueAsUnsigned()
                    if name.startswith(_BTREE) else v.GetNumChildren()})
        return out
    if kind == 'set':
        out.update({'kind': 'container', 'len': _btree_set(v, 0)[0]})
        return out
    if kind == 'scalar':
        out.update({'kind': 'scalar', 'value': _clip(json.dumps(_cell(v, 0, _Trunc())), _LIMITS['sum_str'])})
        return out
    out['kind'] = 'object'
    return out


def summarize(frame, args):
    process = frame.GetThread().GetProcess()
    target = process.GetTarget()
    items = []
    if not args.get('names'):
        _np()  # the preload at the first stop: numpy's import is paid here, not in the editor's first view
    for path in args.get('names') or []:
        try:
            items.append(_summary(frame, target, process, path))
        except Exception as e:
            items.append({'name': _path_str(path), 'error': '%s: %s' % (type(e).__name__, e)})
    return {'items': items}
