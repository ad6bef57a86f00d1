package inspect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// histogramTwoPass is the decode Histogram.UnmarshalJSON replaced (a
// shadow struct through json.Unmarshal: the bytes scanned twice more), kept
// as the reference the one-pass decoder must agree with and be faster than.
func histogramTwoPass(h *Histogram, b []byte) error {
	var raw struct {
		Start      *float64  `json:"start"`
		Width      *float64  `json:"width"`
		Edges      []float64 `json:"edges"`
		Counts     []int64   `json:"counts"`
		TailsExact bool      `json:"tails_exact"`
		Tails      string    `json:"tails"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*h = Histogram{Counts: raw.Counts, TailsExact: raw.TailsExact, Tails: raw.Tails}
	switch {
	case raw.Start != nil:
		h.Start = *raw.Start
		if raw.Width != nil {
			h.Width = *raw.Width
		}
	case len(raw.Edges) >= 2:
		n := len(raw.Edges) - 1
		h.Start = raw.Edges[0]
		h.Width, _ = strconv.ParseFloat(strconv.FormatFloat((raw.Edges[n]-raw.Edges[0])/float64(n), 'g', 12, 64), 64)
	}
	return nil
}

var histogramCases = []string{
	`{"start":-4.265,"width":0.8531,"counts":[2,66,1006,6014,19220,29520,28340,12410,2967,405]}`,
	`{"start":0.0,"width":1e-05,"counts":[1,0,0,0,0,0,0,0,0,3],"tails_exact":true}`,
	`{"start":-1.5,"width":0.1,"counts":[1,2,3,4,5,6,7,8,9,10],"tails":"not counted"}`,
	` { "start" : 1 , "width" : 2 , "counts" : [ 1 , 2 ] } `,
	`{"edges":[0,0.1,0.2,0.30000000000000004,0.4],"counts":[1,2,3,4]}`,
	`{"edges":[5],"counts":[1]}`,
	`{"START":3,"Width":4,"Counts":[7],"TAILS":"x"}`,
	`{"start":null,"width":2,"edges":[1,3],"counts":null}`,
	`{"start":1,"start":2,"counts":[1],"counts":[2,3]}`,
	`{"extra":{"a":[1,{"b":"]}"}],"c":"\""},"more":[true,false,null,-1.5e3],"start":7,"counts":[]}`,
	`{"tails":"caf\u00e9 \"x\"","counts":[1,null,3]}`,
	`{"tails":"café","counts":[1]}`,
	`{}`,
	`null`,
	`{"counts":[1.5]}`,
	`{"counts":"x"}`,
	`{"start":"inf","width":1,"counts":[1]}`,
	`{"start":-1e308,"width":"inf","counts":[3,0,0,0,0,0,0,0,0,0]}`,
	`{"counts":[1,"x"]}`,
	`{"tails":5}`,
	`{"start":1e400,"counts":[1]}`,
	`{"tails_exact":1}`,
	`[1,2]`,
}

func TestHistogramOnePassAgrees(t *testing.T) {
	for _, c := range histogramCases {
		var want, got Histogram
		werr := histogramTwoPass(&want, []byte(c))
		gerr := got.UnmarshalJSON([]byte(c))
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: error %v, before %v", c, gerr, werr)
			continue
		}
		if gerr != nil && gerr.Error() == "" { // the error must print (a json.UnmarshalTypeError needs its Type)
			t.Errorf("%s: an error without words", c)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, before %+v", c, got, want)
		}
	}
}

// An answer whose histogram does not decode is an error that says why
// (a probe writes an infinite width as "inf").
func TestHistogramErrorInAnswer(t *testing.T) {
	_, err := DecodeProbeResult(`{"type":"Series","statistics":{"histogram":{"start":-1e308,"width":"inf","counts":[3]}}}`)
	if err == nil || !strings.Contains(err.Error(), "float64") {
		t.Fatalf("got %v", err)
	}
}

// A histogram inside a whole answer decodes as before (the outer decoder
// hands the method the value's bytes).
func TestHistogramInAnswer(t *testing.T) {
	for _, c := range histogramCases[:12] {
		res, err := DecodeProbeResult(`{"type":"DataFrame","statistics":{"columns":[{"name":"x","histogram":` + c + `}]}}`)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		var want Histogram
		if err := histogramTwoPass(&want, []byte(c)); err != nil {
			t.Fatal(err)
		}
		if got := res.Statistics.Columns[0].Histogram; got == nil || !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: %+v, want %+v", c, got, want)
		}
	}
}

// histogramAnswer is the histograms of a 50-column answer, as one array.
func histogramAnswer() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 50; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"start":-4.%03d,"width":0.8%03d,"counts":[2,66,1006,6014,19220,29520,28340,12410,2967,%d]}`, i, i, 400+i)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// BenchmarkHistogramDecode decodes the 50 histograms of a 100K×50 answer:
// one_pass is Histogram.UnmarshalJSON, two_pass the json.Unmarshal it
// replaced, each called by encoding/json's decoder as in DecodeProbeResult.
func BenchmarkHistogramDecode(b *testing.B) {
	doc := histogramAnswer()
	b.Run("one_pass", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			var hs []Histogram
			if err := json.Unmarshal(doc, &hs); err != nil || len(hs) != 50 {
				b.Fatal(err)
			}
		}
	})
	b.Run("two_pass", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			var hs []twoPassHistogram
			if err := json.Unmarshal(doc, &hs); err != nil || len(hs) != 50 {
				b.Fatal(err)
			}
		}
	})
}

type twoPassHistogram struct{ Histogram }

func (h *twoPassHistogram) UnmarshalJSON(b []byte) error { return histogramTwoPass(&h.Histogram, b) }
