// This file exports the text-golden helper to the external test package
// (inspect_test), for the JavaScript goldens of node_test.go.

package inspect

var CheckTextGolden = checkTextGolden
var JSProbeKey = jsProbe.slot
