// Unit tests: the Kernel variables view's model (kerneltree.ts) against a
// scripted sidecar (the editor channel's kernel calls): listing, attaching
// on expansion, the variables cached until a cell finishes, a busy kernel
// answered at once with its last variables kept, failures as message nodes,
// a lost session attached again, and the words of each line (kernelformat.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedSince, KernelTree, kernelKey, type KernelCalls, type KernelNode, type MessageNode, type Node, type VariableNode } from '../src/kerneltree';
import { busyText, failureOf, formatBytes, formatDuration, goDuration, isBusy, kernelDescription, kernelLabel, parseBusy, variableDescription, variableIcon, variableTooltip } from '../src/kernelformat';
import type { Kernel as KernelInfo, KernelAttachResult, KernelVariable } from '../src/protocol';

const DF: KernelVariable = { name: 'prices', type: 'DataFrame', kind: 'dataframe', shape: [1000, 10], memory: 80_128, summary: 'DataFrame 1,000 × 10 · 3 nulls in price · 80 KB' };
const N: KernelVariable = { name: 'n', type: 'int', kind: 'int', summary: 'int 3' };

function kernel(id: string, extra: Partial<KernelInfo> = {}): KernelInfo {
  return { id, connection_file: `/run/kernel-${id}.json`, language: 'python', pid: 100, state: 'idle', found: 'runtime-dir', ...extra };
}

/** A kernel session as dapscope/kernelAttach answers (editor.KernelAttachResult). */
function attached(sessionId: string, k: KernelInfo): KernelAttachResult {
  return { sessionId, id: sessionId, origin: 'kernel', adapter: 'kernel', status: 'paused', kernel: k };
}

/** The sidecar's busy answer, worded as server/kernel's BusyError.Summary. */
const BUSY = 'NOT_PAUSED: kernel is busy: cell [4] (time.sleep(30) …) has been running for 2.1s';

/** A scripted sidecar: answers from the arrays, records each call. */
interface Scripted {
  calls: string[];
  kernels: KernelInfo[];
  vars: KernelVariable[];
  busy: boolean;
  listFails: string;
  attachFails: string;
  lostOnce: boolean;
  attachDelay: number;
  api: KernelCalls;
}

function sidecar(): Scripted {
  const calls: string[] = [];
  const s: Scripted = {
    calls,
    kernels: [kernel('a'), kernel('b')] as KernelInfo[],
    vars: [DF, N] as KernelVariable[],
    busy: false,
    listFails: '',
    attachFails: '',
    lostOnce: false,
    attachDelay: 0,
    api: {
      async list() {
        calls.push('list');
        if (s.listFails) throw Object.assign(new Error(s.listFails), { code: -32803 });
        return { kernels: s.kernels };
      },
      async attach(k: KernelInfo) {
        calls.push(`attach ${k.id}`);
        if (s.attachDelay) await new Promise((r) => setTimeout(r, s.attachDelay));
        if (s.attachFails) throw new Error(s.attachFails);
        return attached(`k-${k.id}-${calls.length}`, k);
      },
      async variables(sessionId: string, all: boolean) {
        calls.push(`vars ${sessionId}${all ? ' all' : ''}`);
        if (s.lostOnce) {
          s.lostOnce = false;
          throw { code: -32803, message: `session ${sessionId} not found` };
        }
        if (s.busy) throw { code: -32803, message: BUSY };
        return { items: s.vars };
      },
    },
  };
  return s;
}

const kernelsOf = (nodes: Node[]) => nodes.filter((n): n is KernelNode => n.kind === 'kernel');
const names = (nodes: Node[]) => nodes.map((n) => (n.kind === 'variable' ? n.v.name : n.kind === 'message' ? `(${n.severity}) ${n.text}` : n.info.id));

test('the roots are the listed kernels; nothing is attached before a kernel is expanded', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const roots = kernelsOf(await t.roots());
  assert.deepEqual(roots.map((n) => n.info.id), ['a', 'b']);
  assert.deepEqual(s.calls, ['list']);
  await t.roots();
  assert.deepEqual(s.calls, ['list'], 'listed once until relisted');
});

