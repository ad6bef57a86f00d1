// Unit tests: mapping the active notebook to a discovered kernel through a
// fake of VS Code's Jupyter extension API (@vscode/jupyter-extension's
// Jupyter/Kernel types): only getKernel, status, language and
// onDidChangeStatus are used — executeCode, which is not traceless, is
// never called; the evidence (a child of this extension host, the
// notebook's folder, the Jupyter extension's connection file, a server
// session, a running cell of the notebook, coincident cell ends) and its
// limits (ambiguous, none, wrong language, dead kernels). The process
// ancestry is read from the real /proc of real child processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Jupyter, Kernel, KernelStatus } from '@vscode/jupyter-extension';
import { Coincidences, JupyterLink, JUPYTER_EXTENSION_ID, mapNotebook, procAncestors, sessionNotebook, type ExtensionHost, type NotebookFacts, type ProcessFacts } from '../src/notebookkernel';
import type { Kernel as KernelInfo } from '../src/protocol';

/** A fake of the Jupyter extension: its API's kernels by notebook URI; executeCode fails the test. */
function fakeJupyter(kernels: Record<string, { language: string; status: KernelStatus }>, active = true) {
  const calls: string[] = [];
  const listeners: ((s: KernelStatus) => void)[] = [];
  const api: Jupyter = {
    kernels: {
      async getKernel(uri) {
        calls.push(`getKernel ${String(uri)}`);
        const k = kernels[String(uri)];
        if (!k) return undefined;
        const kernel: Kernel = {
          get status() {
            return k.status;
          },
          language: k.language,
          onDidChangeStatus: (l) => {
            listeners.push(l);
            return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
          },
          executeCode: () => {
            calls.push('executeCode');
            throw new Error('executeCode must never be called: it is not traceless');
          },
        };
        return kernel;
      },
    },
    createJupyterServerCollection: () => {
      throw new Error('not used');
    },
  };
  const ext = { isActive: active, activations: 0, exports: api as unknown, activate: async () => { ext.activations++; ext.isActive = true; return api; } };
  const host: ExtensionHost = { getExtension: (id) => (id === JUPYTER_EXTENSION_ID ? ext : undefined) };
  return { host, ext, calls, fire: (s: KernelStatus) => listeners.forEach((l) => l(s)) };
}

const NB: NotebookFacts = { uri: 'file:///home/u/work/analysis.ipynb', fsPath: '/home/u/work/analysis.ipynb', cells: [{ text: 'import pandas as pd', executionOrder: 1 }, { text: 'df = load()\ntrain(df)', executionOrder: 2 }] };

/** Process facts: host 500; kernel pids map to their parent chains. */
function procs(chains: Record<number, number[]>): ProcessFacts {
  return { hostPid: 500, ancestors: (pid) => chains[pid] };
}

function k(id: string, extra: Partial<KernelInfo> = {}): KernelInfo {
  return { id, connection_file: `/home/u/.local/share/jupyter/runtime/kernel-${id}.json`, language: 'python', state: 'idle', found: 'process', ...extra };
}

test('the link reads the API without running code: not installed, inactive, no kernel yet, a kernel', async () => {
  const none = new JupyterLink({ getExtension: () => undefined }, () => {});
  assert.equal(none.installed(), false);
  assert.equal(await none.kernelOf('file:///x.ipynb'), undefined);

  const f = fakeJupyter({ [NB.uri]: { language: 'python', status: 'idle' } }, false);
  const link = new JupyterLink(f.host, () => {});
  assert.equal(link.installed(), true);
  assert.equal(await link.api(false), undefined, 'not activated without a notebook');
  assert.equal(f.ext.activations, 0);
  const jk = await link.kernelOf(NB.uri);
  assert.equal(f.ext.activations, 1, 'activated for a notebook (it activates itself for notebooks anyway)');
  assert.equal(jk?.language, 'python');
  assert.equal(jk?.status, 'idle');
  // A notebook with no started kernel (or a pre-warmed one the API hides).
  assert.equal(await link.kernelOf('file:///other.ipynb'), undefined);
  assert.equal(f.calls.includes('executeCode'), false);

  // An older Jupyter extension without the kernels API.
  const old = { isActive: true, activate: async () => undefined, exports: {} };
  const logs: string[] = [];
  assert.equal(await new JupyterLink({ getExtension: () => old }, (m) => logs.push(m)).kernelOf(NB.uri), undefined);
  assert.match(logs[0], /no kernels API/);
});

