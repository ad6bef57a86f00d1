// The editor channel's contract on the extension's side: every JSON-RPC
// method `dapscope serve` speaks (editor/server.go), who sends it, and the
// types of its params and result. The Go test editor/contract_test.go records
// the real shapes in editor/testdata/contract/*.json and
// test/contract.test.ts checks them against these types, so both sides move
// together.

import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  Hover,
  HoverParams,
  InitializedParams,
  InitializeParams,
  InitializeResult,
} from 'vscode-languageclient/node';
import type { AdapterKind } from './adapter';
import type { ProcessesParams, ProcessTable } from './processes';
import type { RayListParams, RayListResult } from './ray';
import type { InspectError, InspectResult } from './types';

/** dapscope/inspect options (inspect.Options). */
export interface InspectOptions {
  max_preview_rows?: number;
  max_preview_items?: number;
  include_statistics?: boolean;
  deep_memory?: boolean;
  timeout?: number;
  format?: string;
  request_timeout?: number;
  variables_reference?: boolean;
}

/** dapscope/inspect params (editor.InspectParams). */
export interface InspectParams {
  sessionId?: string;
  vscodeSessionId?: string;
  frameId?: number;
  expression: string;
  options: InspectOptions;
}

/** One sort key of a page (inspect.SortKey): a column name or position. */
export interface SortKey {
  column: string | number;
  descending?: boolean;
}

/** A window of rows (inspect.RowWindow); limit 0..1000 (0: counts and columns only). */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** dapscope/page params (editor.PageParams): the value, then the selection. */
export interface PageParams {
  sessionId?: string;
  vscodeSessionId?: string;
  frameId?: number;
  expression: string;
  /** Names, globs (feature_*) or positions; none: all. */
  columns?: (string | number)[];
  rows?: RowWindow;
  sort?: SortKey[];
  /** Python: DataFrame.query syntax over the column names; JavaScript: an expression over the row's fields (V8's side-effect check). */
  filter?: string;
  count?: boolean; // count where that is a job (Spark): else the page first, its totals pending; rows.limit 0: the count alone
  /** The probe's budget in seconds (default 2). */
  timeout?: number;
}

/** A column of a page (inspect.PageColumn). */
export interface PageColumn {
  name: string;
  dtype?: string;
}

/** One window of rows of the sorted/filtered view (inspect.Page). */
export interface Page {
  kind: string;
  total_rows?: number; // the filtered view's rows, and all_rows before the filter: absent while not counted (total_pending)
  all_rows?: number;
  offset: number;
  limit: number;
  /** Positions of the rows in the original value. */
  positions: number[];
  index?: unknown[];
  columns: PageColumn[];
  column_count: number;
  rows: unknown[][];
  cached?: boolean;
  filter?: string;
  /** Rows whose filter was unknown (a missing value): no match. */
  filter_na_rows?: number;
  sort?: SortKey[];
  computed?: string; // what an engine ran ("computed by Spark: 1 job, 0.2 s")
  total_pending?: string; // why the totals are absent: counted on request (count)
}

/** dapscope/page result (inspect.PageResult): a page, or the inspector's typed error. */
export interface PageResult {
  name: string;
  type?: string;
  page?: Page;
  warnings?: string[];
  partial?: boolean;
  timed_out?: string[];
  probe_ms?: number;
  error?: InspectError;
}

/** dapscope/startProxy params (editor.StartProxyParams). */
export interface StartProxyParams {
  configuration: Record<string, unknown>;
  vscodeSessionId?: string;
}

/**
 * dapscope/startProxy result (editor.StartProxyResult): the loopback address
 * VS Code connects to, and the adapter kind the sidecar resolved. The
 * sidecar's session id is not known yet (the session starts when VS Code
 * connects); it comes from the `dapscope/session` DAP request and with
 * dapscope/sessionEvent.
 */
export interface StartProxyResult {
  address: string;
  adapter: AdapterKind;
}

/** dapscope/mcpEndpoint result (editor.Endpoint). */
export interface McpEndpoint {
  url: string;
  token: string;
}

