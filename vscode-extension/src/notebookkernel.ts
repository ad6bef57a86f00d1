// Which discovered kernel is the active notebook's, when VS Code's Jupyter
// extension (ms-toolsai.jupyter) runs it. Its public API (the npm package
// @vscode/jupyter-extension: kernels.getKernel(uri) → {status, language,
// onDidChangeStatus, executeCode}) says neither the kernel's id, connection
// file nor pid, and its one way to run code, executeCode, is not traceless
// (a consent dialog on first use, a notification after 1 s, a notebook-level
// execution, and a non-silent execute_request other clients see). So the
// mapping is read from what is visible without running anything: the
// kernel process is a child of this extension host (the Jupyter extension
// spawns it there), its working directory is the notebook's folder (the
// default notebookFileRoot), its connection file is the Jupyter extension's
// (kernel-v2-*.json), its language is the API kernel's, a Jupyter Server
// session names the notebook, a running cell's code is one of the
// notebook's cells, and a cell finishing in the notebook (the API's status
// going idle) coincides with one kernel's cell finishing (the sidecar's
// "stopped"). Pure functions and a class over injected parts: the unit tests
// use a fake of the API.

import type { Jupyter, Kernel as JupyterKernel } from '@vscode/jupyter-extension';
import { readFileSync } from 'fs';
import type { Kernel as KernelInfo } from './protocol';
import { baseName } from './kernelformat';

export const JUPYTER_EXTENSION_ID = 'ms-toolsai.jupyter';

/** What the mapping reads of a notebook document. */
export interface NotebookFacts {
  /** The document's URI, as a string (the key of coincidences). */
  uri: string;
  /** Its file path, for a file on disk. */
  fsPath?: string;
  cells: { text: string; executionOrder?: number }[];
}

/** What the mapping reads of the API's kernel. */
export interface ApiKernelFacts {
  language: string;
  status: string;
}

/** The process facts the mapping uses (Linux /proc; elsewhere ancestors is undefined). */
export interface ProcessFacts {
  /** This extension host's pid (the Jupyter extension's, in the same host). */
  hostPid: number;
  /** The parent chain of pid (parent first), or undefined when it cannot be read. */
  ancestors(pid: number): number[] | undefined;
}

export interface Candidate {
  id: string;
  score: number;
  decisive: boolean;
  reasons: string[];
}

export type Confidence = 'certain' | 'likely' | 'ambiguous' | 'none';

export interface Mapping {
  kernel?: KernelInfo;
  confidence: Confidence;
  /** One line for the log and the view's message. */
  reason: string;
  candidates: Candidate[];
}

const DIRECT_STATES = new Set(['dead', 'refused', 'not answering']);

function sameDir(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const norm = (p: string) => p.replace(/[\\/]+$/, '');
  return norm(a) === norm(b);
}

function dirName(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i > 0 ? p.slice(0, i) : p;
}

/**
 * The notebook a Jupyter Server session names: the Jupyter extension names
 * its remote sessions `NAME.ipynb-jvsc-<hex>` (or `NAME-jvsc-<hex>`).
 */
export function sessionNotebook(p: string): string {
  const i = p.lastIndexOf('-jvsc-');
  if (i <= 0 || !/^[a-f0-9-]+$/i.test(p.slice(i + 6))) return p;
  const f = p.slice(0, i);
  return f.toLowerCase().endsWith('.ipynb') ? f : `${f}.ipynb`;
}

/**
 * Scores each discovered kernel against the notebook and the API's kernel;
 * `learned` is a kernel id that a coincidence of finished cells tied to this
 * notebook (Coincidences).
 */
