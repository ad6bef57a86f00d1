// The Kernel variables view's model, without `vscode` (the unit tests drive
// it with a scripted sidecar): the kernels the sidecar lists, each attached
// on first expansion (dapscope/kernelAttach) with its variables
// (dapscope/kernelVariables) cached until the kernel's session says a cell
// finished ("stopped"); a busy kernel answers at once and keeps its last
// variables under a busy line (cell, for how long); every failure becomes
// a message node, never an exception.

import type { KernelAttachResult, Kernel as KernelInfo, KernelsResult, KernelVariable, KernelVariablesResult, StopLocation } from './protocol';
import { cellText, failureOf, isBusy, parseBusy, unusable, type BusyState, type CallFailure } from './kernelformat';

/** The sidecar calls the view makes. */
export interface KernelCalls {
  list(): Promise<KernelsResult>;
  attach(k: KernelInfo): Promise<KernelAttachResult>;
  variables(sessionId: string, all: boolean): Promise<KernelVariablesResult & { error?: CallFailure }>;
}

export interface KernelNode {
  kind: 'kernel';
  key: string;
  info: KernelInfo;
  sessionId?: string;
  vars?: KernelVariable[];
  /** The last failure of attach or variables (not busy). */
  failure?: CallFailure;
  busy?: BusyState;
  /** Where the last cell left the kernel (the stop's description: "after In[7]"). */
  after?: string;
  /** The variables must be fetched again on the next expansion or refresh. */
  stale: boolean;
  /** Counts session events: an answer that started before the last one is not applied. */
  epoch: number;
  /** The active notebook this kernel was mapped to (notebookkernel.ts), for the label. */
  notebook?: string;
  loading?: Promise<void>;
  /** The variable nodes, kept across refreshes (the tree keeps its selection). */
  varNodes: Map<string, VariableNode>;
  /**
   * The fingerprints (KernelVariable.fp) of the variables as the last stop
   * left them, by name: a variable whose fingerprint differs, or that was
   * not there, changed since the last stop. Undefined before a second stop.
   */
  lastStop?: Map<string, string | undefined>;
}

export interface VariableNode {
  kind: 'variable';
  parent: KernelNode;
  v: KernelVariable;
  /** Changed since the last stop: its content's fingerprint differs, or it is new (KernelNode.lastStop). */
  changed: boolean;
}

export interface MessageNode {
  kind: 'message';
  parent?: KernelNode;
  severity: 'info' | 'busy' | 'error';
  text: string;
  detail?: string;
}

export type Node = KernelNode | VariableNode | MessageNode;

/**
 * Whether a variable changed since the last stop: a fingerprint (the
 * value's content) other than the stop's, or a name the stop did not have.
 * A value without a fingerprint (it could not be taken) never reads changed.
 */
export function changedSince(lastStop: Map<string, string | undefined> | undefined, v: KernelVariable): boolean {
  if (!lastStop || !v.fp) return false;
  if (!lastStop.has(v.name)) return true;
  const was = lastStop.get(v.name);
  return was !== undefined && was !== v.fp;
}

/** The identity of a kernel across listings: its connection file, else server and id. */
export function kernelKey(k: KernelInfo): string {
  return k.connection_file ? `file:${k.connection_file}` : `id:${k.server ?? ''}:${k.id}`;
}

export class KernelTree {
  private nodes = new Map<string, KernelNode>();
  private listed = false;
  private listing?: Promise<void>;
  private listFailure?: string;
  /** Also modules, functions, classes and IPython's own names. */
  all = false;

  constructor(
    private calls: KernelCalls,
    private log: (m: string) => void = () => {},
    private now: () => number = Date.now,
  ) {}

  /** The kernel nodes of the last listing. */
  kernels(): KernelNode[] {
    return [...this.nodes.values()];
  }

  /** The kernel node with this sidecar session, if any. */
  bySession(sessionId: string): KernelNode | undefined {
    return this.kernels().find((n) => n.sessionId === sessionId);
  }

