// A minimal MCP client over stdio for the JupyterLab e2e: starts
// `dapscope mcp`, speaks newline-delimited JSON-RPC (initialize, then
// tools/call), and returns each tool's structured result (or throws the
// tool's error text).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createWriteStream } from 'node:fs';

export async function startMCP(bin, logFile, cwd) {
  const p = spawn(bin, ['mcp', '--log-level', 'debug', '--log-file', logFile], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const errLog = createWriteStream(`${logFile}.stderr`);
  p.stderr.pipe(errLog);
  const waiting = new Map();
  let next = 1;
  let exited = null;
  p.on('exit', (code, sig) => {
    exited = `dapscope mcp exited (${code ?? sig})`;
    for (const w of waiting.values()) w.reject(new Error(exited));
    waiting.clear();
  });
  createInterface({ input: p.stdout }).on('line', (l) => {
    let m;
    try { m = JSON.parse(l); } catch { return; }
    const w = m.id !== undefined && waiting.get(m.id);
    if (w) { waiting.delete(m.id); w.resolve(m); }
  });
  const send = (msg) => p.stdin.write(`${JSON.stringify(msg)}\n`);
  const request = (method, params, timeout = 60_000) => {
    if (exited) return Promise.reject(new Error(exited));
    const id = next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { waiting.delete(id); reject(new Error(`MCP ${method} timed out after ${timeout} ms`)); }, timeout);
      waiting.set(id, { resolve: (m) => { clearTimeout(timer); resolve(m); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      send({ jsonrpc: '2.0', id, method, params });
    });
  };
  const init = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'jupyterlab-e2e', version: '1' } });
  if (init.error) throw new Error(`MCP initialize: ${JSON.stringify(init.error)}`);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });

  /** Calls a tool; returns its structuredContent (or parsed text), throws its error. */
  async function call(name, args, timeout) {
    const m = await request('tools/call', { name, arguments: args }, timeout);
    if (m.error) throw new Error(`${name}: JSON-RPC error ${JSON.stringify(m.error)}`);
    const r = m.result;
    const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text.slice(0, 600)}`);
    if (r.structuredContent) return { ...r.structuredContent, _text: text };
    try { return { ...JSON.parse(text), _text: text }; } catch { return { _text: text }; }
  }
  return {
    server: init.result?.serverInfo,
    call,
    close: () => { p.stdin.end(); setTimeout(() => p.kill('SIGKILL'), 3000).unref(); },
  };
}
