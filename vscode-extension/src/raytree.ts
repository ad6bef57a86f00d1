// The "Ray: paused tasks" section of the Run and Debug view, its model (no
// `vscode` import, unit-tested; the view is rayview.ts): one item per task
// of the cluster paused in Ray's debugger (name, function, pid, node,
// debugpy endpoint), the tasks attached from this window marked (Ray moves
// a task out of its paused list once a debugger attaches: the listing's
// `debugging` workers still running a task are shown, marked), a message
// item when Ray cannot be reached or nothing is paused, the Attach action
// (ray.ts's attachTasks: justMyCode off, under the oldest Ray session of
// this window, so "Compare across Processes" asks them all), and the
// refresh policy: every few seconds only while the view is visible.

import { attachTasks, endpoint, taskLabel, type RayAttachOutcome, type RayListParams, type RayListResult, type RayTask, type RayUi } from './ray';

/** The default address of ray.ts's listing, named in messages when none is configured. */
export const DEFAULT_DASHBOARD = 'http://127.0.0.1:8265';

export type RayNode =
  | {
      kind: 'task';
      /** Stable across refreshes: the worker. */
      key: string;
      label: string;
      description: string;
      tooltip: string;
      task: RayTask;
      /** A debugger is attached: from this window ('here') or from elsewhere. */
      attached?: 'here' | 'elsewhere';
    }
  | { kind: 'message'; key: string; label: string; tooltip: string };

/** A listing, or why there is none. */
export type Listed = { listing: RayListResult } | { error: string };

/** The items of one listing (or of its failure). attachedHere: the workers of this window's live Ray sessions. */
export function rayNodes(got: Listed, params: RayListParams, attachedHere: ReadonlySet<string>): RayNode[] {
  if ('error' in got) {
    const where = params.address || `${DEFAULT_DASHBOARD} (the default)`;
    const hint = params.address ? 'Is the cluster running, and its dashboard on?' : 'Set dapscope.ray.address to your cluster\'s dashboard URL or GCS address.';
    return [{ kind: 'message', key: 'error', label: `Ray not reachable at ${where}`, tooltip: `${got.error}\n\n${hint}` }];
  }
  const l = got.listing;
  const nodes: RayNode[] = l.tasks.map((t) => taskNode(t, attachedHere.has(t.worker_id) ? 'here' : undefined));
  // Attached tasks leave Ray's paused list; those still running a task stay in view, marked.
  for (const t of l.debugging ?? []) {
    if (t.name || t.task_id) nodes.push(taskNode(t, attachedHere.has(t.worker_id) ? 'here' : 'elsewhere'));
  }
  if (nodes.length === 0) {
    nodes.push({
      kind: 'message',
      key: 'none',
      label: 'No Ray task paused',
      tooltip: `No task of the cluster at ${l.dashboard} waits in the debugger. A task pauses at breakpoint() when the cluster runs with RAY_DEBUG=1 (Ray's default), or at an unhandled exception with RAY_DEBUG_POST_MORTEM=1.`,
    });
  }
  return nodes;
}

function taskNode(t: RayTask, attached?: 'here' | 'elsewhere'): RayNode {
  const fn = t.function && t.function !== t.name ? `${t.function} · ` : '';
  const mark = attached === 'here' ? ' · attached' : attached === 'elsewhere' ? ' · debugger attached' : '';
  const node = (t.node_id ?? '?').slice(0, 8);
  const lines = [
    `${taskLabel(t)}${t.function ? ` — ${t.function}` : ''}`,
    `pid ${t.pid} on node ${t.node_id ?? '?'}`,
    `debugpy at ${endpoint(t)}${t.paused_threads > 1 ? `, ${t.paused_threads} threads paused` : ''}`,
  ];
  if (t.task_id) lines.push(`task ${t.task_id}`);
  if (attached === 'here') lines.push('attached in this window');
  else if (attached === 'elsewhere') lines.push('a debugger is attached (another window or client), or was and the task runs on');
  if (t.note) lines.push(`cannot be attached: ${t.note}`);
  return {
    kind: 'task',
    key: `worker:${t.worker_id}`,
    label: t.note ? `$(warning) ${taskLabel(t)}` : taskLabel(t),
    description: `${fn}pid ${t.pid} · node ${node} · ${endpoint(t)}${mark}`,
    tooltip: lines.join('\n'),
    task: t,
    attached,
  };
}