test('expanding attaches once and lists the variables; they stay cached until a cell finishes', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  const kids = await t.children(a);
  assert.deepEqual(names(kids), ['prices', 'n']);
  assert.equal((kids[0] as VariableNode).v.summary, DF.summary);
  assert.match(a.sessionId ?? '', /^k-a-/);
  await t.children(a);
  assert.deepEqual(s.calls, ['list', 'attach a', `vars ${a.sessionId}`]);
  // The cell finished ("stopped" on the kernel session): fetched again, same session.
  s.vars = [DF, N, { name: 'summary', type: 'DataFrame', kind: 'dataframe', summary: 'DataFrame 8 × 10' }];
  assert.equal(t.onSessionEvent(a.sessionId!, 'stopped'), a);
  assert.deepEqual(names(await t.children(a)), ['prices', 'n', 'summary']);
  assert.equal(s.calls.filter((c) => c.startsWith('attach')).length, 1);
  // Node identity is kept across refreshes (the tree keeps its selection).
  const again = await t.children(a);
  assert.equal(again[0], kids[0]);
});

test('a busy kernel answers at once: a busy line naming the cell, the last variables kept, refreshed when the cell finishes', async () => {
  let now = 1_000_000;
  const s = sidecar();
  const t = new KernelTree(s.api, () => {}, () => now);
  const [a] = kernelsOf(await t.roots());
  await t.children(a);
  // A cell starts (the session's "continued"): busy from now, to be fetched again.
  t.onSessionEvent(a.sessionId!, 'continued');
  assert.deepEqual(t.busyKernels(), [a]);
  assert.equal(a.stale, true);
  assert.equal(busyText(a.busy!, now + 3000), 'busy 3 s · a cell (its code is unknown)');
  // The view asks at once; the sidecar answers NOT_PAUSED naming the cell and how long it has run.
  s.busy = true;
  const kids = await t.children(a);
  assert.deepEqual(names(kids), ['(busy) ', 'prices', 'n']);
  assert.match((kids[0] as MessageNode).detail ?? '', /kernel is busy: cell \[4\].*refresh when the cell finishes\. Below: the variables before it\./);
  assert.equal(a.busy?.since, now - 2100);
  now += 9_900;
  assert.equal(kernelDescription(a.info, now, a.busy), 'python · busy 12 s · cell [4] time.sleep(30) … · pid 100');
  // The cell finishes: "stopped", after In[4].
  s.busy = false;
  t.onSessionEvent(a.sessionId!, 'stopped', { reason: 'idle', thread_id: 1, description: 'after In[4]' });
  assert.deepEqual(t.busyKernels(), []);
  assert.deepEqual(names(await t.children(a)), ['prices', 'n']);
  assert.equal(kernelDescription(a.info, now, a.busy, a.after), 'python · idle · after In[4] · pid 100');
});

test('an answer asked before the cell ended is not applied: no kernel left busy by a late "busy"', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  await t.children(a);
  t.onSessionEvent(a.sessionId!, 'continued');
  s.busy = true;
  // The cell ends while the variables call is on its way (its answer says busy).
  const orig = s.api.variables;
  s.api.variables = async (sid, all) => {
    const r = orig(sid, all);
    s.api.variables = orig;
    s.busy = false;
    t.onSessionEvent(a.sessionId!, 'stopped', { reason: 'idle', thread_id: 1, description: 'after In[2]' });
    return r;
  };
  const kids = await t.children(a);
  assert.equal(a.busy, undefined);
  assert.deepEqual(names(kids), ['prices', 'n']);
  assert.equal(s.calls.filter((c) => c.startsWith('vars')).length, 3, 'asked again after the event');
});

test('a kernel found busy by the variables call (a cell it was already running) is shown busy, and not refetched each tick', async () => {
  const s = sidecar();
  s.busy = true;
  const t = new KernelTree(s.api, () => {}, () => 5000);
  const [a] = kernelsOf(await t.roots());
  assert.deepEqual(names(await t.children(a)), ['(busy) ']);
  assert.equal(a.busy?.since, 5000 - 2100);
  const n = s.calls.length;
  await t.children(a);
  assert.equal(s.calls.length, n, 'a tick redraws from the cache');
});