export function mapNotebook(nb: NotebookFacts, api: ApiKernelFacts, kernels: KernelInfo[], proc: ProcessFacts, learned?: string): Mapping {
  const dir = nb.fsPath ? dirName(nb.fsPath) : undefined;
  const cellTexts = new Set(nb.cells.map((c) => c.text.trim()).filter(Boolean));
  const candidates: Candidate[] = [];
  const byId = new Map<string, KernelInfo>();
  for (const k of kernels) {
    if (DIRECT_STATES.has(k.state)) continue;
    if (k.language && api.language && k.language.toLowerCase() !== api.language.toLowerCase()) continue;
    const c: Candidate = { id: k.id, score: 0, decisive: false, reasons: [] };
    if (k.id === learned) {
      // A tie-breaker, not proof: a listing's busy/idle pair in the notebook's
      // kernel can coincide with another kernel's cell end.
      c.score += 5;
      c.reasons.push('a cell of this notebook finished when, and only when, one of its cells did');
    }
    const session = k.notebook ? sessionNotebook(k.notebook) : undefined;
    if (session && nb.fsPath && (nb.fsPath.endsWith(session) || baseName(session) === baseName(nb.fsPath))) {
      c.score += 4;
      c.reasons.push(`its Jupyter Server session is ${k.notebook}`);
    }
    if (k.pid) {
      const up = proc.ancestors(k.pid);
      if (up?.includes(proc.hostPid)) {
        c.score += 3;
        c.reasons.push(`its process ${k.pid} was started by this window's extension host (pid ${proc.hostPid})`);
      }
    }
    if (dir && sameDir(k.cwd, dir)) {
      c.score += 2;
      c.reasons.push(`it runs in the notebook's folder ${dir}`);
    }
    if (k.connection_file && /^kernel-v2-/.test(baseName(k.connection_file))) {
      c.score += 1;
      c.reasons.push("its connection file is the Jupyter extension's (kernel-v2-*.json)");
    }
    if (api.status === 'busy' && k.state === 'busy' && k.cell?.code && cellTexts.has(k.cell.code.trim())) {
      c.decisive = true;
      c.score += 10;
      c.reasons.push(`it runs ${k.cell.execution_count ? `cell [${k.cell.execution_count}]` : 'a cell'} of this notebook`);
    }
    candidates.push(c);
    byId.set(k.id, k);
  }
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  if (!best || best.score < 2) {
    return { confidence: 'none', reason: `no running ${api.language || ''} kernel matches this notebook (none started by this window or in its folder)`.replace('  ', ' '), candidates };
  }
  const tied = candidates.filter((c) => c.score === best.score);
  if (tied.length > 1) {
    return { confidence: 'ambiguous', reason: `${tied.length} kernels match this notebook equally (${tied.map((c) => c.id).join(', ')}): run a cell and the one that finishes it is chosen`, candidates };
  }
  return { kernel: byId.get(best.id), confidence: best.decisive ? 'certain' : 'likely', reason: best.reasons.join('; '), candidates };
}

/**
 * Ties a notebook to a kernel from timing alone: the API says the notebook's
 * kernel went idle, the sidecar says an attached kernel's cell finished;
 * when exactly one kernel finished within `windowMs` of the notebook going
 * idle (and that notebook was the only one going idle then), that kernel is
 * the notebook's.
 */
export class Coincidences {
  private idle: { uri: string; at: number }[] = [];
  private finished: { id: string; at: number }[] = [];
  private learned = new Map<string, string>();

  constructor(private windowMs = 1500) {}

  notebookIdle(uri: string, at: number): string | undefined {
    this.idle.push({ uri, at });
    return this.settle(at);
  }

  kernelFinished(id: string, at: number): string | undefined {
    this.finished.push({ id, at });
    return this.settle(at);
  }

  /** The kernel id learned for a notebook, if any. */
  kernelOf(uri: string): string | undefined {
    return this.learned.get(uri);
  }

  forgetKernel(id: string): void {
    for (const [u, k] of this.learned) if (k === id) this.learned.delete(u);
  }

  private settle(now: number): string | undefined {
    const w = this.windowMs;
    this.idle = this.idle.filter((e) => now - e.at <= 2 * w);
    this.finished = this.finished.filter((e) => now - e.at <= 2 * w);
    let learnedUri: string | undefined;
    for (const e of this.idle) {
      const near = new Set(this.finished.filter((f) => Math.abs(f.at - e.at) <= w).map((f) => f.id));
      const otherNotebooks = new Set(this.idle.filter((o) => Math.abs(o.at - e.at) <= w).map((o) => o.uri));
      if (near.size === 1 && otherNotebooks.size === 1) {
        this.learned.set(e.uri, [...near][0]);
        learnedUri = e.uri;
      }
    }
    return learnedUri;
  }
}

