// ending.js: how a run ends, for the MCP outcome tests. "kill" kills the
// program with SIGKILL; "detach" spawns a `sleep` with detached: true (a
// process group of its own) and stops at a breakpoint, to be terminated.
const { spawn } = require('child_process');

const mode = process.argv[2] || 'kill';
console.log('mode', mode);
if (mode === 'kill') {
  process.kill(process.pid, 'SIGKILL');
}
const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
child.unref();
console.log('child', child.pid); // STOP
console.log('not reached after a terminate');
