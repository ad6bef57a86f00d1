// Unit tests: the Run and Debug view's "Ray: paused tasks" section, its
// model (raytree.ts) against a fake channel and fake VS Code sessions: one
// item per paused task (name, function, pid, node, endpoint), the tasks
// attached here marked (also once Ray moves them to its debugging list),
// the message items (Ray not reachable, with or without an address
// configured; nothing paused), Attach through ray.ts's attachTasks under
// the oldest Ray session of the window, and the poller: listing only while
// the view is visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RayListParams, RayListResult, RayTask } from '../src/ray';
import { RayPoller, RayTreeModel, rayNodes, type Clock, type RayNode } from '../src/raytree';

const DASH = 'http://127.0.0.1:8265';
const A: RayTask = { worker_id: 'aaaaaaaa11112222', pid: 101, host: '127.0.0.1', port: 50001, paused_threads: 1, node_id: 'nodeabcdef123', task_id: 't1', name: 'shard', function: 'shard' };
const B: RayTask = { worker_id: 'bbbbbbbb33334444', pid: 102, host: '127.0.0.1', port: 50002, paused_threads: 2, node_id: 'nodeabcdef123', task_id: 't2', name: 'Loader.next', function: 'Loader.__next__' };
const FAR: RayTask = { worker_id: 'dddddddd77778888', pid: 104, host: '10.0.0.9', port: 50004, paused_threads: 1, name: 'shard', function: 'shard', note: '10.0.0.9 is not a loopback address' };
const DONE: RayTask = { worker_id: 'eeeeeeee99990000', pid: 105, host: '127.0.0.1', port: 50005, paused_threads: 0 };

const view = (ns: RayNode[]) => ns.map((n) => (n.kind === 'task' ? [n.label, n.description, n.attached ?? ''] : [n.kind, n.label]));

test('one item per paused task: name; function, pid, node, endpoint; the tooltip says all', () => {
  const ns = rayNodes({ listing: { dashboard: DASH, tasks: [A, B, FAR] } }, {}, new Set());
  assert.deepEqual(view(ns), [
    ['shard', 'pid 101 · node nodeabcd · 127.0.0.1:50001', ''],
    ['Loader.next', 'Loader.__next__ · pid 102 · node nodeabcd · 127.0.0.1:50002', ''],
    ['$(warning) shard', 'pid 104 · node ? · 10.0.0.9:50004', ''],
  ]);
  assert.equal(ns[1].kind === 'task' && ns[1].tooltip, 'Loader.next — Loader.__next__\npid 102 on node nodeabcdef123\ndebugpy at 127.0.0.1:50002, 2 threads paused\ntask t2');
  assert.match(ns[2].kind === 'task' ? ns[2].tooltip : '', /cannot be attached: 10\.0\.0\.9 is not a loopback address$/);
  assert.equal(ns[0].key, 'worker:aaaaaaaa11112222');
});

test('attached tasks are marked: here or elsewhere; a worker whose task ended is not shown', () => {
  // Ray moves an attached task to `debugging`; one still listed paused but attached here is marked too.
  const ns = rayNodes({ listing: { dashboard: DASH, tasks: [A], debugging: [B, DONE, { ...FAR, note: undefined, worker_id: 'ffff' }] } }, {}, new Set([A.worker_id, B.worker_id]));
  assert.deepEqual(view(ns), [
    ['shard', 'pid 101 · node nodeabcd · 127.0.0.1:50001 · attached', 'here'],
    ['Loader.next', 'Loader.__next__ · pid 102 · node nodeabcd · 127.0.0.1:50002 · attached', 'here'],
    ['shard', 'pid 104 · node ? · 10.0.0.9:50004 · debugger attached', 'elsewhere'],
  ]);
});

