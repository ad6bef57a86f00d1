// This file builds the view of Go slices and arrays (and any indexed value)
// from the variables tree: len and cap, element type, head/tail items, and
// exact statistics for numeric slices up to statsFetchLimit elements.

package inspect

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// statsFetchLimit: numeric slices up to this length are fetched whole for
// exact statistics; longer ones only get a preview.
const statsFetchLimit = 1000

func (b *treeBuilder) sequence(ev dapEvalBody, elem string) {
	s := b.r.Structure
	s.ElementType = elem
	n := int64(ev.IndexedVariables)
	if m := lenCapRe.FindStringSubmatch(ev.Result); m != nil {
		n, _ = strconv.ParseInt(m[1], 10, 64)
		if m[2] != "" {
			c, _ := strconv.ParseInt(m[2], 10, 64)
			s.Cap = &c
		}
	} else if strings.HasPrefix(ev.Type, "[") {
		if k, err := strconv.ParseInt(ev.Type[1:strings.Index(ev.Type, "]")], 10, 64); err == nil {
			n = k
		}
	}
	s.Length = &n
	s.Shape = []int64{n}
	if strings.HasSuffix(ev.Result, " nil") {
		s.Nil = true
	}
	if depth := 1 + strings.Count(elem, "[]") + strings.Count(elem, "map["); depth > 1 {
		s.Depth = &depth
	}
	if ev.VariablesReference == 0 || n == 0 {
		return
	}
	items := int64(b.opts.MaxPreviewItems)
	wantAll := isGoNumeric(elem) && n <= statsFetchLimit && (b.opts.IncludeStatistics == nil || *b.opts.IncludeStatistics)
	headN := min(n, items)
	tailN := int64(0)
	if n > items {
		headN = items - max(1, items/3)
		tailN = items - headN
	}
	var all []dapVariable
	if wantAll {
		all = b.children(ev.VariablesReference, "indexed", 0, int(n))
	}
	head := all
	if head == nil {
		head = b.children(ev.VariablesReference, "indexed", 0, int(headN))
	}
	p := &Preview{}
	for i, v := range head {
		if int64(i) >= headN {
			break
		}
		idx := int64(i)
		p.Items = append(p.Items, Item{Index: &idx, Value: cellOf(v), Type: v.Type})
	}
	if tailN > 0 {
		tail := []dapVariable(nil)
		if all != nil && int64(len(all)) == n {
			tail = all[n-tailN:]
		} else {
			tail = b.children(ev.VariablesReference, "indexed", int(n-tailN), int(tailN))
		}
		for i, v := range tail {
			idx := n - tailN + int64(i)
			p.TailItems = append(p.TailItems, Item{Index: &idx, Value: cellOf(v), Type: v.Type})
		}
		p.IsTruncated = true
	}
	b.r.Preview = p
	switch {
	case wantAll && int64(len(all)) == n:
		b.r.Statistics = numericStats(all)
	case isGoNumeric(elem) && n > statsFetchLimit:
		b.r.Statistics = &Statistics{Skipped: fmt.Sprintf("over %s elements: not fetched through the variables tree", commas(statsFetchLimit))}
	}
}

func numericStats(vars []dapVariable) *Statistics {
	var xs []float64
	for _, v := range vars {
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil {
			return nil
		}
		xs = append(xs, f)
	}
	if len(xs) == 0 {
		return nil
	}
	n := int64(len(xs))
	st := &Statistics{Count: &n}
	mn, mx, sum := math.Inf(1), math.Inf(-1), 0.0
	var zeros, nan, inf int64
	var fin []float64
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			nan++
			continue
		case math.IsInf(x, 0):
			inf++
			continue
		}
		if x == 0 {
			zeros++
		}
		mn, mx, sum = math.Min(mn, x), math.Max(mx, x), sum+x
		fin = append(fin, x)
	}
	st.Zeros, st.NaNCount, st.InfCount = nonZero(zeros), nonZero(nan), nonZero(inf)
	if len(fin) == 0 {
		return st
	}
	mean := sum / float64(len(fin))
	ss := 0.0
	for _, x := range fin {
		ss += (x - mean) * (x - mean)
	}
	st.Min, st.Max = round6(mn), round6(mx)
	st.Mean, st.Std = round6(mean), round6(math.Sqrt(ss/float64(len(fin))))
	sort.Float64s(fin)
	q := func(p float64) any { // linear interpolation, as numpy.percentile
		pos := p / 100 * float64(len(fin)-1)
		lo := int(math.Floor(pos))
		hi := min(lo+1, len(fin)-1)
		return round6(fin[lo] + (fin[hi]-fin[lo])*(pos-float64(lo)))
	}
	st.Quantiles = &Quantiles{P5: q(5), P25: q(25), P50: q(50), P75: q(75), P95: q(95)}
	distinct := int64(1)
	for i := 1; i < len(fin); i++ {
		if fin[i] != fin[i-1] {
			distinct++
		}
	}
	st.Distinct = &distinct
	return st
}

func round6(x float64) any {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
}
