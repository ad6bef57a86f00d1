# dapscope Python probe: torch models. A torch.nn.Module (detected type
# "model") and a state_dict-like mapping of names to tensors ("state_dict")
# are summarised from what they hold, never by running forward or any
# method a user class may override: the module tree, parameters and
# buffers are read from each module's own __dict__ (_modules, _parameters,
# _buffers, training). Parameters shared by several layers count once.
# NaN and inf are checked on each tensor's device, all of a device's
# checks in one transfer.

_MODEL_ROWS = 200  # layers or state_dict entries listed


def _mod_dict(m):
    try:
        d = object.__getattribute__(m, '__dict__')
        return d if type(d) is dict else {}
    except Exception:
        return {}


def _is_tensor(v):
    return _is(v, 'torch', 'Tensor')


def _tensors_facts(named, model, B, res):
    """Counts, bytes, dtypes, devices, frozen and NaN/inf tensors of
    (name, tensor, is_param) triples, into model."""
    torch = _mod('torch')
    seen, checks = set(), {}
    for name, t, is_param in named:
        if id(t) in seen:
            continue
        seen.add(id(t))
        try:
            dt, dev = str(t.dtype).replace('torch.', ''), str(t.device)
            n = int(t.numel())
            nb = 0 if dev == 'meta' else n * int(t.element_size())  # a meta tensor holds no memory
        except Exception:
            continue
        if is_param:
            model['tensors'] += 1
            model['params'] += n
            model['param_bytes'] += nb
            if t.requires_grad:
                model['trainable'] += n
            else:
                model['frozen_count'] += 1
                if len(model['frozen']) < _MAX_ITEMS:
                    model['frozen'].append(name)
            model['dtypes'][dt] = model['dtypes'].get(dt, 0) + n
            model['devices'][dev] = model['devices'].get(dev, 0) + n
        else:
            model['buffers'] += 1
            model['buffer_bytes'] += nb
        if (t.is_floating_point() or t.is_complex()) and n and dev != 'meta' and str(t.layout) == 'torch.strided':
            checks.setdefault(dev, []).append((name, t))
    for dev, items in checks.items():  # one transfer per device
        if not B.ok('nan_inf_parameters'):
            break
        try:
            with torch.no_grad():
                flags = torch.stack([torch.stack((torch.isnan(t).any(), torch.isinf(t).any())) for _, t in items]).tolist()
        except Exception as e:
            res['warnings'].append('NaN/inf check on %s failed: %s' % (dev, _short(type(e))))
            continue
        for (name, _), (nan, inf) in zip(items, flags):
            if nan and len(model['nan']) < _MAX_ITEMS:
                model['nan'].append(name)
            if inf and len(model['inf']) < _MAX_ITEMS:
                model['inf'].append(name)


def _new_model():
    return {'params': 0, 'trainable': 0, 'param_bytes': 0, 'tensors': 0, 'buffers': 0, 'buffer_bytes': 0,
            'dtypes': {}, 'devices': {}, 'frozen': [], 'frozen_count': 0, 'nan': [], 'inf': []}


def _clean_model(model):
    for k in ('frozen', 'nan', 'inf', 'dtypes', 'devices'):
        if not model[k]:
            model.pop(k)
    for k in ('buffers', 'buffer_bytes', 'frozen_count'):
        if not model[k]:
            model.pop(k)
    return model


def _module_walk(root):
    """(path, module, depth) of the module tree in order, each module once."""
    out, seen, stack = [], set(), [('', root, 0)]
    while stack:
        path, m, depth = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        out.append((path, m, depth))
        kids = _mod_dict(m).get('_modules') or {}
        for name, c in reversed(list(kids.items())):
            if c is not None:
                stack.append(((path + '.' if path else '') + str(name), c, depth + 1))
    return out


