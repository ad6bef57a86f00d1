// Unit tests: dapscope's viewer as a Jupyter variable viewer (the Jupyter
// extension's "Show in Data Viewer"), through a fake of the Jupyter API
// (@vscode/jupyter-extension's getKernel; executeCode fails the test) and a
// scripted sidecar: access granted, refused, revoked between two calls, a
// kernel wrapper that throws on a read, a type dapscope has no viewer for,
// the debugger pane's argument, and the package.json contribution (read
// from the working directory: npm test runs in vscode-extension/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Jupyter, Kernel, KernelStatus } from '@vscode/jupyter-extension';
import { readVariable, resolveVariable, supportedType, VIEWER_COMMAND, VIEWER_DATA_TYPES, type ViewerParts } from '../src/jupyterviewer';
import { ACCESS_REVOKED_ERROR, isAccessRevoked, JupyterLink, JUPYTER_EXTENSION_ID, type NotebookFacts } from '../src/notebookkernel';
import type { Kernel as KernelInfo } from '../src/protocol';

const NB: NotebookFacts = { uri: 'file:///home/u/work/analysis.ipynb', fsPath: '/home/u/work/analysis.ipynb', cells: [{ text: 'df = load()', executionOrder: 1 }] };

function revokedError(): Error {
  const e = new Error('Access to Jupyter Kernel has been revoked');
  e.name = ACCESS_REVOKED_ERROR;
  return e;
}

/** A fake Jupyter extension whose access can be granted, refused, or revoked later; it counts its calls. */
function fakeJupyter(access: { mode: 'granted' | 'refused' | 'revoked-reads' }) {
  const calls: string[] = [];
  const kernel: Kernel = {
    get status(): KernelStatus {
      if (access.mode === 'revoked-reads') throw revokedError();
      return 'idle';
    },
    language: 'python',
    onDidChangeStatus: () => ({ dispose() {} }),
    executeCode: () => {
      calls.push('executeCode');
      throw new Error('executeCode must never be called: it is not traceless');
    },
  };
  const api: Jupyter = {
    kernels: {
      async getKernel(uri) {
        calls.push(`getKernel ${String(uri)}`);
        if (access.mode === 'refused') throw revokedError();
        return String(uri) === NB.uri ? kernel : undefined;
      },
    },
    createJupyterServerCollection: () => {
      throw new Error('not used');
    },
  };
  const ext = { isActive: true, activate: async () => api, exports: api as unknown };
  const link = new JupyterLink({ getExtension: (id) => (id === JUPYTER_EXTENSION_ID ? ext : undefined) }, (m) => calls.push(`log ${m}`));
  return { link, calls };
}

/** The kernels: this window's in the notebook's folder, and a stranger's. */
const KERNELS: KernelInfo[] = [
  { id: 'v2-111', connection_file: '/tmp/kernel-v2-111.json', language: 'python', state: 'idle', found: 'process', pid: 900, cwd: '/home/u/work' },
  { id: 'other', connection_file: '/tmp/kernel-other.json', language: 'python', state: 'idle', found: 'process', pid: 901, cwd: '/srv' },
];

function parts(link: JupyterLink, over: Partial<ViewerParts> = {}) {
  const attached: string[] = [];
  const p: ViewerParts = {
    access: (uri) => link.access(uri),
    notebook: (uri) => (uri === undefined || uri === NB.uri ? NB : undefined),
    kernels: async () => KERNELS,
    learned: () => undefined,
    proc: { hostPid: 500, ancestors: (pid) => (pid === 900 ? [500, 1] : [1]) },
    attach: async (k) => {
      attached.push(k.id);
      return { sessionId: `k-${k.id}` };
    },
    ...over,
  };
  return { p, attached };
}

/** What the Jupyter extension passes: an IJupyterVariable whose fileName is the notebook's Uri. */
function jvar(name: string, type: string) {
  return { name, type, value: '…', size: 0, shape: '', count: 0, truncated: false, supportsDataExplorer: true, fileName: { scheme: 'file', path: NB.fsPath, toString: () => NB.uri } };
}

