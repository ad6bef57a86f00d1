// dapscope's data viewer as a Jupyter variable viewer: the Jupyter extension
// (ms-toolsai.jupyter) offers the viewers other extensions contribute under
// `contributes.jupyterVariableViewers` (package.json: a command and the
// dataTypes it opens, matched against the Variables panel's type name) when
// the user picks "Show in Data Viewer", and runs the command with the
// panel's variable (its IJupyterVariable: name, type, fileName = the
// notebook's URI; the debugger's path passes no fileName: the active
// notebook then). This module turns that variable into a dapscope kernel
// session and an expression: the notebook is mapped to a discovered kernel
// (notebookkernel.ts, through the API's getKernel only, never executeCode),
// the sidecar attaches to that kernel, and the inspection panel opens on the
// name. Every failure is an outcome with a message, never an exception: the
// API's access may be refused or revoked (vscode.jupyter.apiAccessRevoked),
// the type may be one dapscope has no viewer for, the notebook may map to no
// kernel. Without `vscode`: the unit tests drive it with a fake of the API.

import { isInspectable } from './expression';
import { mapNotebook, type ApiAccess, type ApiKernelFacts, type NotebookFacts, type ProcessFacts } from './notebookkernel';
import type { Kernel as KernelInfo } from './protocol';

/** The command the contribution names (package.json: contributes.jupyterVariableViewers). */
export const VIEWER_COMMAND = 'dapscope.jupyter.showVariable';

/**
 * The type names (Python's type(x).__name__, as the Jupyter Variables panel
 * shows them) dapscope's viewer opens: pandas, NumPy, PyTorch, xarray, and
 * the polars, Arrow and DuckDB values of the data engines. The same list is
 * in package.json (a unit test keeps them equal).
 */
export const VIEWER_DATA_TYPES = [
  'DataFrame',
  'Series',
  'Index',
  'RangeIndex',
  'MultiIndex',
  'DatetimeIndex',
  'ndarray',
  'Tensor',
  'Parameter',
  'DataArray',
  'Dataset',
  'LazyFrame',
  'Table',
  'RecordBatch',
  'ChunkedArray',
  'DuckDBPyRelation',
];

/** The variable as the Jupyter extension passes it (IJupyterVariable), or a debugger pane's argument. */
export interface JupyterVariable {
  name: string;
  type: string;
  /** The notebook's URI, as the string key of notebooks. */
  notebook?: string;
}

/**
 * Reads the command's argument: an IJupyterVariable ({name, type, fileName})
 * from the Variables panel, or a debug/variables/context argument
 * ({variable: {name, evaluateName, type}}). Undefined when it is neither.
 */
export function readVariable(arg: unknown): JupyterVariable | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as Record<string, unknown>;
  const inner = a.variable && typeof a.variable === 'object' ? (a.variable as Record<string, unknown>) : undefined;
  const src = inner ?? a;
  const name = typeof src.evaluateName === 'string' && src.evaluateName ? src.evaluateName : src.name;
  if (typeof name !== 'string' || !name) return undefined;
  const type = typeof src.type === 'string' ? src.type : '';
  return { name, type, notebook: uriString(a.fileName) };
}

/** A Uri (its toString), a string, or a Uri's JSON form ({scheme, authority, path}) as a URI string. */
function uriString(f: unknown): string | undefined {
  if (typeof f === 'string') return f || undefined;
  if (!f || typeof f !== 'object') return undefined;
  const u = f as { scheme?: unknown; authority?: unknown; path?: unknown; toString(): string };
  if (typeof u.scheme !== 'string') return undefined;
  const s = String(u);
  if (s !== '[object Object]') return s;
  return typeof u.path === 'string' ? `${u.scheme}://${typeof u.authority === 'string' ? u.authority : ''}${u.path}` : undefined;
}