def _inspect_model(m, opts, B, res):
    tree = _module_walk(m)
    model = _new_model()
    root_training = bool(_mod_dict(m).get('training', True))
    model['training'] = root_training
    named, layers = [], []
    for path, mod, depth in tree:
        d = _mod_dict(mod)
        own = [(k, v) for k, v in (d.get('_parameters') or {}).items() if v is not None]
        bufs = [(k, v) for k, v in (d.get('_buffers') or {}).items() if v is not None]
        pre = path + '.' if path else ''
        named += [(pre + k, v, True) for k, v in own] + [(pre + k, v, False) for k, v in bufs]
        if bool(d.get('training', root_training)) != root_training:
            model['training_mixed'] = True
        if len(layers) < _MODEL_ROWS:
            e = {'path': path, 'type': _short(type(mod)), 'depth': depth}
            k = sum(int(v.numel()) for _, v in own if _is_tensor(v))
            if k:
                e['params'] = k
            shapes = dict((n, [int(x) for x in v.shape]) for n, v in own + bufs if _is_tensor(v))
            if shapes:
                e['shapes'] = shapes
            if bool(d.get('training', root_training)) != root_training:
                e['training'] = bool(d.get('training'))
            layers.append(e)
    _tensors_facts(named, model, B, res)
    model['layers'] = layers
    model['layer_count'] = len(tree)
    if len(tree) > _MODEL_ROWS:
        res['warnings'].append('%d modules: the first %d are listed' % (len(tree), _MODEL_ROWS))
    res['structure'] = {'model': _clean_model(model)}


def _is_state_dict(obj):
    """A mapping of names to tensors (a state_dict, an optimizer-free
    checkpoint): a dict whose values are all tensors (the first 1,000)."""
    if not isinstance(obj, dict) or not obj or _mod('torch') is None:
        return False
    for i, (k, v) in enumerate(obj.items()):
        if i >= _TYPE_SAMPLE:
            break
        if not isinstance(k, str) or not _is_tensor(v):
            return False
    return True


def _inspect_state_dict(sd, opts, B, res):
    model = _new_model()
    entries = []
    for name, t in sd.items():
        if len(entries) < _MODEL_ROWS:
            entries.append({'name': _cut(name, _MAX_STR, _Trunc()), 'shape': [int(x) for x in t.shape],
                            'dtype': str(t.dtype).replace('torch.', ''), 'device': str(t.device)})
    _tensors_facts([(k, v, True) for k, v in sd.items() if _is_tensor(v)], model, B, res)
    model['frozen'], model['frozen_count'] = [], 0  # a saved state_dict's tensors are detached: not "frozen"
    model['entries'] = entries
    model['entry_count'] = len(sd)
    res['structure'] = {'length': len(sd), 'model': _clean_model(model)}


def _model_sum(obj, out):
    """A one-line summary's facts of a module or a state_dict: parameter
    elements (trainable), memory, dtypes, devices, mode; no NaN check (a
    summary reads no tensor data)."""
    model = _new_model()
    if _is(obj, 'torch.nn', 'Module'):
        tree = _module_walk(obj)
        named = []
        for path, mod, _ in tree:
            d = _mod_dict(mod)
            named += [(path, v, True) for v in (d.get('_parameters') or {}).values() if v is not None]
            named += [(path, v, False) for v in (d.get('_buffers') or {}).values() if v is not None]
        out['layers'] = len(tree)
        out['training'] = bool(_mod_dict(obj).get('training', True))
    else:
        named = [(k, v, True) for k, v in obj.items() if _is_tensor(v)]
    B = _Budget(0)  # no NaN/inf check
    _tensors_facts(named, model, B, {'warnings': []})
    out['params'], out['trainable'] = model['params'], model['trainable']
    out['memory'] = model['param_bytes'] + model['buffer_bytes']
    out['dtype'] = ', '.join(sorted(model['dtypes'], key=lambda k: -model['dtypes'][k]))
    out['device'] = ', '.join(sorted(model['devices'], key=lambda k: -model['devices'][k]))
