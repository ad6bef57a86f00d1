// Package platform holds what differs from one operating system to another,
// each mechanism behind one small API with a build-tagged file per system:
//
//   - paths.go: how paths are spelled and compared (drive letters, shares,
//     `\`, case folding, file URLs), as a Flavour value tests can pick;
//     realpath*.go: the path the system really opens (links, junctions);
//   - tree*.go: a child process together with everything it starts (a
//     process group on Unix, a job object on Windows), ended politely, then
//     at once;
//   - procinfo*.go: whether a pid still runs, and its start time, so a
//     reused pid is never signalled;
//   - parent*.go: noticing that the process that started dapscope exited;
//   - listen*.go: the private listener of the editor's proxy (a unix socket
//     in a 0700 directory; a named pipe only this user may open on Windows);
//   - runtimes.go: finding python, node and dlv, and saying what to install
//     when one is missing.
//
// It is a leaf: the standard library, golang.org/x/sys and go-winio only.
package platform
