// tensor_test.go: the probe's device path for torch tensors (torch.py:
// statistics as the tensor's own reductions, one transfer to the host) on
// CPU tensors, checked against the numpy path (numpy.py) on the same data,
// fact for fact: every dtype numpy also has, NaN and infinities, all-NaN,
// empty, non-contiguous, sampled (over _EXACT_LIMIT elements, strided),
// booleans, complex; and bf16 against its exact float32 copy. The CUDA and
// MPS lines of torch.py are the same code on another device and run only
// on a GPU machine (make test-probe-bin).

package inspect

import (
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
)

const tensorVsNumpyCheck = `
import json, sys, types
import numpy as np, torch
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
rng = np.random.default_rng(7)
f = rng.standard_normal(50000).astype(np.float32)
f[::17] = np.nan
f[5] = np.inf
f[9] = -np.inf
big = rng.standard_normal((3100, 3300)).astype(np.float32)  # 10.2M: sampled
cases = {
    'float32 NaN inf': torch.from_numpy(f),
    'float64 2-D': torch.from_numpy(rng.normal(3, 2, (300, 40))),
    'float16': torch.from_numpy(rng.standard_normal(30000).astype(np.float16)),
    'int64': torch.from_numpy(rng.integers(-2**40, 2**40, 25000)),
    'int32 small': torch.tensor([3, 1, 2, 2, 0], dtype=torch.int32),
    'uint8': torch.from_numpy(rng.integers(0, 255, 4000).astype(np.uint8)),
    'bool': torch.from_numpy(rng.random(1000) > 0.3),
    'all NaN': torch.full((40,), float('nan')),
    'one value': torch.full((25001,), 2.5),
    'empty': torch.zeros((0, 3)),
    'transposed': torch.from_numpy(rng.standard_normal((70, 400))).t(),
    'strided 3-D': torch.from_numpy(rng.standard_normal((20, 30, 40)))[:, ::3, 1::2],
    'sampled': torch.from_numpy(big),
    'sampled transposed': torch.from_numpy(big).t(),
    'complex64': torch.from_numpy((rng.standard_normal(100) + 1j * rng.standard_normal(100)).astype(np.complex64)),
    'scalar': torch.tensor(3.25),
}
opts = {'max_preview_items': 10, 'include_statistics': True, 'timeout': 30}
bad = 0
def facts(obj, kind):
    res = {'warnings': []}
    B = m._Budget(30)
    m._set_precision(False, m._TABLE_CELL)
    (m._inspect_tensor if kind == 'tensor' else m._inspect_ndarray)(obj, opts, B, res)
    return res.get('statistics'), res.get('preview'), res['warnings']
for name, t in cases.items():
    got = facts(t, 'tensor')
    want = facts(t.numpy(), 'ndarray')
    if name == 'complex64':  # numpy and torch accumulate complex64 means differently
        got[0].pop('mean'); want[0].pop('mean')
    if got != want:
        bad += 1
        print(name, '\n torch:', json.dumps(got)[:600], '\n numpy:', json.dumps(want)[:600])
bf = torch.from_numpy(rng.standard_normal(5000).astype(np.float32)).to(torch.bfloat16)
low = {'bfloat16': bf, 'float16 2-D': torch.from_numpy(rng.standard_normal((60, 70)).astype(np.float16))}
for fp8 in ('float8_e4m3fn', 'float8_e5m2'):  # torch 2.1+
    if hasattr(torch, fp8):
        low[fp8] = torch.from_numpy(rng.standard_normal(3000).astype(np.float32)).to(getattr(torch, fp8))
for name, t in low.items():
    got, want = facts(t, 'tensor'), facts(t.float().numpy(), 'ndarray')
    if got != want:
        bad += 1
        print(name, got, want)
# The same code on a GPU (CUDA; MPS on macOS): every tensor gives what it
# gives on the CPU, statistics computed there, the device's memory reported.
devices = []
if torch.cuda.is_available():
    devices.append('cuda')
if getattr(getattr(torch.backends, 'mps', None), 'is_available', lambda: False)():
    devices.append('mps')
for dev in devices:
    for name, t in list(cases.items()) + list(low.items()):
        if dev == 'mps' and t.dtype in (torch.float64, torch.complex128):
            continue  # MPS has no float64
        d = t.to(dev)
        got, want = facts(d, 'tensor'), facts(t, 'tensor')
        if name == 'complex64' and got[0] and want[0]:
            got[0].pop('mean', None); want[0].pop('mean', None)
        if got != want:
            bad += 1
            print(dev, name, '\n device:', json.dumps(got)[:400], '\n cpu:', json.dumps(want)[:400])
    res = {'warnings': []}
    m._inspect_tensor(cases['float32 NaN inf'].to(dev), opts, m._Budget(30), res)
    if 'device_memory' not in res['structure'] or res['structure']['device_memory']['allocated'] <= 0:
        bad += 1
        print(dev, 'no device memory:', res['structure'])
print('torch %s, devices %s' % (torch.__version__, ['cpu'] + devices))
print('checked' if not bad else 'differs')
`

func TestTensorStatsMatchNumpy(t *testing.T) {
	testpython.Require(t, "torch")
	runProbeCheck(t, tensorVsNumpyCheck)
}