test('access granted: the notebook maps to its kernel, the sidecar attaches, the viewer opens the name', async () => {
  const f = fakeJupyter({ mode: 'granted' });
  const { p, attached } = parts(f.link);
  const out = await resolveVariable(jvar('df', 'DataFrame'), p);
  assert.equal(out.kind, 'open', JSON.stringify(out));
  if (out.kind !== 'open') return;
  assert.equal(out.kernel.id, 'v2-111');
  assert.equal(out.sessionId, 'k-v2-111');
  assert.equal(out.expression, 'df');
  assert.match(out.notes.join('\n'), /analysis\.ipynb → kernel v2-111 \(likely: .*started by this window/);
  assert.deepEqual(attached, ['v2-111']);
  assert.deepEqual(f.calls, [`getKernel ${NB.uri}`], 'getKernel only: never executeCode');
});

test('access refused: no exception; the process facts still find the kernel, and the refusal is said', async () => {
  const f = fakeJupyter({ mode: 'refused' });
  const { p } = parts(f.link);
  const out = await resolveVariable(jvar('df', 'DataFrame'), p);
  assert.equal(out.kind, 'open', JSON.stringify(out));
  if (out.kind !== 'open') return;
  assert.equal(out.kernel.id, 'v2-111');
  assert.match(out.notes[0], /refused dapscope access to its kernels .*Manage Access To Jupyter Kernels/);
  assert.ok(f.calls.some((c) => /log jupyter: the Jupyter extension refused/.test(c)));

  // Refused, and nothing else ties the notebook to a kernel: a clear message, not a throw.
  const { p: p2, attached } = parts(f.link, { proc: { hostPid: 500, ancestors: () => [1] }, kernels: async () => [KERNELS[1]] });
  const none = await resolveVariable(jvar('df', 'DataFrame'), p2);
  assert.equal(none.kind, 'message');
  if (none.kind !== 'message') return;
  assert.match(none.text, /cannot tell which kernel runs analysis\.ipynb: .*refused dapscope access.*Kernel variables view/);
  assert.deepEqual(attached, []);
});

test('access revoked mid-session: the first call opens, the next says so and does not throw', async () => {
  const access: { mode: 'granted' | 'refused' | 'revoked-reads' } = { mode: 'granted' };
  const f = fakeJupyter(access);
  const { p } = parts(f.link, { proc: { hostPid: 500, ancestors: () => [1] }, kernels: async () => [{ ...KERNELS[0], pid: undefined, cwd: undefined }] });
  // Granted: the kernel in the notebook's folder opens.
  const first = await resolveVariable(jvar('df', 'DataFrame'), { ...p, kernels: async () => KERNELS });
  assert.equal(first.kind, 'open');
  // Revoked: the wrapper the extension handed out now throws on every read, and the
  // remaining facts (a kernel-v2 file, no folder, not this window's) are too weak.
  access.mode = 'revoked-reads';
  const a = await f.link.access(NB.uri);
  assert.equal(a.state, 'refused');
  const second = await resolveVariable(jvar('df', 'DataFrame'), p);
  assert.equal(second.kind, 'message');
  if (second.kind === 'message') assert.match(second.text, /refused dapscope access to its kernels/);
  // Revoked in getKernel itself (older Jupyter extensions asked there).
  access.mode = 'refused';
  const third = await resolveVariable(jvar('df', 'DataFrame'), p);
  assert.equal(third.kind, 'message');
  assert.equal(await f.link.kernelOf(NB.uri), undefined, 'the view sees no kernel, and no exception');
  assert.equal(f.calls.includes('executeCode'), false);
});

test('a variable of a type dapscope has no viewer for: a message, no API call, no attach', async () => {
  const f = fakeJupyter({ mode: 'granted' });
  const { p, attached } = parts(f.link);
  const out = await resolveVariable(jvar('config', 'dict'), p);
  assert.equal(out.kind, 'message');
  if (out.kind === 'message') assert.match(out.text, /opens tables, arrays and tensors .*; config is a dict/);
  assert.deepEqual(attached, []);
  assert.deepEqual(f.calls, []);
  assert.equal(supportedType('CategoricalIndex'), true, 'any pandas Index');
  assert.equal(supportedType('list'), false);
});

test('the arguments: a Variables panel variable, a debugger pane variable, a Uri as JSON, and nonsense', async () => {
  assert.deepEqual(readVariable(jvar('df', 'DataFrame')), { name: 'df', type: 'DataFrame', notebook: NB.uri });
  assert.deepEqual(readVariable({ variable: { name: 'df', evaluateName: 'df', type: 'DataFrame' }, container: {} }), { name: 'df', type: 'DataFrame', notebook: undefined });
  assert.deepEqual(readVariable({ name: 'x', type: 'ndarray', fileName: { scheme: 'file', authority: '', path: '/a/b.ipynb' } }), { name: 'x', type: 'ndarray', notebook: 'file:///a/b.ipynb' });
  for (const bad of [undefined, null, 3, 'df', {}, { name: '' }]) assert.equal(readVariable(bad), undefined);

  const f = fakeJupyter({ mode: 'granted' });
  const { p } = parts(f.link);
  // The debugger's path has no fileName: the active notebook.
  assert.equal((await resolveVariable({ variable: { name: 'df', type: 'DataFrame' } }, p)).kind, 'open');
  const cases: [unknown, RegExp][] = [
    [undefined, /opens a variable of the Jupyter Variables panel/],
    [{ name: 'df.head()', type: 'DataFrame' }, /not a name with attributes and subscripts/],
    [{ name: 'df', type: 'DataFrame', fileName: 'file:///elsewhere.ipynb' }, /its notebook is not open in this window/],
  ];
  for (const [arg, want] of cases) {
    const out = await resolveVariable(arg, p);
    assert.equal(out.kind, 'message');
    if (out.kind === 'message') assert.match(out.text, want);
  }
  // A failing attach, and parts that throw, are messages too.
  const { p: failing } = parts(f.link, { attach: async () => ({ failure: 'connection refused' }) });
  const out = await resolveVariable(jvar('df', 'DataFrame'), failing);
  assert.equal(out.kind, 'message');
  if (out.kind === 'message') assert.match(out.text, /could not attach to kernel v2-111: connection refused/);
  const { p: throwing } = parts(f.link, { kernels: async () => { throw new Error('sidecar gone'); } });
  const t = await resolveVariable(jvar('df', 'DataFrame'), throwing);
  assert.equal(t.kind, 'message');
  if (t.kind === 'message') assert.match(t.text, /could not open this variable: sidecar gone/);
});

test('isAccessRevoked knows the Jupyter extension\'s error by its name and message only', () => {
  assert.equal(isAccessRevoked(revokedError()), true);
  assert.equal(isAccessRevoked(new Error('Access to Jupyter Kernel has been revoked')), true);
  assert.equal(isAccessRevoked(new Error('kernel died')), false);
  assert.equal(isAccessRevoked(undefined), false);
});

test('package.json contributes the viewer: the registered command, the same dataTypes, hidden from the palette', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  const viewers = pkg.contributes.jupyterVariableViewers;
  assert.equal(viewers.length, 1);
  assert.equal(viewers[0].command, VIEWER_COMMAND);
  assert.deepEqual(viewers[0].dataTypes, VIEWER_DATA_TYPES);
  for (const t of ['DataFrame', 'Series', 'ndarray', 'Tensor', 'LazyFrame', 'Table', 'RecordBatch']) assert.ok(viewers[0].dataTypes.includes(t), t);
  assert.ok(pkg.contributes.commands.some((c: { command: string }) => c.command === VIEWER_COMMAND));
  assert.ok(pkg.contributes.menus.commandPalette.some((c: { command: string; when: string }) => c.command === VIEWER_COMMAND && c.when === 'false'));
  assert.ok(pkg.keywords.includes('jupyterVariableViewers'), 'the Jupyter extension searches @tag:jupyterVariableViewers');
  const src = readFileSync('src/kernelview.ts', 'utf8');
  assert.match(src, /registerCommand\(VIEWER_COMMAND/);
});
