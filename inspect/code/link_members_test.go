// link_members_test.go: the member resolution the languages share
// (link_members.go), on the same small program written in Python,
// JavaScript and Go: a method inherited from a base, an attribute the base
// declares with its type (self.engine / this.engine / an embedded struct's
// field), and a dotted name through a module to an inherited method.

package code

import (
	"slices"
	"testing"
)

func TestMembersAlongBases(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		"shapes.py": `class Engine:
    def start(self):
        pass


class Base:
    def __init__(self):
        self.engine = Engine()

    def ping(self):
        pass


class Car(Base):
    def drive(self):
        self.engine.start()
        self.ping()
`,
		"main.py": `import shapes


def run(c):
    shapes.Car.ping(c)
`,
		"js/shapes.js": `class Engine {
  start() {}
}

class Base {
  constructor() {
    this.engine = new Engine();
  }
  ping() {}
}

class Car extends Base {
  drive() {
    this.engine.start();
    this.ping();
  }
}

module.exports = { Car };
`,
		"js/main.js": `const shapes = require('./shapes');

function run(c) {
  shapes.Car.ping(c);
}

module.exports = { run };
`,
		"go.mod": "module example.com/shapes\n\ngo 1.22\n",
		"gshapes/shapes.go": `package gshapes

type Engine struct{}

func (e *Engine) Start() {}

type Base struct{ engine *Engine }

func (b *Base) Ping() {}

type Car struct{ Base }

func (c *Car) Drive() {
	c.engine.Start()
	c.Ping()
}
`,
	})
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang, sym string
		out       []string
	}{
		{"python", "shapes.Car.drive", []string{"shapes.Base.ping", "shapes.Engine.start"}},
		{"python", "main.run", []string{"shapes.Base.ping"}},
		{"javascript", "js/shapes.Car.drive", []string{"js/shapes.Base.ping", "js/shapes.Engine.start"}},
		{"javascript", "js/main.run", []string{"js/shapes.Base.ping"}},
		{"go", "gshapes.Car.Drive", []string{"gshapes.Base.Ping", "gshapes.Engine.Start"}},
	} {
		r := inspect(t, ix, Query{Symbol: c.sym, MaxNeighbors: 10})
		var got []string
		for _, o := range r.OutgoingCalls {
			got = append(got, o.Symbol)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.out) {
			t.Errorf("%s %s: outgoing %v, want %v", c.lang, c.sym, got, c.out)
		}
	}
}
