// histogram_json.go: decoding a Histogram in one pass over its bytes. A
// probe answer carries one histogram per numeric column; decoding each
// through json.Unmarshal into a shadow struct scanned its bytes twice more
// (a validity scan, then the decode) after the answer's own decoder had
// scanned them once. The outer decoder hands UnmarshalJSON a complete,
// valid JSON value, so one forward scan reads it: the known fields by
// name (matched as encoding/json matches them, case-insensitively; a
// repeated key's last value wins), anything else skipped.

package inspect

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// UnmarshalJSON reads start/width/counts, and also edges/counts (the
// JavaScript probe's form), kept as start and width.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	d := histDecoder{b: b}
	var (
		start, width *float64
		edges        []float64
		raw          Histogram
	)
	d.space()
	if d.literal("null") {
		*h = Histogram{}
		return nil
	}
	if !d.byte('{') {
		return d.typeErr(reflect.TypeFor[Histogram]())
	}
	for d.space(); !d.byte('}'); d.space() {
		key, err := d.str()
		if err != nil {
			return err
		}
		d.space()
		if !d.byte(':') {
			return errHistSyntax
		}
		d.space()
		switch {
		case strings.EqualFold(key, "start"):
			start, err = d.optFloat(start)
		case strings.EqualFold(key, "width"):
			width, err = d.optFloat(width)
		case strings.EqualFold(key, "edges"):
			edges, err = floatsOrInts(&d, edges, strconv.ParseFloat)
		case strings.EqualFold(key, "counts"):
			raw.Counts, err = floatsOrInts(&d, raw.Counts, func(s string, _ int) (int64, error) {
				return strconv.ParseInt(s, 10, 64)
			})
		case strings.EqualFold(key, "tails_exact"):
			err = d.boolean(&raw.TailsExact)
		case strings.EqualFold(key, "tails"):
			err = d.optStr(&raw.Tails)
		default:
			err = d.skip()
		}
		if err != nil {
			return err
		}
		d.space()
		d.byte(',')
	}
	*h = Histogram{Counts: raw.Counts, TailsExact: raw.TailsExact, Tails: raw.Tails}
	switch {
	case start != nil:
		h.Start = *start
		if width != nil {
			h.Width = *width
		}
	case len(edges) >= 2:
		n := len(edges) - 1
		h.Start = edges[0]
		// 12 significant digits: no float noise from the subtraction
		h.Width, _ = strconv.ParseFloat(strconv.FormatFloat((edges[n]-edges[0])/float64(n), 'g', 12, 64), 64)
	}
	return nil
}

var errHistSyntax = errors.New("histogram: malformed JSON")

// histDecoder scans one JSON value, b[i:] being what is left.
type histDecoder struct {
	b []byte
	i int
}

func (d *histDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte consumes c if it is next.
func (d *histDecoder) byte(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// literal consumes s (null, true, false) if it is next.
func (d *histDecoder) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// kind names the JSON type of the next value, for type errors.
func (d *histDecoder) kind() string {
	if d.i >= len(d.b) {
		return "end"
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "bool"
	case c == 'n':
		return "null"
	default:
		return "number"
	}
}

// typeErr is encoding/json's error for a value of the wrong type.
func (d *histDecoder) typeErr(want reflect.Type) error {
	return &json.UnmarshalTypeError{Value: d.kind(), Type: want, Offset: int64(d.i)}
}

// number returns the next number's text.
func (d *histDecoder) number() (string, bool) {
	j := d.i
	for j < len(d.b) {
		c := d.b[j]
		if (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			j++
			continue
		}
		break
	}
	if j == d.i {
		return "", false
	}
	s := string(d.b[d.i:j])
	d.i = j
	return s, true
}

// str reads a string (escapes and invalid UTF-8 decoded as encoding/json does).
func (d *histDecoder) str() (string, error) {
	if !d.byte('"') {
		return "", d.typeErr(reflect.TypeFor[string]())
	}
	j, plain := d.i, true
	for ; j < len(d.b) && d.b[j] != '"'; j++ {
		if d.b[j] == '\\' {
			plain = false
			j++
		} else if d.b[j] >= utf8.RuneSelf {
			plain = false
		}
	}
	if j >= len(d.b) {
		return "", errHistSyntax
	}
	raw := d.b[d.i-1 : j+1]
	d.i = j + 1
	if plain || utf8.Valid(raw) && !strings.ContainsRune(string(raw), '\\') {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

func (d *histDecoder) optFloat(old *float64) (*float64, error) {
	if d.literal("null") {
		return nil, nil
	}
	s, ok := d.number()
	if !ok {
		return old, d.typeErr(reflect.TypeFor[float64]())
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return old, &json.UnmarshalTypeError{Value: "number " + s, Type: reflect.TypeFor[float64](), Offset: int64(d.i)}
	}
	return &f, nil
}

func (d *histDecoder) boolean(v *bool) error {
	switch {
	case d.literal("true"):
		*v = true
	case d.literal("false"):
		*v = false
	case d.literal("null"):
	default:
		return d.typeErr(reflect.TypeFor[bool]())
	}
	return nil
}

func (d *histDecoder) optStr(v *string) error {
	if d.literal("null") {
		return nil
	}
	s, err := d.str()
	if err == nil {
		*v = s
	}
	return err
}

// floatsOrInts reads an array of numbers (null: nil) with parse.
func floatsOrInts[T float64 | int64](d *histDecoder, old []T, parse func(string, int) (T, error)) ([]T, error) {
	if d.literal("null") {
		return nil, nil
	}
	if !d.byte('[') {
		return old, d.typeErr(reflect.TypeFor[[]T]())
	}
	out := make([]T, 0, 10)
	for d.space(); !d.byte(']'); d.space() {
		if d.literal("null") { // a null element is left zero, as encoding/json leaves it
			out = append(out, 0)
			d.space()
			d.byte(',')
			continue
		}
		s, ok := d.number()
		if !ok {
			return old, d.typeErr(reflect.TypeFor[T]())
		}
		v, err := parse(s, 64)
		if err != nil {
			return old, &json.UnmarshalTypeError{Value: "number " + s, Type: reflect.TypeFor[T](), Offset: int64(d.i)}
		}
		out = append(out, v)
		d.space()
		d.byte(',')
	}
	return out, nil
}

// skip passes over one value of any type.
func (d *histDecoder) skip() error {
	switch d.kind() {
	case "string":
		_, err := d.str()
		return err
	case "object", "array":
		depth := 0
		for d.i < len(d.b) {
			switch c := d.b[d.i]; c {
			case '"':
				if _, err := d.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			d.i++
			if depth == 0 {
				return nil
			}
		}
		return errHistSyntax
	case "end":
		return errHistSyntax
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if d.literal(lit) {
				return nil
			}
		}
		if _, ok := d.number(); !ok {
			return errHistSyntax
		}
		return nil
	}
}