/** Where a session stopped (session.StopLocation). */
export interface StopLocation {
  reason: string;
  description?: string;
  thread_id: number;
  frame_id?: number;
  function?: string;
  file?: string;
  path?: string;
  line?: number;
  column?: number;
}

/** A breakpoint and what the adapter said of it (session.BreakpointState). */
export interface BreakpointState {
  file: string;
  line: number;
  condition?: string;
  hit_condition?: string;
  log_message?: string;
  id?: number;
  verified: boolean;
  message?: string;
  hit_count: number;
  /** pending: the adapter has not answered for the file's set yet; unknown: it never did. */
  state?: string;
}

/** How a session's program ended (session.Outcome). */
export interface Outcome {
  reached: boolean;
  /** How the run ended, once it has: exited | terminated | crashed | killed | lost. */
  ended?: string;
  exit_code?: number;
  signal?: number;
  signal_name?: string;
  error_type?: string;
  error_message?: string;
  traceback?: string;
  truncated?: boolean;
  /** Processes the program detached that outlived its termination. */
  survivors?: { pid: number; command?: string }[];
}

/** What a session is and where it stands (session.Summary). */
export interface SessionSummary {
  id: string;
  /** headless | editor (a `dapscope` session) | bridged (the editor's own debugger, e.g. js-debug) | kernel */
  origin: string;
  adapter: string;
  status: string;
  program?: string;
  module?: string;
  /** The editor's session name and debug type, for a bridged session. */
  name?: string;
  debug_type?: string;
  stop?: StopLocation;
  active?: boolean;
  /** The outcome's ended, once the run is over. */
  ended?: string;
  /** The tree of processes: the session of the process that started this
   * one, the debuggee's pid, and the sessions of its subprocesses. */
  parent_id?: string;
  pid?: number;
  children?: string[];
}

/** A sidecar session (session.Info): its summary and the rest. */
export interface SessionInfo extends SessionSummary {
  args?: string[];
  env_keys?: string[];
  created_at: string;
  updated_at: string;
  last_breakpoint?: BreakpointState;
  timings: { last_run_ms: number; total_run_ms: number };
  breakpoints?: BreakpointState[];
  outcome?: Outcome;
}

/** A session of another debug type reached through the bridge (bridge.Info, server/bridge). */
export interface BridgedInfo {
  vscodeSessionId: string;
  name: string;
  debugType: string;
  adapter: string;
  status: string;
  threadId?: number;
  updatedAt: string;
}

/** dapscope/sessions result (editor.SessionsResult). */
export interface SessionsResult {
  sessions: SessionInfo[];
  bridged?: BridgedInfo[];
  active?: string;
}

/** dapscope/sessionEvent params (editor.SessionEvent). */
export interface SessionEvent {
  sessionId: string;
  vscodeSessionId?: string;
  kind: 'stopped' | 'continued' | 'terminated';
  stop?: StopLocation;
}

/** dapscope/bridgeEvent params (bridge.Event, server/bridge): a tracked session's lifecycle. */
export interface BridgeEvent {
  vscodeSessionId: string;
  debugType: string;
  name: string;
  adapter: string;
  /** `event`: any other DAP event of the session (output, thread, exited…), named by `event`; `frame`: the stopped thread's top frame (`frameId`, `line`, `path`), from the editor's own first stackTrace of the stop; `cdp`: js-debug's CDP proxy for the session (`cdp`). */
  kind: 'started' | 'stopped' | 'continued' | 'terminated' | 'event' | 'frame' | 'cdp';
  threadId?: number;
  /** The top frame's id (kind `frame`). */
  frameId?: number;
  /** The top frame's line (kind `frame`). */
  line?: number;
  /** The top frame's source path (kind `frame`). */
  path?: string;
  /** Where js-debug's CDP proxy of the session listens (kind `cdp`; loopback). */
  cdp?: CdpAddress;
  reason?: string;
  allThreadsStopped?: boolean;
  /** The DAP event's name (kind `event`). */
  event?: string;
  /** The DAP event's body as the debug adapter sent it. */
  body?: Record<string, unknown>;
}

