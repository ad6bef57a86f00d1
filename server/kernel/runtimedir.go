// runtimedir.go: where Jupyter writes connection files (its runtime
// directory), per platform, as jupyter_core computes it.

package kernel

import (
	"os"
	"path/filepath"
	"runtime"
)

// RuntimeDir is Jupyter's runtime directory: $JUPYTER_RUNTIME_DIR, else
// $JUPYTER_DATA_DIR/runtime, else the platform's default (Linux:
// $XDG_DATA_HOME/jupyter/runtime or ~/.local/share/jupyter/runtime; macOS:
// ~/Library/Jupyter/runtime; Windows: %APPDATA%\jupyter\runtime).
func RuntimeDir() string {
	home, _ := os.UserHomeDir()
	return runtimeDirFor(runtime.GOOS, os.Getenv, home)
}

func runtimeDirFor(goos string, getenv func(string) string, home string) string {
	if d := getenv("JUPYTER_RUNTIME_DIR"); d != "" {
		return d
	}
	if d := getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "runtime")
	}
	switch goos {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter", "runtime")
	case "windows":
		if a := getenv("APPDATA"); a != "" {
			return filepath.Join(a, "jupyter", "runtime")
		}
		return filepath.Join(home, ".jupyter", "data", "runtime")
	}
	if x := getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter", "runtime")
	}
	return filepath.Join(home, ".local", "share", "jupyter", "runtime")
}
