// bench_test.go: throughput and allocations through the multiplexer with an
// in-memory adapter, side by side with the same traffic sent directly.

package mux

import (
	"encoding/json"
	"net"
	"testing"

	"github.com/dapscope/dapscope/server/dap"
)

// echoAdapter answers every request on c with a small response until EOF.
func echoAdapter(c net.Conn) {
	r, w := dap.NewReader(c), dap.NewWriter(c)
	seq := 0
	for {
		b, err := r.ReadFrame()
		if err != nil {
			return
		}
		env, err := dap.Peek(b)
		if err != nil || env.Type != "request" {
			continue
		}
		seq++
		resp, _ := json.Marshal(dap.Response{Seq: seq, Type: "response", RequestSeq: env.Seq, Command: env.Command, Success: true, Body: json.RawMessage(`{"result":"42","variablesReference":0}`)})
		_ = w.WriteFrame(resp)
	}
}

// pump sends n evaluate requests on c and reads n responses (pipelined).
func pump(b *testing.B, c net.Conn, n int) {
	w, r := dap.NewWriter(c), dap.NewReader(c)
	errc := make(chan error, 1)
	go func() {
		for i := 1; i <= n; i++ {
			req := []byte(`{"seq":` + itoa(i) + `,"type":"request","command":"evaluate","arguments":{"expression":"x","frameId":2,"context":"watch"}}`)
			if err := w.WriteFrame(req); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for i := 0; i < n; i++ {
		if _, err := r.ReadFrame(); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// BenchmarkPassThrough: one op = one request and its response (2 messages).
func BenchmarkPassThrough(b *testing.B) {
	b.Run("mode=direct", func(b *testing.B) {
		ed, ad := net.Pipe()
		go echoAdapter(ad)
		b.ReportAllocs()
		b.ResetTimer()
		pump(b, ed, b.N)
		b.StopTimer()
		b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "msgs/s")
		ed.Close()
	})
	b.Run("mode=proxied", func(b *testing.B) {
		up, ad := net.Pipe()
		go echoAdapter(ad)
		m := New(up, Options{})
		go func() { _ = m.Run() }()
		edSide, muxSide := net.Pipe()
		done := make(chan struct{})
		go func() { _ = m.ServeEditor(b.Context(), muxSide); close(done) }()
		b.ReportAllocs()
		b.ResetTimer()
		pump(b, edSide, b.N)
		b.StopTimer()
		b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "msgs/s")
		edSide.Close()
		<-done
		ad.Close()
		<-m.Done()
	})
}

// BenchmarkInternalCall: sequential internal requests (Call decodes the body).
func BenchmarkInternalCall(b *testing.B) {
	up, ad := net.Pipe()
	go echoAdapter(ad)
	m := New(up, Options{})
	go func() { _ = m.Run() }()
	m.mu.Lock()
	m.state.Status = StatusStopped
	m.mu.Unlock()
	args := map[string]any{"expression": "x", "frameId": 2}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out struct {
			Result string `json:"result"`
		}
		if err := m.Call(b.Context(), "evaluate", args, &out); err != nil || out.Result != "42" {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "msgs/s")
	ad.Close()
	<-m.Done()
}
