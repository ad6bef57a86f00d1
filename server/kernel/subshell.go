// subshell.go: dapscope's silent calls in a kernel subshell (JEP 91).
// ipykernel 7 runs each subshell in a thread of its own, with its own
// shell queue: a silent evaluation sent there never queues behind the
// user's cell, and the user's next cell never queues behind it. The
// subshell is made on first use with create_subshell_request on the
// control channel, when the kernel's kernel_info names the "kernel
// subshells" feature; its id goes in the header of each silent request
// (subshell_id). A kernel without subshells (ipykernel 6) gets the main
// shell, as before. A restarted kernel lost the subshell: a new one is
// made for it; a subshell the kernel no longer knows (UnknownSubshellError)
// is forgotten and the call is sent again. Close deletes the subshell.
//
// What is not changed: a silent call is still refused (or waits) while
// a user's cell is known to run (request.go): a subshell would read the
// namespace mid-cell. What changes: once sent, it is never given up as
// "queued behind a cell", since it is not (one sent just as a cell starts
// runs beside it).

package kernel

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"
)

// subshellFeature is kernel_info's supported_features entry for JEP 91.
const subshellFeature = "kernel subshells"

// subshellCreateMax bounds creating the subshell (one control request).
const subshellCreateMax = 2 * time.Second

// Subshells says whether the kernel implements subshells (JEP 91).
func (k KernelInfo) Subshells() bool { return slices.Contains(k.SupportedFeatures, subshellFeature) }

// subshells is a client's subshell for its silent calls.
type subshells struct {
	mu            sync.Mutex
	id            string // "" until made
	kernelSession string // the kernel process it was made in
	refused       string // the kernel process that refused to make one
}

// silentShell is the subshell id for a silent call, or "" for the main
// shell (no subshells, disabled, or one could not be made).
func (c *Client) silentShell(ctx context.Context) string {
	if c.opts.NoSubshell || !c.Info().Subshells() {
		return ""
	}
	c.mu.Lock()
	ks := c.kernelSession
	c.mu.Unlock()
	s := &c.sub
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.id != "" && (ks == "" || ks == s.kernelSession) {
		return s.id
	}
	if s.refused != "" && s.refused == ks {
		return ""
	}
	s.id = ""
	cctx, cancel := context.WithTimeout(ctx, subshellCreateMax)
	defer cancel()
	a, err := c.do(cctx, call{channel: ChannelControl, msgType: "create_subshell_request", content: struct{}{}})
	var r struct {
		Status     string `json:"status"`
		SubshellID string `json:"subshell_id"`
	}
	if err == nil {
		err = json.Unmarshal(a.reply.Content, &r)
	}
	if err != nil || r.Status != "ok" || r.SubshellID == "" {
		c.log.Info("kernel: no subshell; silent calls use the main shell", "kernel", c.name, "err", err, "status", r.Status)
		s.refused = ks
		return ""
	}
	c.mu.Lock()
	ks = c.kernelSession // the reply taught it, if it was not known
	c.mu.Unlock()
	s.id, s.kernelSession = r.SubshellID, ks
	return s.id
}

// forgetSubshell drops a subshell the kernel no longer knows.
func (c *Client) forgetSubshell(id string) {
	c.sub.mu.Lock()
	if c.sub.id == id {
		c.sub.id = ""
	}
	c.sub.mu.Unlock()
}

// SilentSubshell is the subshell id dapscope's silent calls use now
// ("" = the main shell, or none made yet).
func (c *Client) SilentSubshell() string {
	c.sub.mu.Lock()
	defer c.sub.mu.Unlock()
	return c.sub.id
}

// unknownSubshell says whether an error reply is the kernel's refusal of a
// subshell id it does not know.
func unknownSubshell(r *executeReply) bool {
	return r.Status == "error" && r.EName == "UnknownSubshellError"
}

// deleteSubshell deletes the client's subshell (best effort, bounded), at
// Close.
func (c *Client) deleteSubshell() {
	c.sub.mu.Lock()
	id := c.sub.id
	c.sub.id = ""
	c.sub.mu.Unlock()
	if id == "" || c.liveness() != nil {
		return
	}
	m, err := newRequest(c.session, "delete_subshell_request", map[string]string{"subshell_id": id})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, 500*time.Millisecond)
	defer cancel()
	if err := c.tr.send(ctx, ChannelControl, m); err != nil {
		c.log.Debug("kernel: delete_subshell_request not sent", "err", err)
	}
}
