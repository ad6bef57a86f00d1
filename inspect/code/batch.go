// batch.go: one helper process per batch of files (python's ast, node's
// type stripper): every input goes as one JSON line on its stdin, one JSON
// answer per input comes back on its stdout. Shared by the Python and
// TypeScript front ends.

package code

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// batchRun is how a helper ended: its stderr (capped) and the ways it can
// fail (an unreadable answer, the process's exit, the input pipe).
type batchRun struct {
	stderr                     string
	readErr, waitErr, writeErr error
}

// runBatch starts cmd (made with exec.CommandContext(ctx); cancel cancels
// that ctx), writes inputs and reads len(inputs) answers keyed by path.
// An unreadable answer kills the helper; a cancelled ctx closes stdout so
// the reader never blocks on a pipe a grandchild still holds. A start
// failure is returned as the error; everything else is in batchRun.
func runBatch[I, O any](ctx context.Context, cancel context.CancelFunc, cmd *exec.Cmd, inputs []I, path func(*O) string) (map[string]*O, batchRun, error) {
	var run batchRun
	out := make(map[string]*O, len(inputs))
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, run, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, run, err
	}
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 8192}
	if err := cmd.Start(); err != nil {
		return nil, run, err
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer stdin.Close()
		bw := bufio.NewWriterSize(stdin, 1<<16)
		enc := json.NewEncoder(bw)
		for i := range inputs {
			if err := enc.Encode(&inputs[i]); err != nil {
				run.writeErr = err
				return
			}
		}
		run.writeErr = bw.Flush()
	}()
	done := make(chan struct{})
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
			_ = stdout.Close()
		case <-done:
		}
	}()
	dec := json.NewDecoder(bufio.NewReaderSize(stdout, 1<<16))
	for range inputs {
		o := new(O)
		if err := dec.Decode(o); err != nil {
			run.readErr = err
			break
		}
		if p := path(o); p != "" {
			out[p] = o
		}
	}
	if run.readErr != nil {
		cancel() // kill the helper: unblocks the writer
	}
	close(done) // release the closer goroutine
	wg.Wait()
	run.waitErr = cmd.Wait()
	run.stderr = strings.TrimSpace(stderr.String())
	return out, run, nil
}
