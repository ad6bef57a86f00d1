// Pure helpers for the `dapscope` debug type: which adapter a configuration
// uses, launch defaults (`${file}`), and proxy address parsing.

import { parseAdapterKind, type AdapterKind } from './adapter';

export interface DebugConfig {
  type: string;
  request: string;
  name: string;
  [k: string]: unknown;
}

/** Which adapter a dapscope configuration uses: explicit `adapter`, else by program extension or language. */
export function adapterFor(config: Record<string, unknown>, languageId?: string): AdapterKind {
  const explicit = parseAdapterKind(config.adapter);
  if (explicit) return explicit;
  const program = String(config.program ?? '');
  if (program.endsWith('.go')) return 'dlv';
  if (program.endsWith('.py') || config.module) return 'debugpy';
  if (/\.[mc]?js$/.test(program)) return 'node';
  if (languageId === 'rust' || languageId === 'c' || languageId === 'cpp') return 'lldb';
  return languageId === 'go' ? 'dlv' : 'debugpy';
}

/** Fills in a launch configuration: F5 with no launch.json debugs the current file. */
export function withDefaults(config: Record<string, unknown>, languageId?: string): DebugConfig {
  const c: Record<string, unknown> = { ...config };
  if (!c.type && !c.request && !c.name) {
    c.type = 'dapscope';
    c.request = 'launch';
    c.name = 'dapscope: current file';
  }
  c.type = c.type ?? 'dapscope';
  c.request = c.request ?? 'launch';
  c.name = c.name ?? 'dapscope';
  const adapter = adapterFor(c, languageId);
  c.adapter = adapter;
  if (c.request === 'launch') {
    // lldb debugs a compiled binary: the source file is no program
    if (!c.program && !c.module && adapter !== 'lldb') c.program = '${file}';
    if (adapter === 'debugpy') {
      c.console = c.console ?? 'internalConsole';
      c.justMyCode = c.justMyCode ?? true;
    } else if (adapter === 'dlv') {
      c.mode = c.mode ?? 'debug';
    }
  }
  return c as DebugConfig;
}

/** A proxy address: a unix socket or Windows named pipe path, or a loopback host and port. */
export type ProxyAddress = { pipe: string } | { host: string; port: number };

/** Parses "unix:/path", "pipe:\\\\.\\pipe\\name" (Windows) or "host:port" (IPv6 in brackets allowed). */
export function parseAddress(addr: string): ProxyAddress {
  const a = addr.trim();
  if (a.startsWith('unix:')) {
    const pipe = a.slice('unix:'.length);
    if (!pipe.startsWith('/')) throw new Error(`dapscope: bad proxy socket ${JSON.stringify(addr)}`);
    return { pipe };
  }
  if (a.startsWith('pipe:')) {
    // A local named pipe only: \\.\pipe\… (Node connects to it like a socket).
    const pipe = a.slice('pipe:'.length);
    if (!/^\\\\\.\\pipe\\[^\\/]+$/.test(pipe)) throw new Error(`dapscope: bad proxy pipe ${JSON.stringify(addr)}`);
    return { pipe };
  }
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(a);
  if (!m) throw new Error(`dapscope: bad proxy address ${JSON.stringify(addr)}`);
  return { host: m[1] || '127.0.0.1', port: Number(m[2]) };
}