test('the kernel this window started in the notebook\'s folder is the notebook\'s (likely), with its reasons', () => {
  const kernels = [
    k('v2-111', { connection_file: '/tmp/kernel-v2-111.json', pid: 900, cwd: '/home/u/work' }),
    k('other', { pid: 901, cwd: '/srv' }),
    k('elsewhere', { pid: 902, cwd: '/home/u/work' }),
  ];
  const m = mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, procs({ 900: [500, 1], 901: [1], 902: [77, 1] }));
  assert.equal(m.kernel?.id, 'v2-111');
  assert.equal(m.confidence, 'likely');
  assert.match(m.reason, /started by this window's extension host \(pid 500\)/);
  assert.match(m.reason, /notebook's folder \/home\/u\/work/);
  assert.match(m.reason, /kernel-v2-\*\.json/);
  assert.deepEqual(m.candidates.map((c) => [c.id, c.score]), [['v2-111', 6], ['elsewhere', 2], ['other', 0]]);
});

test('a running cell of the notebook is decisive, even over a kernel of the same window and folder', () => {
  const kernels = [
    k('a', { pid: 900, cwd: '/home/u/work' }),
    k('b', { pid: 901, cwd: '/home/u/work', state: 'busy', cell: { code: 'df = load()\ntrain(df)\n', execution_count: 2, known: true } }),
  ];
  const m = mapNotebook(NB, { language: 'python', status: 'busy' }, kernels, procs({ 900: [500], 901: [500] }));
  assert.equal(m.kernel?.id, 'b');
  assert.equal(m.confidence, 'certain');
  assert.match(m.reason, /runs cell \[2\] of this notebook/);
  // The same cell text while the notebook's kernel is idle proves nothing.
  assert.equal(mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, procs({ 900: [500], 901: [500] })).confidence, 'ambiguous');
});

test('two notebooks of one folder in one window are ambiguous until a cell end coincides', () => {
  const kernels = [k('a', { pid: 900, cwd: '/home/u/work' }), k('b', { pid: 901, cwd: '/home/u/work' })];
  const p = procs({ 900: [500], 901: [500] });
  const m = mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, p);
  assert.equal(m.confidence, 'ambiguous');
  assert.equal(m.kernel, undefined);
  assert.match(m.reason, /2 kernels match this notebook equally \(a, b\)/);

  const c = new Coincidences(1500);
  assert.equal(c.kernelFinished('b', 10_000), undefined);
  assert.equal(c.notebookIdle(NB.uri, 10_200), NB.uri);
  assert.equal(c.kernelOf(NB.uri), 'b');
  const m2 = mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, p, c.kernelOf(NB.uri));
  assert.equal(m2.kernel?.id, 'b');
  // Timing is a tie-breaker, not proof (a listing's status pair can coincide with another kernel's cell end).
  assert.equal(m2.confidence, 'likely');
  assert.match(m2.reason, /a cell of this notebook finished when/);
});

test('coincidences learn nothing when two kernels finish, or two notebooks go idle, at once; far apart events do not pair', () => {
  const c = new Coincidences(1000);
  c.kernelFinished('a', 0);
  c.kernelFinished('b', 300);
  assert.equal(c.notebookIdle('nb1', 500), undefined);
  const d = new Coincidences(1000);
  d.notebookIdle('nb1', 0);
  d.notebookIdle('nb2', 100);
  assert.equal(d.kernelFinished('a', 200), undefined);
  const e = new Coincidences(1000);
  e.kernelFinished('a', 0);
  assert.equal(e.notebookIdle('nb1', 5000), undefined);
  e.kernelFinished('a', 6000);
  e.forgetKernel('a');
  assert.equal(e.kernelOf('nb1'), undefined);
});