test('messages: Ray not reachable (naming the address, or the default and the setting); nothing paused', () => {
  const [e1] = rayNodes({ error: 'NOT_FOUND: no Ray dashboard at http://127.0.0.1:8265' }, {}, new Set());
  assert.deepEqual(e1.kind === 'message' && [e1.label, e1.tooltip], [
    'Ray not reachable at http://127.0.0.1:8265 (the default)',
    "NOT_FOUND: no Ray dashboard at http://127.0.0.1:8265\n\nSet dapscope.ray.address to your cluster's dashboard URL or GCS address.",
  ]);
  const [e2] = rayNodes({ error: 'connection refused' }, { address: '127.0.0.1:6379' }, new Set());
  assert.deepEqual(e2.kind === 'message' && [e2.label, e2.tooltip], ['Ray not reachable at 127.0.0.1:6379', 'connection refused\n\nIs the cluster running, and its dashboard on?']);
  const none = rayNodes({ listing: { dashboard: DASH, tasks: [], debugging: [DONE] } }, {}, new Set());
  assert.deepEqual(view(none), [['message', 'No Ray task paused']]);
  assert.match(none[0].kind === 'message' ? none[0].tooltip : '', /RAY_DEBUG=1.*RAY_DEBUG_POST_MORTEM=1/);
});

interface Session {
  name: string;
  parent?: string;
}

function fakeModel(listings: (RayListResult | Error)[], params: RayListParams = { address: DASH }) {
  const calls: string[] = [];
  const sessions = new Map<string, Session>();
  let changed = 0;
  const listed: RayListParams[] = [];
  const model = new RayTreeModel<Session>({
    async list(p) {
      listed.push(p);
      calls.push('list');
      const l = listings.length > 1 ? listings.shift()! : listings[0];
      if (l instanceof Error) throw l;
      return l;
    },
    params: () => params,
    sessions: () => sessions,
    changed: () => void changed++,
    async attach(cfg, parent) {
      calls.push(`attach ${cfg.name} justMyCode=${cfg.justMyCode}${parent ? ` under ${parent.name}` : ''}`);
      const s = { name: cfg.name, parent: parent?.name };
      sessions.set(cfg.rayWorker as string, s); // VS Code's onDidStartDebugSession
      return s;
    },
    error: (m) => calls.push(`error ${m}`),
  });
  return { model, calls, sessions, listed, changes: () => changed };
}

test('refresh lists with the settings; concurrent refreshes share one listing; a failure becomes the message item', async () => {
  const f = fakeModel([new Error('connection refused'), { dashboard: DASH, tasks: [A] }]);
  const [n1, n2] = await Promise.all([f.model.refresh(), f.model.refresh()]);
  assert.equal(n1, n2);
  assert.deepEqual(f.calls, ['list']);
  assert.deepEqual(f.listed, [{ address: DASH }]);
  assert.deepEqual(view(f.model.nodes), [['message', `Ray not reachable at ${DASH}`]]);
  await f.model.refresh();
  assert.deepEqual(view(f.model.nodes), [['shard', 'pid 101 · node nodeabcd · 127.0.0.1:50001', '']]);
  assert.equal(f.changes(), 2);
});

test("Attach: the command's attach path (justMyCode off), under the window's oldest Ray session, then marked; twice is once", async () => {
  const f = fakeModel([{ dashboard: DASH, tasks: [A, B] }]);
  await f.model.refresh();
  const first = await f.model.attach(A);
  assert.deepEqual(first, { attached: [{ name: 'Ray: shard (pid 101)', parent: undefined }], skipped: [] });
  await f.model.attach(B);
  await f.model.attach(A); // already attached: the session it has
  assert.deepEqual(f.calls.filter((c) => c.startsWith('attach')), [
    'attach Ray: shard (pid 101) justMyCode=false',
    'attach Ray: Loader.next (pid 102) justMyCode=false under Ray: shard (pid 101)',
  ]);
  assert.deepEqual(f.model.nodes.map((n) => n.kind === 'task' && n.attached), ['here', 'here']);
  // The session ends: the mark goes without listing again.
  const lists = f.calls.filter((c) => c === 'list').length;
  f.sessions.delete(A.worker_id);
  f.model.remark();
  assert.deepEqual(f.model.nodes.map((n) => n.kind === 'task' && n.attached), [undefined, 'here']);
  assert.equal(f.calls.filter((c) => c === 'list').length, lists);
});

