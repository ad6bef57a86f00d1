// snapshots.go: debug_snapshot — capture a frame's locals (safe-repr
// bounded) plus smart inspections of chosen expressions, stored under an id
// within the memory budget; list; delete. debug_diff compares them (diff.go).

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const maxSnapshotLocals = 200

// snapshot is a stored capture of a frame.
type snapshot struct {
	ID            string                     `json:"id,omitempty"`
	Label         string                     `json:"label,omitempty"`
	SessionID     string                     `json:"session_id"`
	FrameID       int                        `json:"frame_id"`
	Location      string                     `json:"location,omitempty"`
	CapturedAt    time.Time                  `json:"captured_at"`
	Locals        []VarValue                 `json:"locals"`
	LocalsOmitted int                        `json:"locals_omitted,omitempty"`
	Inspections   map[string]json.RawMessage `json:"inspections,omitempty"`
	Summaries     map[string]string          `json:"summaries,omitempty"`
	InspectErrors map[string]string          `json:"inspect_errors,omitempty"`
	// Nested are container attributes of inspected objects, inspected one
	// level down so a diff can name the key that changed (valdiff.go).
	Nested map[string]json.RawMessage `json:"nested,omitempty"`
	GoLang bool                       `json:"go,omitempty"` // paths are written in Go
	Bytes  int64                      `json:"bytes,omitempty"`
	// gen is the stop the capture of a stop (refreshAtStop) was taken at.
	gen int
}

// SnapshotInfo describes a stored snapshot.
type SnapshotInfo struct {
	ID         string            `json:"id"`
	Label      string            `json:"label,omitempty"`
	Location   string            `json:"location,omitempty"`
	CapturedAt time.Time         `json:"captured_at"`
	Variables  int               `json:"variables"`
	Inspected  map[string]string `json:"inspected,omitempty" desc:"expression → summary"`
	Errors     map[string]string `json:"errors,omitempty" desc:"expression → why it could not be inspected"`
	Bytes      int64             `json:"bytes"`
}

func (sn *snapshot) info() SnapshotInfo {
	return SnapshotInfo{ID: sn.ID, Label: sn.Label, Location: sn.Location, CapturedAt: sn.CapturedAt,
		Variables: len(sn.Locals), Inspected: sn.Summaries, Errors: sn.InspectErrors, Bytes: sn.Bytes}
}

type snapshotArgs struct {
	SessionRef
	Action  string   `json:"action,omitempty" enum:"capture,list,delete"`
	FrameID int      `json:"frame_id,omitempty"`
	Inspect []string `json:"inspect,omitempty" maxItems:"10" jsonschema:"inspect these too"`
	Label   string   `json:"label,omitempty"`
	ID      string   `json:"id,omitempty"`
}

// SnapshotResult is the outcome of a snapshot action.
type SnapshotResult struct {
	SessionID   string         `json:"session_id"`
	Action      string         `json:"action"`
	Snapshot    *SnapshotInfo  `json:"snapshot,omitempty"`
	Snapshots   []SnapshotInfo `json:"snapshots,omitempty"`
	Deleted     string         `json:"deleted,omitempty"`
	StoredBytes int64          `json:"stored_bytes" desc:"bytes held by all snapshots"`
	BudgetBytes int64          `json:"budget_bytes" desc:"memory budget for snapshots and output"`
}

func (r *SnapshotResult) text() string {
	var b strings.Builder
	line := func(i SnapshotInfo) {
		fmt.Fprintf(&b, "%s %s: %d variables at %s, %s", i.ID, i.Label, i.Variables, i.Location, human(i.Bytes))
		for _, e := range sortedKeys(i.Inspected) {
			fmt.Fprintf(&b, "\n  %s: %s", e, i.Inspected[e])
		}
		for _, e := range sortedKeys(i.Errors) {
			fmt.Fprintf(&b, "\n  %s: error %s", e, i.Errors[e])
		}
		b.WriteByte('\n')
	}
	switch {
	case r.Snapshot != nil:
		line(*r.Snapshot)
	case r.Deleted != "":
		fmt.Fprintf(&b, "deleted %s\n", r.Deleted)
	case len(r.Snapshots) == 0:
		b.WriteString("no snapshots\n")
	}
	for _, i := range r.Snapshots {
		line(i)
	}
	fmt.Fprintf(&b, "stored %s of %s budget", human(r.StoredBytes), human(r.BudgetBytes))
	return b.String()
}