/** What the view's model needs of VS Code and the sidecar (a fake in the tests). */
export interface RayViewUi<S> extends Pick<RayUi<S>, 'attach' | 'error'> {
  list(params: RayListParams): Promise<RayListResult>;
  params(): RayListParams;
  /** This window's live Ray sessions by worker, oldest first. */
  sessions(): ReadonlyMap<string, S>;
  /** The items changed. */
  changed(): void;
}

/** The view's model: the last listing's items, refresh (one listing at a time), attach. */
export class RayTreeModel<S> {
  nodes: RayNode[] = [];
  private inflight?: Promise<RayNode[]>;
  private last?: { got: Listed; params: RayListParams };
  private resolved?: { gcs: string; dashboard: string };
  private failures = 0;
  private skip = 0;

  constructor(private readonly ui: RayViewUi<S>) {}

  /** Lists again (a call while one listing runs shares it). */
  refresh(): Promise<RayNode[]> {
    this.inflight ??= (async () => {
      const params = this.ui.params();
      // A GCS address is resolved to its dashboard with Python: once, not at every tick.
      const gcs = params.address && !params.address.includes('://') ? params.address : undefined;
      const asked = gcs && this.resolved?.gcs === gcs ? { ...params, address: this.resolved.dashboard } : params;
      let got: Listed;
      try {
        got = { listing: await this.ui.list(asked) };
        this.failures = this.skip = 0;
        this.resolved = gcs ? { gcs, dashboard: got.listing.dashboard } : undefined;
      } catch (e) {
        got = { error: (e as Error)?.message ?? String(e) };
        this.resolved = undefined;
        this.failures++;
        this.skip = Math.min(2 ** this.failures - 1, 11);
      }
      this.last = { got, params };
      this.remark();
      return this.nodes;
    })().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  /**
   * The poller's tick: lists again, but after a failed listing (Ray not
   * running) skips 1, 3, 7, then 11 ticks between tries; the Refresh
   * button and each showing list at once.
   */
  tick(): void {
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    void this.refresh();
  }

  /** Marks again from this window's sessions, without listing (a Ray session started or ended). */
  remark(): void {
    if (!this.last) return;
    this.nodes = rayNodes(this.last.got, this.last.params, new Set(this.ui.sessions().keys()));
    this.ui.changed();
  }

  /** Attaches one task, under the oldest live Ray session of this window (the root of what is compared), then lists again. */
  async attach(t: RayTask): Promise<RayAttachOutcome<S>> {
    const here = this.ui.sessions();
    const existing = here.get(t.worker_id);
    if (existing !== undefined) return { attached: [existing], skipped: [] };
    const parent = here.values().next().value as S | undefined;
    const out = await attachTasks(this.ui, [t], parent);
    await this.refresh();
    return out;
  }
}

/** Timers, injectable for the tests. */
export interface Clock {
  setInterval(f: () => void, ms: number): unknown;
  clearInterval(h: unknown): void;
}

/** Lists once whenever the view is shown, ticks every `seconds` while it is visible; nothing while hidden. */
export class RayPoller {
  private handle?: unknown;

  constructor(
    private readonly shown: () => void,
    private readonly tick: () => void,
    private readonly clock: Clock,
  ) {}

  /** The view's visibility, or the interval setting, changed. seconds 0: only the Refresh button (and each showing). */
  update(visible: boolean, seconds: number): void {
    this.stop();
    if (!visible) return;
    this.shown();
    if (seconds > 0) this.handle = this.clock.setInterval(this.tick, seconds * 1000);
  }

  get polling(): boolean {
    return this.handle !== undefined;
  }

  stop(): void {
    if (this.handle !== undefined) this.clock.clearInterval(this.handle);
    this.handle = undefined;
  }
}