/** The parent chain of a process from /proc/PID/stat (Linux); undefined elsewhere or when it is gone. */
export function procAncestors(pid: number, read: (p: string) => string = (p) => readFileSync(p, 'utf8')): number[] | undefined {
  const out: number[] = [];
  let cur = pid;
  for (let i = 0; i < 64 && cur > 1; i++) {
    let stat: string;
    try {
      stat = read(`/proc/${cur}/stat`);
    } catch {
      return i === 0 ? undefined : out;
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(rest[1]);
    if (!Number.isInteger(ppid) || ppid <= 0) break;
    out.push(ppid);
    cur = ppid;
  }
  return out;
}

/** The parts of vscode.extensions the link uses (the tests fake them). */
export interface ExtensionHost {
  getExtension(id: string): { isActive: boolean; activate(): Thenable<unknown>; exports: unknown } | undefined;
}

/** The Jupyter extension's API when it is installed and active (or activated for a notebook). */
export class JupyterLink {
  constructor(
    private host: ExtensionHost,
    private log: (m: string) => void,
  ) {}

  installed(): boolean {
    return this.host.getExtension(JUPYTER_EXTENSION_ID) !== undefined;
  }

  /**
   * The API. The Jupyter extension activates itself when a notebook opens;
   * activate() is asked only with a notebook open, where it changes nothing.
   */
  async api(activate: boolean): Promise<Jupyter | undefined> {
    const ext = this.host.getExtension(JUPYTER_EXTENSION_ID);
    if (!ext) return undefined;
    try {
      if (!ext.isActive) {
        if (!activate) return undefined;
        await ext.activate();
      }
      const api = ext.exports as Partial<Jupyter> | undefined;
      if (!api?.kernels || typeof api.kernels.getKernel !== 'function') {
        this.log('jupyter: this version of the Jupyter extension has no kernels API');
        return undefined;
      }
      return api as Jupyter;
    } catch (e) {
      this.log(`jupyter: activating the Jupyter extension failed: ${(e as Error).message}`);
      return undefined;
    }
  }

  /**
   * The API's kernel of a notebook, or undefined (no kernel, or one the user
   * has not run a cell in yet: the API hides pre-started kernels). Reads only
   * getKernel, status and language: never executeCode.
   */
  async kernelOf<U>(uri: U): Promise<JupyterKernel | undefined> {
    const a = await this.access(uri);
    return a.state === 'granted' ? a.kernel : undefined;
  }

  /**
   * What the API says of a notebook's kernel, access refusals told apart:
   * the Jupyter extension asks the user before another extension may use
   * its kernels and throws an error named vscode.jupyter.apiAccessRevoked
   * when they refused, or revoked it later (Jupyter: Manage Access To
   * Jupyter Kernels). Recent versions ask only in executeCode, which
   * dapscope never calls; older ones asked in getKernel. Never throws.
   */
  async access<U>(uri: U): Promise<ApiAccess> {
    if (!this.installed()) return { state: 'unavailable', message: 'the Jupyter extension (ms-toolsai.jupyter) is not installed' };
    const api = await this.api(true);
    if (!api) return { state: 'unavailable', message: 'the Jupyter extension has no kernels API (see the dapscope output)' };
    try {
      const k = (await api.kernels.getKernel(uri as never)) ?? undefined;
      if (!k) return { state: 'none' };
      // A revoked kernel wrapper may throw on any read: read what mapping needs now.
      const facts = { language: String(k.language ?? ''), status: String(k.status ?? 'unknown') };
      return { state: 'granted', kernel: k, facts };
    } catch (e) {
      if (isAccessRevoked(e)) {
        this.log(`jupyter: the Jupyter extension refused dapscope access to its kernels: ${(e as Error).message}`);
        return { state: 'refused', message: ACCESS_REFUSED };
      }
      this.log(`jupyter: getKernel failed: ${(e as Error).message}`);
      return { state: 'unavailable', message: `the Jupyter extension's getKernel failed: ${(e as Error).message}` };
    }
  }
}

/** The error name the Jupyter extension gives a refused or revoked API access (it says it never changes). */
export const ACCESS_REVOKED_ERROR = 'vscode.jupyter.apiAccessRevoked';

export const ACCESS_REFUSED =
  "the Jupyter extension refused dapscope access to its kernels (allow it with the command 'Jupyter: Manage Access To Jupyter Kernels')";

/** Whether an error of the Jupyter API is its refused or revoked access. */
export function isAccessRevoked(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const { name, message } = e as { name?: unknown; message?: unknown };
  return name === ACCESS_REVOKED_ERROR || (typeof message === 'string' && /access to jupyter kernel has been revoked/i.test(message));
}

/** The API's answer for a notebook: its kernel, none yet, access refused, or no API at all. */
export type ApiAccess =
  | { state: 'granted'; kernel: JupyterKernel; facts: ApiKernelFacts }
  | { state: 'none' }
  | { state: 'refused'; message: string }
  | { state: 'unavailable'; message: string };
