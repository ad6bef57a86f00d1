// Package safefile is the one way the sidecar reads a file that a user, a
// repository or a debuggee names (a source map, a source, a breakpoint's
// file, a document): only a regular file is read (a FIFO would block for
// ever, /dev/zero never ends), and it is bounded by the bytes actually
// read, never by what Stat says (a device, a file in /proc or on a FUSE
// mount says size 0 and goes on).
//
// Open checks the path is a regular file (Stat, so a link to one is
// fine), opens it with O_NONBLOCK (a FIFO swapped in between cannot block
// the open) and checks the opened descriptor again; Read and Head then read
// through an io.LimitReader.
package safefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/dapscope/dapscope/errcode"
)

// Open opens the regular file at path for reading. Anything else (a
// directory, a FIFO, a device, a socket) is refused with an INVALID_PATH
// error that names the path, never its contents.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	// O_NONBLOCK: opening a FIFO for reading blocks until a writer comes;
	// a regular file ignores the flag.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		if err != nil {
			return nil, err
		}
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

// Read reads the whole regular file at path; one larger than limit bytes
// is refused with a LIMIT_EXCEEDED error.
func Read(path string, limit int64) ([]byte, error) {
	b, more, err := Head(path, limit)
	if err != nil {
		return nil, err
	}
	if more {
		return nil, TooLarge(path, limit)
	}
	return b, nil
}

// Head reads at most limit bytes of the regular file at path; more says
// the file goes on past them.
func Head(path string, limit int64) (b []byte, more bool, err error) {
	f, err := Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	return ReadAtMost(f, limit)
}

// ReadAtMost reads at most limit bytes of r; more says r goes on.
func ReadAtMost(r io.Reader, limit int64) (b []byte, more bool, err error) {
	b, err = io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, false, err
	}
	if int64(len(b)) > limit {
		return b[:limit], true, nil
	}
	return b, false, nil
}

// CountLines counts the lines of the regular file at path (a last line
// without a newline counts), reading at most limit bytes.
func CountLines(path string, limit int64) (int, error) {
	f, err := Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	var n, read int64
	last := byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			if read += int64(k); read > limit {
				return 0, TooLarge(path, limit)
			}
			n += int64(bytes.Count(buf[:k], []byte{'\n'}))
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if last != '\n' {
		n++
	}
	return int(n), nil
}

// TooLarge is the error of a file over limit bytes.
func TooLarge(path string, limit int64) error {
	return errcode.New(errcode.LimitExceeded, "%s is larger than %s", path, Size(limit))
}

// Size spells a limit in bytes (8 MiB, 512 KiB, 100 bytes).
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func notRegular(path string, m os.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case m&os.ModeDevice != 0 || m&os.ModeCharDevice != 0:
		what = "a device"
	case m&os.ModeSocket != 0:
		what = "a socket"
	}
	return errcode.New(errcode.InvalidPath, "%s is %s, not a regular file: it is not read", path, what)
}
