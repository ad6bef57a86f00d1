// "Attach to Paused Ray Tasks", its model (no `vscode` import, unit-tested):
// the editor channel's dapscope/rayList types (a Ray cluster's tasks paused
// in Ray's distributed debugger, listed by the sidecar through the
// cluster's dashboard: server/ray), the QuickPick's items (task name,
// function, pid, where it waits), the `dapscope` attach configuration of a
// task (debugpy at the task's listen address, justMyCode off, the way MCP's
// debug_attach attaches a listed task), and the command's flow: list, pick
// one or more, attach each; the first attached is the parent of the others,
// so "Compare across Processes" asks every attached task at once.

/** dapscope/rayList params (editor.RayListParams). */
export interface RayListParams {
  /** The dashboard's URL or the GCS host:port; none: $RAY_DASHBOARD_ADDRESS, else http://127.0.0.1:8265. */
  address?: string;
  /** A private file with the cluster's token; none: $RAY_AUTH_TOKEN, $RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token. */
  tokenFile?: string;
}

/** One paused task (server/ray.Task): the worker that runs it and the debugpy endpoint it waits on. */
export interface RayTask {
  worker_id: string;
  pid: number;
  host: string;
  port: number;
  paused_threads: number;
  node_id?: string;
  /** The running task's (empty until Ray's task events report it, about a second late). */
  task_id?: string;
  name?: string;
  function?: string;
  job_id?: string;
  actor_id?: string;
  /** Why it cannot be attached from here (its host is not loopback nor allowed). */
  note?: string;
}

/** dapscope/rayList result (editor.RayListResult). */
export interface RayListResult {
  dashboard: string;
  /** Tasks waiting for a debugger, by pid. */
  tasks: RayTask[];
  /** Workers with a debugger attached (or gone). */
  debugging?: RayTask[];
}

/** A task for people: its name, else its worker. */
export function taskLabel(t: RayTask): string {
  if (t.name) return t.name;
  return `worker ${t.worker_id.slice(0, 8)}`;
}

/** A host:port, bracketing an IPv6 host. */
export function endpoint(t: RayTask): string {
  return `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`;
}

export interface TaskItem {
  label: string;
  description: string;
  detail: string;
  task: RayTask;
}

/** The QuickPick's items: name; function and pid; where it waits (node, debugpy endpoint), or why it cannot be attached. */
export function taskItems(l: RayListResult): TaskItem[] {
  return l.tasks.map((t) => {
    const fn = t.function && t.function !== t.name ? `${t.function} · ` : '';
    const threads = t.paused_threads > 1 ? ` · ${t.paused_threads} threads paused` : '';
    const where = `paused on node ${(t.node_id ?? '?').slice(0, 8)}, debugpy at ${endpoint(t)}${threads}`;
    return {
      label: t.note ? `$(warning) ${taskLabel(t)}` : taskLabel(t),
      description: `${fn}pid ${t.pid}`,
      detail: t.note ? `${where} — ${t.note}` : where,
      task: t,
    };
  });
}

/**
 * The `dapscope` attach configuration of a task: debugpy at its listen
 * address, justMyCode off (Ray's set_trace stops the task by stepping out of
 * Ray's own code, which justMyCode would step through without stopping), its
 * own subprocesses not followed (they are not Ray's).
 */
export function attachConfiguration(t: RayTask): Record<string, unknown> & { name: string } {
  return {
    type: 'dapscope',
    request: 'attach',
    name: `Ray: ${taskLabel(t)} (pid ${t.pid})`,
    adapter: 'debugpy',
    connect: { host: t.host, port: t.port },
    justMyCode: false,
    subProcess: false,
    rayWorker: t.worker_id, // which session this is, when VS Code starts it
  };
}

/** What the command needs of VS Code and the sidecar (a fake in the tests). */
export interface RayUi<S> {
  list(params: RayListParams): Promise<RayListResult>;
  pick(items: TaskItem[], placeholder: string): Promise<TaskItem[] | undefined>;
  /** Starts the attach session (a child of parent when given); undefined when it did not start. */
  attach(configuration: Record<string, unknown> & { name: string }, parent?: S): Promise<S | undefined>;
  info(message: string): void;
  error(message: string): void;
}

/** What the command did: the sessions started, and each task not attached with why. */
export interface RayAttachOutcome<S> {
  attached: S[];
  skipped: string[];
}

/**
 * Lists the paused tasks, lets the user pick, attaches each pick: under
 * parent when given (this window's oldest Ray session, as the Ray view
 * attaches, so one tree is compared), else the first is the others' parent.
 */
export async function attachPausedTasks<S>(ui: RayUi<S>, params: RayListParams, parent?: S): Promise<RayAttachOutcome<S>> {
  const out: RayAttachOutcome<S> = { attached: [], skipped: [] };
  let l: RayListResult;
  try {
    l = await ui.list(params);
  } catch (e) {
    ui.error(`dapscope: listing the paused Ray tasks failed: ${(e as Error)?.message ?? e}`);
    return out;
  }
  if (l.tasks.length === 0) {
    const attached = l.debugging?.length ? ` (${l.debugging.length} with a debugger attached)` : '';
    ui.info(`dapscope: no Ray task waits in the debugger at ${l.dashboard}${attached}. A task pauses at breakpoint() when the cluster runs with RAY_DEBUG=1.`);
    return out;
  }
  const picked = await ui.pick(taskItems(l), `${l.tasks.length} paused Ray task${l.tasks.length === 1 ? '' : 's'} at ${l.dashboard}: pick those to attach`);
  if (!picked?.length) return out;
  return attachTasks(ui, picked.map((it) => it.task), parent);
}

/**
 * Attaches each task in order (the command's picks, or the Ray view's one
 * item): each under parent when given, else under the first that attached.
 * A task that cannot be attached from here, or whose session did not
 * start, is skipped with why, and the user told once.
 */
export async function attachTasks<S>(ui: Pick<RayUi<S>, 'attach' | 'error'>, tasks: RayTask[], parent?: S): Promise<RayAttachOutcome<S>> {
  const out: RayAttachOutcome<S> = { attached: [], skipped: [] };
  for (const t of tasks) {
    if (t.note) {
      out.skipped.push(`${taskLabel(t)} (pid ${t.pid}): ${t.note}`);
      continue;
    }
    const s = await ui.attach(attachConfiguration(t), parent).catch((e: unknown) => {
      out.skipped.push(`${taskLabel(t)} (pid ${t.pid}): ${(e as Error)?.message ?? e}`);
      return undefined;
    });
    if (s === undefined) {
      if (!out.skipped.some((m) => m.startsWith(`${taskLabel(t)} (pid ${t.pid})`))) out.skipped.push(`${taskLabel(t)} (pid ${t.pid}): the debug session did not start`);
      continue;
    }
    parent ??= s;
    out.attached.push(s);
  }
  if (out.skipped.length) ui.error(`dapscope: not attached: ${out.skipped.join('; ')}`);
  return out;
}
