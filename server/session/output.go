// output.go: captured output in bounded buffers: the program's (stdout,
// stderr, console) in order, and each category apart, including the
// adapter's own notices ("debugger"); oldest bytes dropped first,
// truncation flagged, read by absolute offset.

package session

import "sync"

// DefaultOutputLimit is the per-session output buffer (10 MB).
const DefaultOutputLimit = 10 << 20

// OutputPage is one read of the output buffer.
type OutputPage struct {
	Offset     int64  `json:"offset"`      // absolute offset of Data
	NextOffset int64  `json:"next_offset"` // where the next read starts
	Data       string `json:"data"`
	More       bool   `json:"more,omitempty"`      // more data after NextOffset
	Truncated  bool   `json:"truncated,omitempty"` // bytes before Offset were dropped
	Dropped    int64  `json:"dropped,omitempty"`   // total bytes dropped so far
	Total      int64  `json:"total"`               // bytes ever written
	// LostEvents are output events that never reached the buffer: the
	// program printed faster than the session read its adapter's events
	// (LostBytes: about how much output they carried). Stops and the
	// end are never lost.
	LostEvents int64 `json:"lost_events,omitempty"`
	LostBytes  int64 `json:"lost_bytes,omitempty"`
}

type outputBuffer struct {
	mu    sync.Mutex
	limit int
	start int64 // absolute offset of buf[0]
	buf   []byte
}

func newOutputBuffer(limit int) *outputBuffer {
	if limit <= 0 {
		limit = DefaultOutputLimit
	}
	return &outputBuffer{limit: limit}
}

func (o *outputBuffer) write(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(s) >= o.limit {
		o.start += int64(len(o.buf)) + int64(len(s)-o.limit)
		o.buf = append(o.buf[:0], s[len(s)-o.limit:]...)
		return
	}
	if over := len(o.buf) + len(s) - o.limit; over > 0 {
		// Drop a little more than needed so trimming is not per write.
		drop := min(len(o.buf), over+o.limit/16)
		o.buf = append(o.buf[:0], o.buf[drop:]...)
		o.start += int64(drop)
	}
	o.buf = append(o.buf, s...)
}

func (o *outputBuffer) size() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.buf)
}

// read returns up to limit bytes from offset.
func (o *outputBuffer) read(offset int64, limit int) OutputPage {
	o.mu.Lock()
	defer o.mu.Unlock()
	end := o.start + int64(len(o.buf))
	p := OutputPage{Total: end, Dropped: o.start}
	if offset < o.start {
		p.Truncated = offset < o.start
		offset = o.start
	}
	if offset > end {
		offset = end
	}
	if limit <= 0 {
		limit = 64 << 10
	}
	lo := int(offset - o.start)
	hi := min(len(o.buf), lo+limit)
	p.Offset = offset
	p.Data = string(o.buf[lo:hi])
	p.NextOffset = offset + int64(hi-lo)
	p.More = p.NextOffset < end
	return p
}

// categoryBuffers hold each output category apart (a quarter of the
// session's limit each, the adapter's notices 256 KB).
type categoryBuffers struct {
	m map[string]*outputBuffer
}

func newCategoryBuffers(limit int) *categoryBuffers {
	if limit <= 0 {
		limit = DefaultOutputLimit
	}
	return &categoryBuffers{m: map[string]*outputBuffer{
		"stdout": newOutputBuffer(limit / 4), "stderr": newOutputBuffer(limit / 4),
		"console": newOutputBuffer(limit / 4), "debugger": newOutputBuffer(256 << 10),
	}}
}

func (c *categoryBuffers) get(category string) *outputBuffer { return c.m[category] }

func (c *categoryBuffers) write(category, s string) {
	if b := c.m[category]; b != nil {
		b.write(s)
	}
}

func (c *categoryBuffers) size() int {
	n := 0
	for _, b := range c.m {
		n += b.size()
	}
	return n
}
