// model.go: what the Python probe reports of a torch.nn.Module (detected
// type "model") and of a state_dict-like mapping of names to tensors
// ("state_dict"), read without running forward or any user code
// (inspect/probe/python/models.py), and of a tensor's device memory.

package inspect

import (
	"fmt"
	"sort"
	"strings"
)

// Detected types of models.
const (
	TypeModel     = "model"
	TypeStateDict = "state_dict"
)

// DeviceMemory is a device's memory as its allocator reports it.
type DeviceMemory struct {
	Allocated int64 `json:"allocated"`
	Reserved  int64 `json:"reserved"`
}

// Model summarises a module's parameters and buffers (or a state_dict's
// tensors).
type Model struct {
	// Params: parameter elements (shared parameters once); Trainable: of
	// them, those with requires_grad; ParamBytes their memory.
	Params     int64 `json:"params"`
	Trainable  int64 `json:"trainable"`
	ParamBytes int64 `json:"param_bytes"`
	Tensors    int64 `json:"tensors"` // parameter (or state_dict) tensors
	// Buffers (running means, masks…): count and memory.
	Buffers     int64 `json:"buffers,omitempty"`
	BufferBytes int64 `json:"buffer_bytes,omitempty"`
	// Dtypes and Devices: elements per dtype and per device.
	Dtypes  map[string]int64 `json:"dtypes,omitempty"`
	Devices map[string]int64 `json:"devices,omitempty"`
	// Training: the module's train (true) or eval (false) mode; nil for a
	// state_dict. TrainingMixed: submodules disagree.
	Training      *bool `json:"training,omitempty"`
	TrainingMixed bool  `json:"training_mixed,omitempty"`
	// Frozen names the parameters without requires_grad (at most 50);
	// NaN and Inf those holding NaN / ±inf (checked on their devices).
	Frozen      []string `json:"frozen,omitempty"`
	FrozenCount int64    `json:"frozen_count,omitempty"`
	NaN         []string `json:"nan,omitempty"`
	Inf         []string `json:"inf,omitempty"`
	// Layers is the module tree in order (at most 200), Entries a
	// state_dict's tensors (at most 200); LayerCount / EntryCount all.
	Layers     []Layer      `json:"layers,omitempty"`
	LayerCount int64        `json:"layer_count,omitempty"`
	Entries    []ModelEntry `json:"entries,omitempty"`
	EntryCount int64        `json:"entry_count,omitempty"`
}

// Layer is one module of the tree.
type Layer struct {
	Path   string `json:"path"` // "" for the root, "encoder.0"
	Type   string `json:"type"`
	Depth  int    `json:"depth"`
	Params int64  `json:"params,omitempty"` // its own parameters' elements
	// Shapes of its own parameters and buffers, by name.
	Shapes   map[string][]int64 `json:"shapes,omitempty"`
	Training *bool              `json:"training,omitempty"` // when it differs from the root's
}

// ModelEntry is one tensor of a state_dict.
type ModelEntry struct {
	Name   string  `json:"name"`
	Shape  []int64 `json:"shape"`
	Dtype  string  `json:"dtype"`
	Device string  `json:"device,omitempty"`
}

// parts are a model's facts for its summary: "5 modules, 74 parameters
// (42 trainable), 296 B, 3 buffers (72 B), float32, cpu, eval (mixed),
// NaN in 3.bias, inf in 3.weight, 1 frozen".
func (m *Model) parts(state bool) []string {
	var out []string
	if state {
		out = append(out, plural(m.EntryCount, "tensor"))
	} else {
		out = append(out, plural(m.LayerCount, "module"))
	}
	p := plural(m.Params, "parameter")
	if state {
		p = plural(m.Params, "element")
	}
	if !state || m.Trainable > 0 {
		p += fmt.Sprintf(" (%s trainable)", commas(m.Trainable))
	}
	out = append(out, p, HumanBytes(m.ParamBytes))
	if m.Buffers > 0 {
		out = append(out, fmt.Sprintf("%s (%s)", plural(m.Buffers, "buffer"), HumanBytes(m.BufferBytes)))
	}
	if d := keysByCount(m.Dtypes); d != "" {
		out = append(out, d)
	}
	if d := keysByCount(m.Devices); d != "" {
		out = append(out, d)
	}
	if m.Training != nil && !state {
		mode := map[bool]string{true: "train", false: "eval"}[*m.Training]
		if m.TrainingMixed {
			mode += " (mixed)"
		}
		out = append(out, mode)
	}
	if len(m.NaN) > 0 {
		out = append(out, "NaN in "+listOf(m.NaN, 3))
	}
	if len(m.Inf) > 0 {
		out = append(out, "inf in "+listOf(m.Inf, 3))
	}
	if m.FrozenCount > 0 && !state {
		out = append(out, commas(m.FrozenCount)+" frozen")
	}
	return out
}

// tensorParts are a tensor's autograd, layout and memory facts for its
// summary.
func (s *Structure) tensorParts() []string {
	var out []string
	if s.GradFn != "" {
		out = append(out, "grad_fn "+s.GradFn)
	}
	if s.HasGrad != nil && *s.HasGrad {
		out = append(out, ".grad set")
	}
	if s.Layout != "" {
		l := s.Layout
		if s.Nnz != nil {
			l += fmt.Sprintf(" (%s stored)", commas(*s.Nnz))
		}
		out = append(out, l)
	}
	if s.QScheme != "" {
		out = append(out, "quantized "+s.QScheme)
	}
	if m := s.DeviceMemory; m != nil {
		out = append(out, fmt.Sprintf("device %s allocated / %s reserved", HumanBytes(m.Allocated), HumanBytes(m.Reserved)))
	}
	return out
}

// keysByCount lists a map's keys, the largest count first.
func keysByCount(m map[string]int64) string {
	return strings.Join(byCount(m), ", ")
}

// byCount is a map's keys, the largest count first (ties by name).
func byCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

func listOf(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" +%d more", len(names)-n)
}

// modelLine is a model's or a state_dict's one-line summary:
// "Sequential · 5 modules · 74 parameters (42 trainable) · 368 B ·
// float32 · cpu · eval".
func (v ValueSummary) modelLine(short string) string {
	parts := []string{short}
	if v.Layers != nil {
		parts = append(parts, plural(*v.Layers, "module"))
	} else if v.Len != nil {
		parts = append(parts, plural(*v.Len, "tensor"))
	}
	if v.Params != nil {
		p := plural(*v.Params, "parameter")
		if v.Trainable != nil && (v.Layers != nil || *v.Trainable > 0) {
			p += fmt.Sprintf(" (%s trainable)", commas(*v.Trainable))
		}
		parts = append(parts, p)
	}
	if v.Memory != nil {
		parts = append(parts, HumanBytes(*v.Memory))
	}
	for _, s := range []string{v.Dtype, v.Device} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if v.Training != nil {
		parts = append(parts, map[bool]string{true: "train", false: "eval"}[*v.Training])
	}
	return strings.Join(parts, " · ")
}
