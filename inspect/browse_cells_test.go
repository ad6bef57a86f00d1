// browse_cells_test.go: the probe's page cells written as JSON text
// (_page_json) are byte for byte what json.dumps writes for the cells the
// probe made before (_page_cells), on every kind of column, in both
// precisions. Runs the probe in a plain /usr/bin/python3.

package inspect

import (
	"os/exec"
	"strings"
	"testing"
)

const pageCellsCheck = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe'); exec(compile(sys.stdin.read(), 'probe', 'exec'), m.__dict__)
cols = {
    'floats': np.array([0.0, -0.0, 5.0, 1.5, 0.1, 1/3, -2/3, 1e-7, 1.5e-5, 0.0001, 99999.49, 100000.5, 123456789.123, 1e300, -1e-300, np.nan, np.inf, -np.inf]),
    'float32': np.linspace(-1, 1, 7, dtype=np.float32),
    'ints': np.array([0, -1, 2**62, -2**63], dtype=np.int64),
    'uints': np.array([0, 2**64 - 1], dtype=np.uint64),
    'bools': np.array([True, False]),
    'objects': np.array(['plain', 'a "quoted" \\ back', 'é ☃ \n\t', None, 3, 2.5, float('nan'), {'k': [1, 2]}, b'bytes', 'x' * 5000], dtype=object),
    'dates': pd.date_range('2024-01-01', periods=3, freq='h', tz='Europe/Paris').array,
    'nullable': pd.array([1, None, 3], dtype='Int64'),
    'categorical': pd.Categorical(['x', None, 'y']),
}
bad = 0
for full in (False, True):
    m._set_precision(full, 6)
    for name, v in cols.items():
        want = [json.dumps(c, ensure_ascii=False, allow_nan=False, default=str) for c in m._page_cells(np, v, m._Trunc())]
        got = m._page_json(np, v, m._Trunc())
        for w, g in zip(want, got):
            if w != g:
                bad += 1
                print('precision full=%s column %s: %r, before %r' % (full, name, g, w))
        if len(want) != len(got):
            bad += 1
            print('column %s: %d cells, before %d' % (name, len(got), len(want)))
print('checked' if not bad else 'differs')
`

func TestPageCellsAsJSONText(t *testing.T) {
	cmd := exec.Command("/usr/bin/python3", "-c", pageCellsCheck)
	cmd.Stdin = strings.NewReader(probeSource)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "checked" {
		t.Fatalf("%v\n%s", err, out)
	}
}