test('the sidecar\'s busy words and the listing\'s cell are read, known or not, paused or not', async () => {
  const s = sidecar();
  s.kernels = [kernel('a', { state: 'busy', cell: { code: 'train(model)\nsave()', execution_count: 7, known: true, started: '2024-01-01T00:00:00Z' } })];
  const t = new KernelTree(s.api, () => {}, () => Date.parse('2024-01-01T00:03:05Z'));
  const [a] = kernelsOf(await t.roots());
  assert.equal(kernelDescription(a.info, Date.parse('2024-01-01T00:03:05Z'), a.busy), 'python · busy 3 min 05 s · cell [7] train(model) … · pid 100');
  const unknown = parseBusy('NOT_PAUSED: kernel is busy: a cell (its code is unknown) has been running for 1m1s (at least: it was already running when dapscope attached)', 100_000);
  assert.deepEqual(unknown?.cell, { known: false });
  assert.equal(busyText(unknown!, 100_000), 'busy at least 1 min 01 s · a cell (its code is unknown)');
  const paused = parseBusy('NOT_PAUSED: kernel is busy: cell [2] (f(x)) has been running for 850ms; it is paused in the debugger: evaluate in its frame instead', 1000);
  assert.equal(busyText(paused!, 1000), 'paused in the debugger 850 ms · cell [2] f(x)');
  assert.equal(parseBusy('NOT_PAUSED: the kernel session has ended', 0), undefined);
  assert.equal(goDuration('1h2m3.5s'), 3_723_500);
  assert.equal(goDuration('250ms'), 250);
  assert.equal(goDuration('soon'), undefined);
});

test('failures are message nodes, never exceptions: listing, attach, variables, unusable kernels, empty', async () => {
  const s = sidecar();
  s.listFails = 'the sidecar is not running';
  const t = new KernelTree(s.api);
  assert.deepEqual(names(await t.roots()), ['(error) Could not list kernels: the sidecar is not running']);
  s.listFails = '';
  s.kernels = [];
  t.relist();
  assert.deepEqual(names(await t.roots()), ['(info) No running Jupyter kernels found']);
  s.kernels = [kernel('a'), kernel('dead', { state: 'dead', error: 'nothing is listening on 127.0.0.1:5 (heartbeat)' })];
  t.relist();
  const [a, dead] = kernelsOf(await t.roots());
  assert.deepEqual(names(await t.children(dead)), ['(error) dead: nothing is listening on 127.0.0.1:5 (heartbeat)']);
  assert.equal(s.calls.includes('attach dead'), false, 'a dead kernel is not attached');
  s.attachFails = 'signature mismatch: wrong key in the connection file?';
  assert.deepEqual(names(await t.children(a)), ['(error) Could not attach: signature mismatch: wrong key in the connection file?']);
  s.attachFails = '';
  t.invalidate();
  await t.roots();
  assert.deepEqual(names(await t.children(a)), ['prices', 'n']);
  s.vars = [];
  a.stale = true;
  assert.deepEqual(names(await t.children(a)), ['(info) No user variables yet']);
});

test('a lost session (the sidecar restarted) is attached again, once', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  await t.children(a);
  const first = a.sessionId;
  s.lostOnce = true;
  a.stale = true;
  assert.deepEqual(names(await t.children(a)), ['prices', 'n']);
  assert.notEqual(a.sessionId, first);
  assert.equal(s.calls.filter((c) => c === 'attach a').length, 2);
});

test('concurrent expansions share one attach; "all" asks for every name; a terminated session relists', async () => {
  const s = sidecar();
  s.attachDelay = 20;
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  await Promise.all([t.children(a), t.children(a), t.load(a)]);
  assert.equal(s.calls.filter((c) => c === 'attach a').length, 1);
  t.all = true;
  a.stale = true;
  await t.children(a);
  assert.equal(s.calls[s.calls.length - 1], `vars ${a.sessionId} all`);
  const sid = a.sessionId!;
  assert.equal(t.onSessionEvent(sid, 'terminated'), 'all');
  assert.equal(a.sessionId, undefined);
  assert.equal(t.onSessionEvent('someone-else', 'stopped'), undefined);
  s.kernels = [kernel('b')];
  assert.deepEqual(kernelsOf(await t.roots()).map((n) => n.info.id), ['b'], 'the gone kernel leaves the view');
});

