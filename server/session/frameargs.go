// frameargs.go: the frame id and stack window a request names, read
// straight from its argument struct's fields by their JSON names, instead
// of encoding the whole arguments (an inspector's evaluate carries the
// probe call, hundreds of bytes) and decoding them again on every request.

package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// frameArgs reads the frame id and stack window a raw request names.
type frameArgs struct {
	FrameID    int `json:"frameId"`
	ThreadID   int `json:"threadId"`
	StartFrame int `json:"startFrame"`
}

// frameFields is where a struct type keeps frameArgs' fields (their
// indexes, -1: none); ok false when its JSON encoding is not that of its
// own fields (an embedded struct, a custom encoder), read the slow way.
type frameFields struct {
	frame, thread, start int
	ok                   bool
}

var frameFieldsOf sync.Map // reflect.Type → frameFields

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

func fieldsOf(t reflect.Type) frameFields {
	if ff, ok := frameFieldsOf.Load(t); ok {
		return ff.(frameFields)
	}
	ff := frameFields{frame: -1, thread: -1, start: -1, ok: true}
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		ff.ok = false
	}
	for i := 0; i < t.NumField() && ff.ok; i++ {
		f := t.Field(i)
		if f.Anonymous {
			ff.ok = false
			break
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		isInt := f.IsExported() && f.Type.Kind() == reflect.Int
		switch { // json.Unmarshal matches names regardless of case
		case name == "-":
		case strings.EqualFold(name, "frameId"):
			ff.frame, ff.ok = i, isInt
		case strings.EqualFold(name, "threadId"):
			ff.thread, ff.ok = i, isInt
		case strings.EqualFold(name, "startFrame"):
			ff.start, ff.ok = i, isInt
		}
	}
	frameFieldsOf.Store(t, ff)
	return ff
}

func readFrameArgs(args any) frameArgs {
	v := reflect.ValueOf(args)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		if ff := fieldsOf(v.Type()); ff.ok {
			var fa frameArgs
			if ff.frame >= 0 {
				fa.FrameID = int(v.Field(ff.frame).Int())
			}
			if ff.thread >= 0 {
				fa.ThreadID = int(v.Field(ff.thread).Int())
			}
			if ff.start >= 0 {
				fa.StartFrame = int(v.Field(ff.start).Int())
			}
			return fa
		}
	}
	var fa frameArgs
	if b, err := json.Marshal(args); err == nil {
		_ = json.Unmarshal(b, &fa)
	}
	return fa
}