/** The parts the command uses (kernelview.ts wires the real ones). */
export interface ViewerParts {
  /** The Jupyter API's answer for a notebook (JupyterLink.access). */
  access(notebook: string): Promise<ApiAccess>;
  /** The facts of an open notebook by URI, or of the active one when uri is undefined. */
  notebook(uri?: string): NotebookFacts | undefined;
  /** The running kernels, listed now. */
  kernels(): Promise<KernelInfo[]>;
  /** A kernel a coincidence of cell ends tied to the notebook (Coincidences). */
  learned(notebook: string): string | undefined;
  proc: ProcessFacts;
  /** Attaches the sidecar to a kernel: its session, or why not. */
  attach(k: KernelInfo): Promise<{ sessionId?: string; failure?: string }>;
}

export type ViewerOutcome =
  | { kind: 'open'; kernel: KernelInfo; sessionId: string; expression: string; notes: string[] }
  | { kind: 'message'; text: string };

/** Whether dapscope's viewer opens a value of this type name. */
export function supportedType(type: string): boolean {
  return VIEWER_DATA_TYPES.includes(type) || /Index$/.test(type);
}

function nameOf(nb: NotebookFacts): string {
  return nb.fsPath ? nb.fsPath.split(/[\\/]/).pop()! : nb.uri;
}

/** Resolves the variable to a kernel session and an expression, or a message saying why not. Never throws. */
export async function resolveVariable(arg: unknown, parts: ViewerParts): Promise<ViewerOutcome> {
  try {
    return await resolve(arg, parts);
  } catch (e) {
    return { kind: 'message', text: `dapscope could not open this variable: ${(e as Error)?.message ?? String(e)}` };
  }
}

async function resolve(arg: unknown, parts: ViewerParts): Promise<ViewerOutcome> {
  const v = readVariable(arg);
  if (!v) return { kind: 'message', text: 'dapscope: this command opens a variable of the Jupyter Variables panel (Show in Data Viewer).' };
  if (v.type && !supportedType(v.type)) {
    return {
      kind: 'message',
      text: `dapscope's data viewer opens tables, arrays and tensors (${VIEWER_DATA_TYPES.slice(0, 8).join(', ')}, …); ${v.name} is a ${v.type}. Its summary is in dapscope's Kernel variables view.`,
    };
  }
  if (!isInspectable(v.name)) return { kind: 'message', text: `dapscope cannot open ${v.name}: it is not a name with attributes and subscripts.` };
  const nb = parts.notebook(v.notebook);
  if (!nb) return { kind: 'message', text: `dapscope cannot open ${v.name}: its notebook is not open in this window.` };
  const notes: string[] = [];
  const a = await parts.access(nb.uri);
  let facts: ApiKernelFacts;
  if (a.state === 'granted') facts = a.facts;
  else {
    // Without the API the mapping still has the process, folder and server facts.
    facts = { language: '', status: 'unknown' };
    if (a.state === 'refused' || a.state === 'unavailable') notes.push(a.message);
    else notes.push(`the Jupyter extension names no kernel for ${nameOf(nb)}`);
  }
  const kernels = await parts.kernels();
  const m = mapNotebook(nb, facts, kernels, parts.proc, parts.learned(nb.uri));
  if (!m.kernel || (m.confidence !== 'certain' && m.confidence !== 'likely')) {
    const why = [m.reason, ...notes].join('; ');
    return { kind: 'message', text: `dapscope cannot tell which kernel runs ${nameOf(nb)}: ${why}. Open ${v.name} from dapscope's Kernel variables view.` };
  }
  const at = await parts.attach(m.kernel);
  if (!at.sessionId) return { kind: 'message', text: `dapscope could not attach to kernel ${m.kernel.id}: ${at.failure ?? 'no session'}` };
  notes.push(`${nameOf(nb)} → kernel ${m.kernel.id} (${m.confidence}: ${m.reason})`);
  return { kind: 'open', kernel: m.kernel, sessionId: at.sessionId, expression: v.name, notes };
}