// capture reads a frame into a snapshot (not stored).
func (s *Server) capture(ctx context.Context, sess *session.Session, frameID int, exprs []string) (*snapshot, error) {
	top := frameID == 0
	frameID, err := s.frameOrTop(ctx, sess, frameID)
	if err != nil {
		return nil, err
	}
	sn := &snapshot{SessionID: sess.ID(), FrameID: frameID, CapturedAt: time.Now(), GoLang: sess.Language() == inspect.Go}
	if frames, err := sess.StackTrace(ctx, 0, 50); err == nil {
		for i, f := range frames {
			// Delve hands out new frame ids on every stackTrace: the top
			// frame is known by its place.
			if f.Id == frameID || (top && i == 0) {
				sn.Location = s.frameLocation(f)
				break
			}
		}
	}
	if sn.Locals, sn.LocalsOmitted, err = s.reportLocalsWith(ctx, sess, frameID, maxSnapshotLocals, true); err != nil {
		return nil, err
	}
	for _, e := range exprs {
		if sn.Inspections == nil {
			sn.Inspections, sn.Summaries, sn.InspectErrors = map[string]json.RawMessage{}, map[string]string{}, map[string]string{}
		}
		if s.inspect == nil {
			sn.InspectErrors[e] = "smart inspection is not available in this build"
			continue
		}
		res, err := s.captureValue(ctx, sess, frameID, e, sn)
		if err != nil {
			sn.InspectErrors[e] = toolError(err).Message
			continue
		}
		sn.Inspections[e], sn.Summaries[e] = res.JSON, res.Summary
	}
	if len(sn.InspectErrors) == 0 {
		sn.InspectErrors = nil
	}
	b, _ := json.Marshal(sn)
	sn.Bytes = int64(len(b))
	return sn, nil
}

func (s *Server) registerSnapshotTools() {
	addTool(s, toolSpec{name: "debug_snapshot", title: "Snapshot a frame",
		desc:  "Save a frame's locals (and inspections) for debug_diff.",
		hints: hints{}, more: "list fewer snapshots or delete old ones"},
		func(ctx context.Context, c *call, p *snapshotArgs) (*SnapshotResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			st := s.state(sess.ID())
			action := p.Action
			if action == "" {
				action = "capture"
			}
			r := &SnapshotResult{SessionID: sess.ID(), Action: action}
			switch action {
			case "capture":
				sn, err := s.capture(ctx, sess, p.FrameID, p.Inspect)
				if err != nil {
					return nil, err
				}
				sn.ID, sn.Label = s.nextID("s"), p.Label
				if err := s.budget.reserve(sn.ID, sn.Bytes, s.outputBytes()); err != nil {
					return nil, err
				}
				st.mu.Lock()
				st.snapshots[sn.ID] = sn
				st.order = append(st.order, sn.ID)
				st.mu.Unlock()
				info := sn.info()
				r.Snapshot = &info
			case "list":
				st.mu.Lock()
				for _, id := range st.order {
					r.Snapshots = append(r.Snapshots, st.snapshots[id].info())
				}
				st.mu.Unlock()
			case "delete":
				if p.ID == "" {
					return nil, argError("id", "required for delete")
				}
				st.mu.Lock()
				_, ok := st.snapshots[p.ID]
				if ok {
					delete(st.snapshots, p.ID)
					for i, id := range st.order {
						if id == p.ID {
							st.order = append(st.order[:i], st.order[i+1:]...)
							break
						}
					}
				}
				st.mu.Unlock()
				if !ok {
					return nil, &errcode.Error{Code: errcode.NotFound, Field: "id", Message: fmt.Sprintf("no snapshot %q in this session", p.ID)}
				}
				s.budget.release(p.ID)
				r.Deleted = p.ID
			}
			r.StoredBytes, r.BudgetBytes = s.budget.stored(), s.opts.MemoryBudget
			return r, nil
		})
}

// captureValue inspects expr for a snapshot so that a later diff can
// compare values: previews of up to 30 items, a table of up to
// maxCellRows rows held whole, and the container attributes of an object
// or struct inspected one level down (into sn.Nested).
func (s *Server) captureValue(ctx context.Context, sess *session.Session, frameID int, expr string, sn *snapshot) (*inspected, error) {
	opts := inspectOpts{MaxPreviewItems: 30}
	res, err := s.inspect(ctx, sess, frameID, expr, opts)
	if err != nil {
		return nil, err
	}
	var v struct {
		Detected  string `json:"detected_type"`
		Structure struct {
			Shape      []float64 `json:"shape"`
			Attributes []struct {
				Name string `json:"name"`
				Type string `json:"type"`
			} `json:"attributes"`
		} `json:"structure"`
		Preview struct {
			Omitted int `json:"omitted_rows"`
		} `json:"preview"`
	}
	if json.Unmarshal(res.JSON, &v) != nil {
		return res, nil
	}
	switch v.Detected {
	case "dataframe", "series":
		if v.Preview.Omitted > 0 && len(v.Structure.Shape) > 0 && v.Structure.Shape[0] <= maxCellRows {
			opts.MaxPreviewRows = maxCellRows
			if whole, err := s.inspect(ctx, sess, frameID, expr, opts); err == nil {
				res = whole
			}
		}
	default:
		n := 0
		for _, a := range v.Structure.Attributes {
			if n == maxNestedInspect || !isContainerType(a.Type) {
				continue
			}
			path := (&valueDiff{}).field(expr, a.Name)
			if sub, err := s.inspect(ctx, sess, frameID, path, inspectOpts{MaxPreviewItems: 30}); err == nil {
				if sn.Nested == nil {
					sn.Nested = map[string]json.RawMessage{}
				}
				sn.Nested[path] = sub.JSON
				n++
			}
		}
	}
	return res, nil
}

// isContainerType: Python containers and Go maps, slices and arrays.
func isContainerType(t string) bool {
	switch t {
	case "dict", "list", "tuple", "set", "frozenset", "deque", "defaultdict", "OrderedDict", "Counter":
		return true
	}
	return strings.HasPrefix(t, "map[") || strings.HasPrefix(t, "[")
}