test('kernels keep their node across listings (by connection file)', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  s.kernels = [kernel('a', { state: 'busy' }), kernel('b')];
  t.relist();
  const [a2] = kernelsOf(await t.roots());
  assert.equal(a2, a);
  assert.equal(a2.info.state, 'busy');
  assert.equal(kernelKey(kernel('x', { connection_file: undefined, server: 'http://127.0.0.1:8888' })), 'id:http://127.0.0.1:8888:x');
});

test('what a cell changed: a fingerprint other than the last stop\'s, even under the same summary, or a new name', async () => {
  const s = sidecar();
  const t = new KernelTree(s.api);
  const [a] = kernelsOf(await t.roots());
  s.vars = [{ ...DF, fp: 'f1' }, { ...N, fp: 'n1' }, { name: 'x', type: 'object', kind: 'object', summary: 'object' }];
  const first = (await t.children(a)) as VariableNode[];
  assert.deepEqual(first.map((n) => n.changed), [false, false, false], 'nothing to compare with before a second stop');
  // A cell wrote one value of prices in place (same summary, another fingerprint) and made `total`.
  s.vars = [{ ...DF, fp: 'f2' }, { ...N, fp: 'n1' }, { name: 'x', type: 'object', kind: 'object', summary: 'object' },
    { name: 'total', type: 'float', kind: 'float', summary: 'float 3.5', fp: 't1' }];
  t.onSessionEvent(a.sessionId!, 'stopped', { reason: 'idle', thread_id: 1, description: 'after In[2]' });
  const kids = (await t.children(a)) as VariableNode[];
  assert.deepEqual(kids.map((n) => `${n.v.name} ${n.changed}`), ['prices true', 'n false', 'x false', 'total true']);
  assert.equal(kids[0], first[0], 'the same node, marked');
  assert.equal(variableDescription(kids[0].v, kids[0].changed), `changed · ${DF.summary}`);
  assert.equal(variableDescription(kids[1].v, kids[1].changed), N.summary);
  assert.match(variableTooltip(kids[0].v, true), /\*\*changed\*\*: since the last stop/);
  // A refresh without a stop compares with the same stop: the marks stay.
  t.invalidate();
  assert.deepEqual(((await t.children(a)) as VariableNode[]).map((n) => n.changed), [true, false, false, true]);
  // The next cell changes nothing: no marks.
  t.onSessionEvent(a.sessionId!, 'stopped', { reason: 'idle', thread_id: 1, description: 'after In[3]' });
  assert.deepEqual(((await t.children(a)) as VariableNode[]).map((n) => n.changed), [false, false, false, false]);
  assert.equal(changedSince(new Map([['a', undefined]]), { name: 'a', type: 'int', kind: 'int', summary: 'int 1', fp: 'z' }), false, 'no fingerprint then: unknown, not changed');
});

test('the words of the view', () => {
  assert.equal(formatDuration(850), '850 ms');
  assert.equal(formatDuration(12_400), '12 s');
  assert.equal(formatDuration(7_384_000), '2 h 03 min');
  assert.equal(formatBytes(80_128), '80 KB');
  assert.equal(formatBytes(1_234_567), '1.2 MB');
  assert.equal(formatBytes(12), '12 B');
  assert.equal(variableDescription(DF), DF.summary);
  assert.equal(variableDescription({ name: 'a', type: 'ndarray', kind: 'ndarray', shape: [1000, 3], summary: '' }), 'ndarray 1,000 × 3');
  assert.equal(variableIcon(DF), 'table');
  assert.equal(variableIcon(N), 'symbol-numeric');
  assert.equal(variableDescription({ name: 'big', type: 'Frame', kind: 'object', summary: '', error: 'not read: timeout' }), 'Frame · not read: timeout');
  assert.equal(kernelLabel(kernel('a', { notebook: 'work/analysis.ipynb' })), 'analysis.ipynb');
  assert.equal(kernelLabel(kernel('v2-123')), 'v2-123');
  assert.equal(isBusy(failureOf({ code: -32803, message: BUSY })), true);
  assert.equal(isBusy(failureOf({ message: 'x', data: { code: 'KERNEL_BUSY' } })), true);
  assert.equal(isBusy(failureOf(new Error('signature mismatch'))), false);
});
