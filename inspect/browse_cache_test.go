// browse_cache_test.go: the probe's cache of sorted/filtered row orders is
// bounded in memory — past the limit the least recently used orders are
// dropped (and recomputed, correctly, when asked for again), and a new stop
// drops them all. Runs the probe in plain python3 with a small limit.

package inspect

import (
	"os/exec"
	"strings"
	"testing"
)

const cacheScript = `
import json, sys, types
import numpy as np, pandas as pd
m = types.ModuleType('probe')
exec(compile(sys.stdin.read(), 'probe.py', 'exec'), m.__dict__)
m._SEL_LIMIT = 100 * 1024   # room for one order of 10,000 int64 positions (80 KB)
df = pd.DataFrame({'a': np.arange(10000) % 97, 'b': -np.arange(10000), 'c': np.arange(10000) % 13})
def page(col, gen=1):
    args = {'path': [['name', 'df']], 'selection': {'sort': [{'column': col}], 'rows': {'limit': 3}}, 'gen': gen}
    r = json.loads(m.select({'df': df}, {}, json.dumps(args)))
    if 'error' in r:
        raise SystemExit(r['error'])
    want = [int(df.index.get_loc(i)) for i in df.sort_values(col, kind='stable').index[:3]]
    assert r['page']['positions'] == want, (col, r['page']['positions'], want)
    return r['page']['cached']
out = []
for col in ['a', 'a', 'b', 'a', 'c', 'a']:
    out.append('%s:%s' % (col, page(col)))
    assert m._SEL['bytes'] <= m._SEL_LIMIT or len(m._SEL['cache']) == 1, m._SEL['bytes']
out.append('entries:%d' % len(m._SEL['cache']))
out.append('new-stop:%s' % page('a', gen=2))
m._SEL_LIMIT = 1024 * 1024  # room for all three
for col in ['a', 'b', 'c', 'b', 'a']:
    out.append('%s:%s' % (col, page(col, gen=3)))
out.append('entries:%d' % len(m._SEL['cache']))
print(' '.join(out))
`

func TestBrowseCacheBounded(t *testing.T) {
	cmd := exec.Command(python, "-c", cacheScript)
	cmd.Stdin = strings.NewReader(ProbeSource(Python))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// With room for one order, each new sort evicts the previous one (the
	// same sort asked twice in a row is reused); a new stop starts over;
	// with room for all, every order is reused.
	const want = "a:False a:True b:False a:False c:False a:False entries:1 new-stop:False " +
		"a:False b:False c:False b:True a:True entries:3"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