  byId(id: string): KernelNode | undefined {
    return this.kernels().find((n) => n.info.id === id);
  }

  /** Lists again on the next roots(), keeping the cached variables (the periodic listing). */
  relist(): void {
    this.listed = false;
  }

  /** Lists again and fetches every kernel's variables again (the Refresh button). */
  invalidate(): void {
    this.listed = false;
    for (const n of this.nodes.values()) n.stale = true;
  }

  /** The top level: the kernels, or a message saying why there are none. */
  async roots(): Promise<Node[]> {
    if (!this.listed) await this.list();
    if (this.listFailure) return [{ kind: 'message', severity: 'error', text: `Could not list kernels: ${this.listFailure}`, detail: 'dapscope: Show Output has the sidecar log.' }];
    if (this.nodes.size === 0) {
      return [{ kind: 'message', severity: 'info', text: 'No running Jupyter kernels found', detail: "Searched the Jupyter runtime directory and running kernel processes' -f FILE arguments." }];
    }
    return this.kernels();
  }

  private list(): Promise<void> {
    this.listing ??= (async () => {
      try {
        const res = await this.calls.list();
        this.listFailure = undefined;
        const seen = new Set<string>();
        for (const k of res?.kernels ?? []) {
          const key = kernelKey(k);
          seen.add(key);
          const n = this.nodes.get(key);
          if (n) {
            n.info = k;
            this.busyFromListing(n);
          } else {
            const fresh: KernelNode = { kind: 'kernel', key, info: k, stale: true, epoch: 0, varNodes: new Map() };
            this.busyFromListing(fresh);
            this.nodes.set(key, fresh);
          }
        }
        for (const key of [...this.nodes.keys()]) if (!seen.has(key)) this.nodes.delete(key);
        this.listed = true;
      } catch (e) {
        this.listFailure = failureOf(e).message;
        this.log(`kernels: listing failed: ${this.listFailure}`);
        this.listed = true;
      }
    })().finally(() => (this.listing = undefined));
    return this.listing;
  }

  private busyFromListing(n: KernelNode): void {
    if (n.info.state === 'busy') {
      const at = n.info.cell?.started ?? n.info.cell?.started_by;
      const started = at ? Date.parse(at) : NaN;
      n.busy = { cell: n.info.cell ?? n.busy?.cell, since: Number.isNaN(started) ? (n.busy?.since ?? this.now()) : started };
    } else if (n.info.state === 'idle' && n.busy) {
      n.busy = undefined;
      n.stale = true;
    }
  }

  /** A kernel's children: a busy line, a failure, then its variables. */
  async children(n: KernelNode): Promise<Node[]> {
    if (unusable(n.info)) {
      return [{ kind: 'message', parent: n, severity: 'error', text: `${n.info.state}: ${n.info.error ?? 'this kernel cannot be reached'}` }];
    }
    if (n.stale) await this.load(n);
    const out: Node[] = [];
    if (n.busy) {
      out.push({
        kind: 'message',
        parent: n,
        severity: 'busy',
        text: '', // worded by the view at each tick (busyText)
        detail: `${n.busy.message ?? `The kernel runs ${cellText(n.busy.cell)}.`} Its variables refresh when the cell finishes.${n.vars ? ' Below: the variables before it.' : ''}`,
      });
    }
    if (n.failure) out.push({ kind: 'message', parent: n, severity: 'error', text: n.failure.message, detail: n.failure.code });
    if (n.vars) {
      const keep = new Map<string, VariableNode>();
      for (const v of n.vars) {
        const vn = n.varNodes.get(v.name) ?? { kind: 'variable', parent: n, v, changed: false };
        vn.v = v;
        vn.changed = changedSince(n.lastStop, v);
        keep.set(v.name, vn);
        out.push(vn);
      }
      n.varNodes = keep;
      if (n.vars.length === 0 && !n.busy) out.push({ kind: 'message', parent: n, severity: 'info', text: this.all ? 'No names in this kernel' : 'No user variables yet' });
    }
    return out;
  }

