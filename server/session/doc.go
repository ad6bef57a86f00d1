// Package session is the headless session API used by the CLI, MCP agents
// and the editor channel: launch/attach, breakpoints, stepping, waiting,
// inspection of frames, output capture, and outcomes. Each session is one
// live adapter shared through a mux (server/mux), so an editor attached
// through the proxy and internal clients work on the same debuggee.
package session