/** js-debug's CDP proxy address (extension.js-debug.requestCDPProxy; bridge.CDPAddress). */
export interface CdpAddress {
  host: string;
  port: number;
  path?: string;
}

/** dapscope/dapRequest params (editor.DAPRequestParams): a DAP request the sidecar runs on a bridged session. */
export interface DapRequestParams {
  vscodeSessionId: string;
  command: string;
  arguments?: unknown;
}

/** A user's cell seen running in a kernel (kernel.Cell). */
export interface KernelCell {
  msg_id?: string;
  session?: string;
  /** Its code and In[n] are known (false: it ran before dapscope attached). */
  known: boolean;
  code?: string;
  execution_count?: number;
  submitted?: string;
  started?: string;
  /** It started at or before this time (a Jupyter Server's last_activity, read before attaching while it ran). */
  started_by?: string;
  ended?: string;
  error?: boolean;
}

/** A live Jupyter kernel (kernel.Kernel, server/kernel): local (connection file, process) or a Jupyter Server's. */
export interface Kernel {
  id: string;
  connection_file?: string;
  /** The Jupyter Server's URL (no token), for a server's kernel. */
  server?: string;
  /** The notebook using it (a server's sessions). */
  notebook?: string;
  kernel_name?: string;
  language?: string;
  implementation?: string;
  pid?: number;
  cwd?: string;
  started?: string;
  /** idle | busy | starting | dead (a stale file) | not answering | refused (a file that may not be used) | unknown */
  state: string;
  /** The running cell, when busy. */
  cell?: KernelCell;
  connections?: number;
  /** Why it is dead, not answering or refused. */
  error?: string;
  /** runtime-dir | process | server | file */
  found: string;
}

/** dapscope/kernels params (editor.KernelsParams): a Jupyter Server's kernels, else the local ones. */
export interface KernelsParams {
  serverUrl?: string;
  /** A private file holding the server's token (else $JUPYTER_TOKEN of the sidecar, or a ?token= in serverUrl). */
  tokenFile?: string;
}

/** dapscope/kernels result (editor.KernelsResult). */
export interface KernelsResult {
  kernels: Kernel[];
}

/** dapscope/kernelAttach params (editor.KernelAttachParams): kernel (id, id prefix or connection file; none: the only one running), or connectionFile, or serverUrl + kernelId. */
export interface KernelAttachParams {
  kernel?: string;
  connectionFile?: string;
  serverUrl?: string;
  kernelId?: string;
  tokenFile?: string;
}

/**
 * dapscope/kernelAttach result (editor.KernelAttachResult): the session of
 * kind `kernel` (adapter "kernel", origin "kernel"; status "paused" in the
 * namespace while the kernel is idle) and the kernel. Use sessionId with
 * dapscope/inspect, dapscope/page and dapscope/kernelVariables; its
 * dapscope/sessionEvent notifications say when a cell runs (continued) and
 * ran (stopped: stop.description "after In[n]").
 */
export interface KernelAttachResult extends SessionSummary {
  sessionId: string;
  kernel: Kernel;
}

/** dapscope/kernelVariables params (editor.KernelVariablesParams). */
export interface KernelVariablesParams {
  sessionId: string;
  /** Also IPython's own names (In, Out, _i*…), modules, functions and classes. */
  all?: boolean;
}

/** One variable of a kernel's namespace (editor.KernelVariable). */
export interface KernelVariable {
  name: string;
  /** The short type name (DataFrame). */
  type: string;
  /** scalar text container dataframe series index ndarray tensor model … object function class module */
  kind: string;
  shape?: number[];
  dtype?: string;
  /** Bytes (DataFrames, tensors). */
  memory?: number;
  /** The one-line summary: `DataFrame 1,000 × 10 · 3 nulls in price · 80 KB`. */
  summary: string;
  /**
   * The value's fingerprint: it changes when the content does, even where
   * the summary does not (a cell written in place). The view compares it
   * with the last stop's to mark what a cell changed.
   */
  fp?: string;
  /** Why the value could not be read (summary is then empty). */
  error?: string;
}

