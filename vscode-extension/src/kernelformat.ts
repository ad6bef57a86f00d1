// How the Kernel variables view words things, as plain functions (no
// `vscode` import, so the unit tests run them): a kernel's label,
// description and tooltip, a busy kernel's cell and how long it has run, a
// variable's one-line summary and tooltip, its icon, and whether an error
// the sidecar returned means "busy".

import type { KernelCell, KernelInfo, KernelVariable } from './protocol';

/** The last path segment of a file path or URL path. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : p;
}

/** 850 ms, 12 s, 3 min 05 s, 2 h 01 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** 80 KB, 1.2 MB (decimal units, as the probe's summaries write them). */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return i === 0 ? `${v} B` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** The first line of a cell's code, cut to max characters. */
export function firstLine(code: string, max = 50): string {
  const lines = code.trim().split('\n');
  let line = lines[0] ?? '';
  if (line.length > max) line = line.slice(0, max - 1) + '…';
  else if (lines.length > 1) line += ' …';
  return line;
}

/** What a busy kernel is doing, known or not, e.g. `cell [3] train(model)`. */
export function cellText(cell: KernelCell | undefined): string {
  if (!cell || (!cell.known && !cell.code)) return 'a cell (its code is unknown)';
  const n = cell.executionCount ? `[${cell.executionCount}] ` : '';
  return `cell ${n}${cell.code ? firstLine(cell.code) : ''}`.trim();
}

/** Milliseconds since an RFC 3339 time, or undefined. */
export function since(started: string | undefined, now: number): number | undefined {
  if (!started) return undefined;
  const t = Date.parse(started);
  return Number.isNaN(t) ? undefined : Math.max(0, now - t);
}

/** What a busy kernel is running, for how long: `busy 12 s · cell [3] train(model)`. */
export function busyText(cell: KernelCell | undefined, startedMs: number | undefined, now: number): string {
  const paused = cell?.paused ? 'paused in the debugger' : 'busy';
  const unknownStart = cell !== undefined && cell.known === false;
  const ran = startedMs === undefined ? '' : ` ${unknownStart ? 'at least ' : ''}${formatDuration(now - startedMs)}`;
  return `${paused}${ran} · ${cellText(cell)}`;
}

/** The kernel's name in the view: its notebook, else its id. */
export function kernelLabel(k: KernelInfo): string {
  return k.notebook ? baseName(k.notebook) : k.id;
}

const TROUBLE = new Set(['dead', 'not answering', 'refused']);

/** Whether a kernel cannot be attached (stale file, refused file, hung). */
export function unusable(k: KernelInfo): boolean {
  return TROUBLE.has(k.state);
}

/**
 * The kernel's line in the view: language, state (busy with the cell and for
 * how long), pid; `busySince` is when the view saw the cell start (ms) if the
 * listing does not say.
 */
export function kernelDescription(k: KernelInfo, now: number, busySince?: number, cell?: KernelCell): string {
  const lang = k.language ?? k.kernelName ?? '';
  let state = k.state;
  const c = cell ?? k.cell;
  if (k.state === 'busy' || busySince !== undefined) {
    const start = busySince ?? (c?.started ? Date.parse(c.started) : undefined);
    state = busyText(c, start !== undefined && !Number.isNaN(start) ? start : undefined, now);
  }
  const pid = k.pid ? `pid ${k.pid}` : '';
  return [lang, state, pid].filter(Boolean).join(' · ');
}

/** The kernel's tooltip (markdown): where it was found and everything the listing knows. */
export function kernelTooltip(k: KernelInfo, notebookNote?: string): string {
  const rows: [string, string | undefined][] = [
    ['id', k.id],
    ['notebook', k.notebook],
    ['this window', notebookNote],
    ['language', [k.language, k.implementation].filter(Boolean).join(' / ') || undefined],
    ['state', k.state + (k.error ? `: ${k.error}` : '')],
    ['connection file', k.connectionFile],
    ['server', k.server],
    ['pid', k.pid ? String(k.pid) : undefined],
    ['cwd', k.cwd],
    ['started', k.started],
    ['found in', k.found === 'runtime-dir' ? 'the Jupyter runtime directory' : k.found === 'process' ? 'a kernel process (-f FILE)' : k.found],
  ];
  return rows
    .filter(([, v]) => v)
    .map(([n, v]) => `**${n}**: ${mdEscape(v!)}`)
    .join('  \n');
}

/** A variable's line: the probe's smart summary, else its type and shape. */
export function variableDescription(v: KernelVariable): string {
  if (v.summary) return v.summary;
  const shape = v.shape?.length ? ` ${v.shape.map((n) => n.toLocaleString('en-US')).join(' × ')}` : '';
  return `${v.type}${shape}`;
}

/** A variable's tooltip (markdown). */
export function variableTooltip(v: KernelVariable): string {
  const rows: [string, string | undefined][] = [
    ['type', v.type],
    ['kind', v.kind],
    ['shape', v.shape?.length ? v.shape.map((n) => n.toLocaleString('en-US')).join(' × ') : undefined],
    ['dtype', v.dtype],
    ['memory', v.memory !== undefined ? formatBytes(v.memory) : undefined],
  ];
  const head = `\`${mdEscape(v.name)}\` ${mdEscape(v.summary || v.type)}`;
  return [head, ...rows.filter(([, x]) => x).map(([n, x]) => `**${n}**: ${mdEscape(x!)}`), '', 'Click to open it in the data viewer.'].join('  \n');
}

/** A codicon id for a variable's kind. */
export function variableIcon(v: KernelVariable): string {
  const k = (v.kind || v.type || '').toLowerCase();
  if (k === 'dataframe' || k === 'series' || k.includes('table')) return 'table';
  if (k === 'ndarray' || k === 'tensor' || k === 'list' || k === 'tuple' || k.includes('array')) return 'symbol-array';
  if (k === 'dict' || k === 'mapping') return 'symbol-namespace';
  if (k === 'str' || k === 'string' || k === 'bytes') return 'symbol-string';
  if (k === 'int' || k === 'float' || k === 'number' || k === 'complex' || k === 'bool') return 'symbol-numeric';
  if (k === 'module') return 'symbol-module';
  if (k === 'function' || k === 'method' || k === 'builtin') return 'symbol-method';
  if (k === 'class' || k === 'type') return 'symbol-class';
  return 'symbol-variable';
}

/** A failure of a sidecar call: its error code (if typed) and message. */
export interface CallFailure {
  code?: string;
  message: string;
}

/** Reads a rejected JSON-RPC call or a result's typed `error` into a CallFailure. */
export function failureOf(e: unknown): CallFailure {
  const o = e as { code?: unknown; message?: unknown; data?: { code?: unknown; message?: unknown } } | undefined;
  const dataCode = typeof o?.data?.code === 'string' ? o.data.code : undefined;
  const code = dataCode ?? (typeof o?.code === 'string' ? o.code : undefined);
  const message = typeof o?.message === 'string' ? o.message : String(e);
  return { code, message };
}

/** Whether a failure says the kernel is running a cell (answered at once, never queued). */
export function isBusy(f: CallFailure): boolean {
  return /BUSY/.test(f.code ?? '') || /\bkernel is busy\b|\bis busy\b/i.test(f.message);
}

/** Markdown-escapes text for a tooltip. */
export function mdEscape(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+!|<>~-]/g, (c) => `\\${c}`);
}