  /** Attaches if needed and fetches the variables; concurrent calls share one load. */
  load(n: KernelNode): Promise<void> {
    n.loading ??= (async () => {
      try {
        // Again when a session event came meanwhile (a cell started or ended while we asked).
        let i = 0;
        do await this.fetch(n, true, n.epoch);
        while (n.stale && ++i < 3);
      } finally {
        n.loading = undefined;
      }
    })();
    return n.loading;
  }

  private async fetch(n: KernelNode, retry: boolean, epoch: number): Promise<void> {
    if (!n.sessionId) {
      try {
        const a = await this.calls.attach(n.info);
        n.sessionId = a.sessionId;
        this.log(`kernels: attached to ${n.info.id} as session ${a.sessionId}`);
      } catch (e) {
        n.failure = { ...failureOf(e), message: `Could not attach: ${failureOf(e).message}` };
        n.stale = false;
        this.log(`kernels: attach ${n.info.id} failed: ${n.failure.message}`);
        return;
      }
    }
    let res: (KernelVariablesResult & { error?: CallFailure }) | undefined;
    let fail: CallFailure | undefined;
    try {
      res = await this.calls.variables(n.sessionId, this.all);
      if (res?.error) fail = res.error;
    } catch (e) {
      fail = failureOf(e);
    }
    if (n.epoch !== epoch) {
      n.stale = true; // asked before the last event: its answer may say busy after the cell ended
      return;
    }
    if (fail && isBusy(fail)) {
      // The sidecar names the cell and how long it has run; keep what the view knew if it does not.
      n.busy = parseBusy(fail.message, this.now()) ?? { since: n.busy?.since ?? this.now(), cell: n.busy?.cell, message: fail.message };
      n.failure = undefined;
      n.stale = false; // refreshed by the session's "stopped" (the cell finished)
      this.log(`kernels: ${n.info.id} is busy: ${fail.message}`);
      return;
    }
    if (fail && retry && /NOT_FOUND|SESSION|not found|unknown session|has ended/i.test(`${fail.code ?? ''} ${fail.message}`)) {
      // The sidecar restarted or the session ended: attach again, once.
      n.sessionId = undefined;
      return this.fetch(n, false, epoch);
    }
    n.stale = false;
    if (fail) {
      n.failure = fail;
      this.log(`kernels: variables of ${n.info.id} failed: ${fail.message}`);
      return;
    }
    n.failure = undefined;
    n.busy = undefined;
    n.vars = res?.items ?? [];
  }

  /**
   * A sidecar session event. For a kernel session `continued` is a cell
   * starting, `stopped` a cell finishing (the variables are fetched again),
   * `terminated` the kernel gone. Returns the node to redraw, `'all'` for the
   * whole tree, or undefined when the event is not a kernel's.
   */
  onSessionEvent(sessionId: string, kind: string, stop?: StopLocation): KernelNode | 'all' | undefined {
    const n = this.bySession(sessionId);
    if (!n) return undefined;
    n.epoch++;
    if (kind === 'continued') {
      // A cell started: busy from now; the next variables call (answered at once) names it.
      n.busy = { since: this.now() };
      n.stale = true;
      return n;
    }
    if (kind === 'stopped') {
      // What the previous stop left: the variables fetched since are compared with it.
      if (n.vars) n.lastStop = new Map(n.vars.map((v) => [v.name, v.fp]));
      n.busy = undefined;
      n.after = stop?.description || n.after;
      n.stale = true;
      return n;
    }
    if (kind === 'terminated') {
      n.sessionId = undefined;
      n.busy = undefined;
      this.invalidate();
      return 'all';
    }
    return undefined;
  }

  /** The kernels shown as busy (their line ticks every second). */
  busyKernels(): KernelNode[] {
    return this.kernels().filter((n) => n.busy !== undefined || n.info.state === 'busy');
  }
}
