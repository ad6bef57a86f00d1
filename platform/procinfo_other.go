//go:build unix && !linux && !darwin

// procinfo_other.go: other Unix systems are not supported targets; a pid's
// start time is unknown there, so no debuggee is tracked (see procinfo.go).

package platform

func processStart(int) (string, bool) { return "", false }