test('Attach on a task that cannot be attached from here: not attached, the user told why', async () => {
  const f = fakeModel([{ dashboard: DASH, tasks: [FAR] }]);
  const out = await f.model.attach(FAR);
  assert.deepEqual(out.attached, []);
  assert.deepEqual(f.calls, [`error dapscope: not attached: shard (pid 104): ${FAR.note}`, 'list']);
});

test('the poller lists on showing and every few seconds while visible, never while hidden', () => {
  const timers = new Map<number, { f: () => void; ms: number }>();
  let next = 0;
  const clock: Clock = {
    setInterval: (f, ms) => (timers.set(++next, { f, ms }), next),
    clearInterval: (h) => void timers.delete(h as number),
  };
  let refreshes = 0;
  let ticks = 0;
  const p = new RayPoller(() => void refreshes++, () => void ticks++, clock);
  p.update(false, 5);
  assert.equal(refreshes, 0);
  assert.equal(p.polling, false);
  p.update(true, 5);
  assert.equal(refreshes, 1);
  assert.deepEqual([...timers.values()].map((t) => t.ms), [5000]);
  for (const t of timers.values()) t.f();
  assert.equal(ticks, 1);
  p.update(false, 5); // hidden: the timer is gone
  assert.equal(timers.size, 0);
  assert.equal(p.polling, false);
  p.update(true, 0); // 0: once on showing, no timer
  assert.equal(refreshes, 2);
  assert.equal(timers.size, 0);
  p.update(true, 5);
  p.stop();
  assert.equal(timers.size, 0);
});

test('ticks after a failed listing back off (1, 3, 7, then 11 skipped); a success lists at every tick again', async () => {
  const f = fakeModel([new Error('refused'), new Error('refused'), new Error('refused'), new Error('refused'), new Error('refused'), { dashboard: DASH, tasks: [A] }]);
  const lists = () => f.calls.filter((c) => c === 'list').length;
  const tickUntilListed = async () => {
    const before = lists();
    let n = 0;
    while (lists() === before) {
      f.model.tick();
      n++;
      await new Promise((r) => setImmediate(r));
    }
    return n;
  };
  await f.model.refresh(); // failure 1
  // Failures 2 to 5 after 2, 4, 8 and 12 ticks; then at most every 12th tick.
  assert.deepEqual([await tickUntilListed(), await tickUntilListed(), await tickUntilListed(), await tickUntilListed(), await tickUntilListed()], [2, 4, 8, 12, 12]);
  assert.deepEqual(view(f.model.nodes), [['shard', 'pid 101 · node nodeabcd · 127.0.0.1:50001', '']]);
  assert.equal(await tickUntilListed(), 1);
});

test('a GCS address is resolved once: later listings ask its dashboard, and the address again after a failure', async () => {
  const f = fakeModel([{ dashboard: DASH, tasks: [] }, { dashboard: DASH, tasks: [] }, new Error('refused'), { dashboard: DASH, tasks: [] }], { address: '127.0.0.1:6379', tokenFile: '/t' });
  await f.model.refresh();
  await f.model.refresh();
  await f.model.refresh();
  await f.model.refresh();
  assert.deepEqual(f.listed, [
    { address: '127.0.0.1:6379', tokenFile: '/t' },
    { address: DASH, tokenFile: '/t' },
    { address: DASH, tokenFile: '/t' },
    { address: '127.0.0.1:6379', tokenFile: '/t' },
  ]);
  // The message names the address configured, not the dashboard it resolved to.
  const g = fakeModel([new Error('refused')], { address: '127.0.0.1:6379' });
  await g.model.refresh();
  assert.deepEqual(view(g.model.nodes), [['message', 'Ray not reachable at 127.0.0.1:6379']]);
});
