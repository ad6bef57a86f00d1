# gpu_demo.py PROBE: the Python probe (as the sidecar sends it; make
# test-probe-bin writes it to build/probe-bin/probe.py) on CUDA values in
# this Python (CPU where there is no GPU), timed beside the plain
# alternatives; prints what an inspection reports. No debugger: the
# probe's entry points called as the debuggee would run them. On the GPU
# machine: cd build/probe-bin && /opt/torch/.venv/bin/python3
# testdata/python/gpu_demo.py probe.py
import json, sys, time, types
import numpy as np, pandas as pd, torch
m = types.ModuleType('probe'); exec(compile(open(sys.argv[1]).read(), 'probe', 'exec'), m.__dict__)
print('torch', torch.__version__, 'pandas', pd.__version__, 'numpy', np.__version__,
      'device', torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none')
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator(device=dev).manual_seed(0)
t100m = torch.randn(100_000_000, device=dev, generator=g)
t100m[::97] = float('nan'); t100m[5] = float('inf')
G = {
    't100m': t100m,
    'bf16': torch.randn(4096, 4096, device=dev, generator=g).to(torch.bfloat16),
    'i64': torch.randint(-1000, 1000, (10_000_000,), device=dev, generator=g),
    'cplx': torch.randn(100_000, device=dev, generator=g, dtype=torch.complex64),
    'model': torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.LayerNorm(4096),
                                 torch.nn.Linear(4096, 10)).to(dev).eval(),
    'df': pd.DataFrame({'qty': pd.array([1, 7, None, 9, 12, 3] * 50_000, dtype='Int64'),
                        'price': np.tile([9.5, 14.0, 20.0, 3.0, 11.0, 16.0], 50_000),
                        'city': pd.Series(['Nice', 'Lyon', None, 'Nice', 'Paris', 'Brest'] * 50_000, dtype='string')}),
}
G['model'][0].weight.requires_grad_(False)
if hasattr(torch, 'float8_e4m3fn'):
    G['fp8'] = torch.randn(1_000_000, device=dev, generator=g).to(torch.float8_e4m3fn)
with torch.no_grad():
    G['model'][3].bias[2] = float('nan')
OPTS = {'deep_memory': False, 'include_statistics': True, 'max_preview_items': 10, 'max_preview_rows': 5, 'precision': '', 'timeout': 2}

def sync():
    if dev == 'cuda':
        torch.cuda.synchronize()

def timed(f, n=5):
    f()  # warm
    ts = []
    for _ in range(n):
        t0 = time.perf_counter(); r = f(); sync(); ts.append((time.perf_counter() - t0) * 1e3)
    return r, sorted(ts)

for name in [n for n in ['t100m', 'bf16', 'fp8', 'i64', 'cplx', 'model', 'df'] if n in G]:
    args = json.dumps({'path': [['name', name]], 'opts': OPTS})
    out, ts = timed(lambda: m.run({}, G, args))
    r = json.loads(out)
    if 'error' in r:
        print('\n==', name, 'ERROR', r['error']); continue
    print('\n== %s: inspect %.1f–%.1f ms (median %.1f), %d B' % (name, ts[0], ts[-1], ts[len(ts) // 2], len(out)))
    print('kind:', r.get('detected_type'), '| keys:', sorted(r))
    print('partial:', r.get('partial', False), 'warnings:', r.get('warnings'))
    st = r.get('statistics')
    if isinstance(st, dict):
        print('statistics:', json.dumps({k: v for k, v in st.items() if k != 'histogram'})[:700])
    s = r.get('structure') or {}
    print('structure:', json.dumps(s)[:900])

# The plain alternatives on the biggest tensor, same process.
t = G['t100m']
_, ts = timed(lambda: [float(t.nan_to_num(0).min()), float(t.nan_to_num(0).max()), float(t.nanmean()),
                       float(t[~t.isnan()].std()), int(t.isnan().sum())])
print('\nplain reductions (min, max, mean, std, NaN; one sync each) on t100m: %.1f–%.1f ms' % (ts[0], ts[-1]))
_, ts = timed(lambda: t.cpu(), n=3)
print('copy t100m to the host (.cpu()): %.1f–%.1f ms' % (ts[0], ts[-1]))
_, ts = timed(sync)
print('one synchronize: %.3f–%.3f ms' % (ts[0], ts[-1]))

# A filter over a nullable column (pandas 3): NA is no match.
sel = {'path': [['name', 'df']], 'opts': OPTS, 'gen': 1,
       'selection': {'filter': 'qty > 5 and price < 15', 'rows': {'offset': 0, 'limit': 3}, 'sort': [{'column': 'price', 'descending': True}]}}
out, ts = timed(lambda: m.select({}, G, json.dumps(sel)))
r = json.loads(out)
print('\n== df filter "qty > 5 and price < 15", sort -price: %.1f–%.1f ms' % (ts[0], ts[-1]))
print(json.dumps(r)[:900])
