// How the Kernel variables view words things, as plain functions (no
// `vscode` import, so the unit tests run them): a kernel's label,
// description and tooltip, a busy kernel's cell and how long it has run, a
// variable's one-line summary and tooltip, its icon, and whether an error
// the sidecar returned means "busy".

import type { KernelCell, Kernel as KernelInfo, KernelVariable } from './protocol';

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
  const n = cell.execution_count ? `[${cell.execution_count}] ` : '';
  return `cell ${n}${cell.code ? firstLine(cell.code) : ''}`.trim();
}

/** What the view knows of a running cell. */
export interface BusyState {
  /** When the cell started (ms since the epoch), as far as the view knows. */
  since?: number;
  cell?: KernelCell;
  /** The cell is paused in the kernel's debugger. */
  paused?: boolean;
  /** The sidecar's own words (NOT_PAUSED while a cell runs). */
  message?: string;
}

/** What a busy kernel is running, for how long: `busy 12 s · cell [3] train(model)`. */
export function busyText(b: BusyState, now: number): string {
  const what = b.paused ? 'paused in the debugger' : 'busy';
  const atLeast = b.cell !== undefined && !b.cell.known ? 'at least ' : '';
  const ran = b.since === undefined ? '' : ` ${atLeast}${formatDuration(now - b.since)}`;
  return `${what}${ran} · ${cellText(b.cell)}`;
}

/** Milliseconds of a Go duration string (800ms, 2.1s, 1m3.2s, 1h2m3s), or undefined. */
export function goDuration(s: string): number | undefined {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, 'µs': 0.001, us: 0.001, ns: 1e-6 };
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)(ms|µs|us|ns|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== s) return undefined;
  return parts.reduce((t, p) => t + Number(p[1]) * units[p[2]], 0);
}

/**
 * Reads the sidecar's busy answer (server/kernel BusyError.Summary: "kernel
 * is busy: cell [3] (train(model) …) has been running for 2.1s (at least: …);
 * it is paused in the debugger: …") into a BusyState; undefined when the
 * message is not one.
 */
export function parseBusy(message: string, now: number): BusyState | undefined {
  const m = /kernel is busy: (?:cell \[(\d+)\] \((.*)\)|a cell \(its code is unknown\)) has been running for ([0-9][0-9.hmsuµn]*)/s.exec(message);
  if (!m) return undefined;
  const cell: KernelCell = m[1] ? { known: true, execution_count: Number(m[1]), code: m[2] } : { known: false };
  const ms = goDuration(m[3]);
  return { cell, since: ms === undefined ? undefined : now - ms, paused: /paused in the debugger/.test(message), message };
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
 * The kernel's line in the view: language, state (busy: the cell and for how
 * long; idle: after which cell), pid.
 */
export function kernelDescription(k: KernelInfo, now: number, busy?: BusyState, after?: string): string {
  const lang = k.language ?? k.kernel_name ?? '';
  let state = k.state;
  if (busy) state = busyText(busy, now);
  else if (k.state === 'busy') {
    const started = k.cell?.started ? Date.parse(k.cell.started) : NaN;
    state = busyText({ cell: k.cell, since: Number.isNaN(started) ? undefined : started }, now);
  } else if (after && k.state === 'idle') state = `idle · ${after}`;
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
    ['connection file', k.connection_file],
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

/**
 * A variable's line: the probe's smart summary, else why it could not be
 * read, else its type and shape; `changed · ` first when the last cell
 * changed its content (the fingerprint: kerneltree.ts's changedSince).
 */
export function variableDescription(v: KernelVariable, changed = false): string {
  const mark = changed ? `${CHANGED} · ` : '';
  if (v.summary) return mark + v.summary;
  if (v.error) return `${mark}${v.type} · ${v.error}`;
  const shape = v.shape?.length ? ` ${v.shape.map((n) => n.toLocaleString('en-US')).join(' × ')}` : '';
  return `${mark}${v.type}${shape}`;
}

/** The word a changed variable's line starts with. */
export const CHANGED = 'changed';

/** A variable's tooltip (markdown). */
export function variableTooltip(v: KernelVariable, changed = false): string {
  const rows: [string, string | undefined][] = [
    ['type', v.type],
    ['kind', v.kind],
    ['shape', v.shape?.length ? v.shape.map((n) => n.toLocaleString('en-US')).join(' × ') : undefined],
    ['dtype', v.dtype],
    ['memory', v.memory !== undefined ? formatBytes(v.memory) : undefined],
    ['not read', v.error],
    ['changed', changed ? 'since the last stop: its content differs (its fingerprint), though its summary may not' : undefined],
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
