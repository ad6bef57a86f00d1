// This file exports test helpers of package inspect to the external test
// package (inspect_test), which holds the tests that need server/session,
// and holds TestMain (goroutine-leak check after every test and benchmark).

package inspect

import (
	"os"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/nativetest"
	"go.uber.org/goleak"
)

type InspectCase = inspectCase

func (c InspectCase) Name() string          { return c.name }
func (c InspectCase) Expr() string          { return c.expr }
func (c InspectCase) Opts() Options         { return c.opts }
func (c InspectCase) ErrCode() errcode.Code { return c.errCode }
func (c InspectCase) Only() string          { return c.only }

var (
	InspectCases = inspectCases
	RunCases     = runCases
	RunCaseList  = runCaseList
	LibCases     = libCases
	Normalize    = normalize
	CheckGolden  = checkGolden
	Contains     = contains
	ProbeModule  = pythonProbe.slot
)

// AfterTests run after all tests and benchmarks, before the leak check
// (shared debug sessions are closed there).
var AfterTests []func()

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range AfterTests {
		f()
	}
	nativetest.Cleanup() // the native programs built (codelldb_test.go)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			os.Stderr.WriteString("goleak: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
