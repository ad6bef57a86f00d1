// Unit tests: "Attach to Paused Ray Tasks", its model (ray.ts) against a
// fake channel and a fake VS Code: the QuickPick's items (name, function,
// pid, where the task waits, why one cannot be attached), each task's
// `dapscope` attach configuration (debugpy at its listen address,
// justMyCode off), and the flow: the listing's params, the picks attached
// in order under the first, a task on a host not allowed skipped, a failed
// attach reported while the others go on, nothing paused, a failed listing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachConfiguration, attachPausedTasks, endpoint, taskItems, taskLabel, type RayListParams, type RayListResult, type RayTask, type RayUi, type TaskItem } from '../src/ray';

const DASH = 'http://127.0.0.1:8265';
const A: RayTask = { worker_id: 'aaaaaaaa11112222', pid: 101, host: '127.0.0.1', port: 50001, paused_threads: 1, node_id: 'nodeabcdef123', task_id: 't1', name: 'shard', function: 'shard' };
const B: RayTask = { worker_id: 'bbbbbbbb33334444', pid: 102, host: '127.0.0.1', port: 50002, paused_threads: 2, node_id: 'nodeabcdef123', task_id: 't2', name: 'Loader.next', function: 'Loader.__next__' };
const UNNAMED: RayTask = { worker_id: 'cccccccc55556666', pid: 103, host: '::1', port: 50003, paused_threads: 1 };
const FAR: RayTask = { worker_id: 'dddddddd77778888', pid: 104, host: '10.0.0.9', port: 50004, paused_threads: 1, name: 'shard', function: 'shard', note: '10.0.0.9 is not a loopback address; allow it explicitly (--attach-hosts 10.0.0.9) to attach' };

test('the items: name, function and pid, where it waits; a task that cannot be attached says why', () => {
  const items = taskItems({ dashboard: DASH, tasks: [A, B, UNNAMED, FAR] });
  assert.deepEqual(items.map((i) => [i.label, i.description, i.detail]), [
    ['shard', 'pid 101', 'paused on node nodeabcd, debugpy at 127.0.0.1:50001'],
    ['Loader.next', 'Loader.__next__ · pid 102', 'paused on node nodeabcd, debugpy at 127.0.0.1:50002 · 2 threads paused'],
    ['worker cccccccc', 'pid 103', 'paused on node ?, debugpy at [::1]:50003'],
    ['$(warning) shard', 'pid 104', `paused on node ?, debugpy at 10.0.0.9:50004 — ${FAR.note}`],
  ]);
  assert.equal(items[1].task, B);
  assert.equal(taskLabel(UNNAMED), 'worker cccccccc');
  assert.equal(endpoint(UNNAMED), '[::1]:50003');
});

test("a task's attach configuration: dapscope's debugpy at the task's listen address, justMyCode off", () => {
  assert.deepEqual(attachConfiguration(B), {
    type: 'dapscope',
    request: 'attach',
    name: 'Ray: Loader.next (pid 102)',
    adapter: 'debugpy',
    connect: { host: '127.0.0.1', port: 50002 },
    justMyCode: false,
    subProcess: false,
    rayWorker: 'bbbbbbbb33334444',
  });
});

interface Session {
  name: string;
  parent?: string;
}

/** A fake channel and VS Code: records every call; pick chooses by label. */
function fake(listing: RayListResult | Error, choose: (items: TaskItem[]) => TaskItem[] | undefined, failAttach: (name: string) => 'throw' | 'undefined' | undefined = () => undefined) {
  const calls: string[] = [];
  const listed: RayListParams[] = [];
  const picks: { items: TaskItem[]; placeholder: string }[] = [];
  const ui: RayUi<Session> = {
    async list(p) {
      listed.push(p);
      calls.push('list');
      if (listing instanceof Error) throw listing;
      return listing;
    },
    async pick(items, placeholder) {
      picks.push({ items, placeholder });
      calls.push('pick');
      return choose(items);
    },
    async attach(cfg, parent) {
      calls.push(`attach ${cfg.name}${parent ? ` under ${parent.name}` : ''}`);
      const f = failAttach(cfg.name);
      if (f === 'throw') throw new Error('connection refused');
      if (f === 'undefined') return undefined;
      return { name: cfg.name, parent: parent?.name };
    },
    info: (m) => calls.push(`info ${m}`),
    error: (m) => calls.push(`error ${m}`),
  };
  return { ui, calls, listed, picks };
}