/** dapscope/kernelVariables result (editor.KernelVariablesResult). */
export interface KernelVariablesResult {
  items: KernelVariable[];
}

interface Method<From extends 'extension' | 'sidecar', Kind extends 'request' | 'notification', P, R = never> {
  from: From;
  kind: Kind;
  params: P;
  result: R;
}

/** Every method of the channel: who sends it, its params and (requests) result. */
export interface Methods {
  initialize: Method<'extension', 'request', InitializeParams, InitializeResult>;
  initialized: Method<'extension', 'notification', InitializedParams>;
  shutdown: Method<'extension', 'request', null, null>;
  exit: Method<'extension', 'notification', null>;
  'textDocument/didOpen': Method<'extension', 'notification', DidOpenTextDocumentParams>;
  'textDocument/didChange': Method<'extension', 'notification', DidChangeTextDocumentParams>;
  'textDocument/didClose': Method<'extension', 'notification', DidCloseTextDocumentParams>;
  'textDocument/hover': Method<'extension', 'request', HoverParams, Hover | null>;
  'dapscope/inspect': Method<'extension', 'request', InspectParams, InspectResult>;
  'dapscope/page': Method<'extension', 'request', PageParams, PageResult>;
  'dapscope/sessions': Method<'extension', 'request', null, SessionsResult>;
  'dapscope/startProxy': Method<'extension', 'request', StartProxyParams, StartProxyResult>;
  'dapscope/mcpEndpoint': Method<'extension', 'request', null, McpEndpoint>;
  'dapscope/kernels': Method<'extension', 'request', KernelsParams | null, KernelsResult>;
  'dapscope/kernelAttach': Method<'extension', 'request', KernelAttachParams, KernelAttachResult>;
  'dapscope/kernelVariables': Method<'extension', 'request', KernelVariablesParams, KernelVariablesResult>;
  'dapscope/inspectProcesses': Method<'extension', 'request', ProcessesParams, ProcessTable>;
  'dapscope/rayList': Method<'extension', 'request', RayListParams, RayListResult>;
  'dapscope/bridgeEvent': Method<'extension', 'notification', BridgeEvent>;
  'dapscope/dapRequest': Method<'sidecar', 'request', DapRequestParams, unknown>;
  'dapscope/sessionEvent': Method<'sidecar', 'notification', SessionEvent>;
}

export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
export type ResultOf<M extends MethodName> = Methods[M]['result'];

/** The method table at run time (the same keys as Methods, checked by the compiler). */
export const METHODS: { [M in MethodName]: Pick<Methods[M], 'from' | 'kind'> } = {
  initialize: { from: 'extension', kind: 'request' },
  initialized: { from: 'extension', kind: 'notification' },
  shutdown: { from: 'extension', kind: 'request' },
  exit: { from: 'extension', kind: 'notification' },
  'textDocument/didOpen': { from: 'extension', kind: 'notification' },
  'textDocument/didChange': { from: 'extension', kind: 'notification' },
  'textDocument/didClose': { from: 'extension', kind: 'notification' },
  'textDocument/hover': { from: 'extension', kind: 'request' },
  'dapscope/inspect': { from: 'extension', kind: 'request' },
  'dapscope/page': { from: 'extension', kind: 'request' },
  'dapscope/sessions': { from: 'extension', kind: 'request' },
  'dapscope/startProxy': { from: 'extension', kind: 'request' },
  'dapscope/mcpEndpoint': { from: 'extension', kind: 'request' },
  'dapscope/kernels': { from: 'extension', kind: 'request' },
  'dapscope/kernelAttach': { from: 'extension', kind: 'request' },
  'dapscope/kernelVariables': { from: 'extension', kind: 'request' },
  'dapscope/inspectProcesses': { from: 'extension', kind: 'request' },
  'dapscope/rayList': { from: 'extension', kind: 'request' },
  'dapscope/bridgeEvent': { from: 'extension', kind: 'notification' },
  'dapscope/dapRequest': { from: 'sidecar', kind: 'request' },
  'dapscope/sessionEvent': { from: 'sidecar', kind: 'notification' },
};
