package session

import (
	"encoding/json"
	"reflect"
	"testing"

	godap "github.com/google/go-dap"
)

// TestReadFrameArgsAsJSON: the fields read straight from an argument
// struct are those its JSON encoding names, for every kind of arguments a
// request carries.
func TestReadFrameArgsAsJSON(t *testing.T) {
	type untagged struct {
		FrameID    int
		Expression string
	}
	type embedded struct {
		godap.StackTraceArguments
		Extra string `json:"extra"`
	}
	type skipped struct {
		FrameID int `json:"-"`
		Other   int `json:"frameId"`
	}
	type wide struct {
		FrameID int64 `json:"frameId"`
	}
	for _, args := range []any{
		godap.EvaluateArguments{Expression: "x", FrameId: 7, Context: "watch"},
		&godap.EvaluateArguments{FrameId: 8},
		godap.StackTraceArguments{ThreadId: 3, StartFrame: 20, Levels: 200},
		godap.ScopesArguments{FrameId: 9},
		untagged{FrameID: 11, Expression: "y"},
		embedded{StackTraceArguments: godap.StackTraceArguments{ThreadId: 4, StartFrame: 2}},
		skipped{FrameID: 1, Other: 12},
		wide{FrameID: 13},
		map[string]any{"frameId": 14, "threadId": 5},
		json.RawMessage(`{"frameId":15,"startFrame":3}`),
		nil,
		(*godap.ScopesArguments)(nil),
	} {
		var want frameArgs
		if b, err := json.Marshal(args); err == nil {
			_ = json.Unmarshal(b, &want)
		}
		if got := readFrameArgs(args); got != want {
			t.Errorf("%T %+v: read %+v, its JSON says %+v", args, args, got, want)
		}
	}
	// the arguments the session sends are read without encoding them
	for _, v := range []any{godap.EvaluateArguments{}, godap.StackTraceArguments{}, untagged{}, skipped{}} {
		if !fieldsOf(reflect.TypeOf(v)).ok {
			t.Errorf("%T is read through JSON", v)
		}
	}
	for _, v := range []any{embedded{}, wide{}} {
		if fieldsOf(reflect.TypeOf(v)).ok {
			t.Errorf("%T is read from its fields", v)
		}
	}
}