test('no match: other languages, dead or refused kernels, and kernels of nobody in particular', () => {
  const kernels = [
    k('r', { language: 'R', pid: 900, cwd: '/home/u/work' }),
    k('dead', { state: 'dead', pid: 901, cwd: '/home/u/work' }),
    k('stranger', { pid: 902, cwd: '/opt' }),
  ];
  const m = mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, procs({ 900: [500], 901: [500], 902: [1] }));
  assert.equal(m.confidence, 'none');
  assert.equal(m.kernel, undefined);
  assert.deepEqual(m.candidates.map((c) => c.id), ['stranger']);
  assert.match(m.reason, /no running python kernel matches this notebook/);
});

test('a Jupyter Server kernel whose session is the notebook (no pid, no cwd)', () => {
  const kernels = [k('srv-1', { connection_file: undefined, server: 'http://127.0.0.1:8888', notebook: 'work/analysis.ipynb' }), k('srv-2', { connection_file: undefined, server: 'http://127.0.0.1:8888', notebook: 'other.ipynb' })];
  const m = mapNotebook(NB, { language: 'python', status: 'idle' }, kernels, procs({}));
  assert.equal(m.kernel?.id, 'srv-1');
  assert.match(m.reason, /Jupyter Server session is work\/analysis\.ipynb/);
  // The Jupyter extension's own remote sessions carry a suffix.
  assert.equal(sessionNotebook('work/analysis.ipynb-jvsc-0f3a9c2e-77aa-4b1c-9d1e-3a2b1c0d9e8f'), 'work/analysis.ipynb');
  assert.equal(sessionNotebook('analysis-jvsc-abc123'), 'analysis.ipynb');
  assert.equal(sessionNotebook('my-jvsc-notes.ipynb'), 'my-jvsc-notes.ipynb');
  const jvsc = mapNotebook(NB, { language: 'python', status: 'idle' }, [k('srv-3', { connection_file: undefined, notebook: 'analysis.ipynb-jvsc-0f3a9c2e' })], procs({}));
  assert.equal(jvsc.kernel?.id, 'srv-3');
});

test('the status of the notebook\'s kernel can be followed through the fake', async () => {
  const f = fakeJupyter({ [NB.uri]: { language: 'python', status: 'busy' } });
  const jk = await new JupyterLink(f.host, () => {}).kernelOf(NB.uri);
  const seen: string[] = [];
  const sub = jk!.onDidChangeStatus((s) => seen.push(s));
  f.fire('idle');
  sub.dispose();
  f.fire('busy');
  assert.deepEqual(seen, ['idle']);
});

test('procAncestors reads real /proc: a child and a grandchild of this process', async (t) => {
  if (process.platform !== 'linux') return t.skip('/proc is Linux only');
  const child = spawn('/bin/sh', ['-c', 'sleep 5 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const grandchild = await new Promise<number>((resolve) => child.stdout.once('data', (b: Buffer) => resolve(Number(String(b).trim()))));
    assert.equal(procAncestors(child.pid!)?.[0], process.pid);
    const up = procAncestors(grandchild)!;
    assert.deepEqual(up.slice(0, 2), [child.pid, process.pid]);
    assert.equal(procAncestors(2 ** 22 + 12345), undefined, 'no such process');
    // A comm with spaces and parentheses does not confuse the parser.
    assert.deepEqual(procAncestors(42, (p) => (p === '/proc/42/stat' ? '42 (a) b (c) S 7 1 1' : '7 (x) S 1 1 1')), [7, 1]);
  } finally {
    child.kill('SIGKILL');
  }
});