test('the picks are attached in order, each after the first as its child (one tree to compare across)', async () => {
  const f = fake({ dashboard: DASH, tasks: [A, B, UNNAMED] }, (items) => [items[2], items[0]]);
  const out = await attachPausedTasks(f.ui, { address: DASH, tokenFile: '/tmp/token' });
  assert.deepEqual(f.listed, [{ address: DASH, tokenFile: '/tmp/token' }]);
  assert.equal(f.picks[0].placeholder, `3 paused Ray tasks at ${DASH}: pick those to attach`);
  assert.deepEqual(f.calls, ['list', 'pick', 'attach Ray: worker cccccccc (pid 103)', 'attach Ray: shard (pid 101) under Ray: worker cccccccc (pid 103)']);
  assert.deepEqual(out, { attached: [{ name: 'Ray: worker cccccccc (pid 103)', parent: undefined }, { name: 'Ray: shard (pid 101)', parent: 'Ray: worker cccccccc (pid 103)' }], skipped: [] });
});

test("with a Ray session already in the window, every pick joins it (the Ray view's root): one tree", async () => {
  const f = fake({ dashboard: DASH, tasks: [B, UNNAMED] }, (items) => items);
  const root: Session = { name: 'Ray: shard (pid 101)' };
  const out = await attachPausedTasks(f.ui, {}, root);
  assert.deepEqual(f.calls.slice(2), ['attach Ray: Loader.next (pid 102) under Ray: shard (pid 101)', 'attach Ray: worker cccccccc (pid 103) under Ray: shard (pid 101)']);
  assert.deepEqual(out.attached.map((s) => s.parent), ['Ray: shard (pid 101)', 'Ray: shard (pid 101)']);
});

test('a task on a host not allowed is not attached, and the user is told why', async () => {
  const f = fake({ dashboard: DASH, tasks: [A, FAR] }, (items) => items);
  const out = await attachPausedTasks(f.ui, {});
  assert.equal(out.attached.length, 1);
  assert.deepEqual(out.skipped, [`shard (pid 104): ${FAR.note}`]);
  assert.deepEqual(f.calls.slice(2), ['attach Ray: shard (pid 101)', `error dapscope: not attached: shard (pid 104): ${FAR.note}`]);
});

test('a failed attach is reported and the next pick still attaches, under the first that did', async () => {
  const f = fake({ dashboard: DASH, tasks: [A, B, UNNAMED] }, (items) => items, (name) => (name.includes('101') ? 'throw' : name.includes('102') ? 'undefined' : undefined));
  const out = await attachPausedTasks(f.ui, {});
  assert.deepEqual(out.attached, [{ name: 'Ray: worker cccccccc (pid 103)', parent: undefined }]);
  assert.deepEqual(out.skipped, ['shard (pid 101): connection refused', 'Loader.next (pid 102): the debug session did not start']);
  assert.equal(f.calls.at(-1), 'error dapscope: not attached: shard (pid 101): connection refused; Loader.next (pid 102): the debug session did not start');
});

test('nothing picked: nothing attached; one task: the singular', async () => {
  const f = fake({ dashboard: DASH, tasks: [A] }, () => undefined);
  assert.deepEqual(await attachPausedTasks(f.ui, {}), { attached: [], skipped: [] });
  assert.deepEqual(f.calls, ['list', 'pick']);
  assert.equal(f.picks[0].placeholder, `1 paused Ray task at ${DASH}: pick those to attach`);
  const g = fake({ dashboard: DASH, tasks: [A] }, () => []);
  await attachPausedTasks(g.ui, {});
  assert.deepEqual(g.calls, ['list', 'pick']);
});

test('no task paused: no QuickPick, a message naming the dashboard and the tasks being debugged', async () => {
  const f = fake({ dashboard: DASH, tasks: [], debugging: [A, B] }, () => assert.fail('no pick'));
  await attachPausedTasks(f.ui, {});
  assert.equal(f.calls.length, 2);
  assert.match(f.calls[1], /^info dapscope: no Ray task waits in the debugger at http:\/\/127\.0\.0\.1:8265 \(2 with a debugger attached\)\. A task pauses at breakpoint\(\) when the cluster runs with RAY_DEBUG=1\.$/);
  const g = fake({ dashboard: DASH, tasks: [] }, () => assert.fail('no pick'));
  await attachPausedTasks(g.ui, {});
  assert.doesNotMatch(g.calls[1], /debugger attached/);
});

test("a failed listing: the sidecar's reason, no QuickPick", async () => {
  const f = fake(new Error('NOT_FOUND: no Ray dashboard at http://127.0.0.1:8265: connection refused'), () => assert.fail('no pick'));
  assert.deepEqual(await attachPausedTasks(f.ui, {}), { attached: [], skipped: [] });
  assert.deepEqual(f.calls, ['list', 'error dapscope: listing the paused Ray tasks failed: NOT_FOUND: no Ray dashboard at http://127.0.0.1:8265: connection refused']);
});
