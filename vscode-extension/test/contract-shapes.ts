// The run-time shapes of the editor channel's types (src/protocol.ts,
// src/types.ts) for the contract test; the compiler holds each one to its
// type's exact keys (see shape.ts).
import type { Hover, HoverParams, InitializeResult } from 'vscode-languageclient/node';
import type {
  BreakpointState,
  BridgedInfo,
  BridgeEvent,
  CdpAddress,
  DapRequestParams,
  InspectOptions,
  InspectParams,
  Kernel,
  KernelAttachParams,
  KernelAttachResult,
  KernelCell,
  KernelsParams,
  KernelsResult,
  KernelVariable,
  KernelVariablesParams,
  KernelVariablesResult,
  McpEndpoint,
  MethodName,
  Page,
  PageColumn,
  PageParams,
  PageResult,
  RowWindow,
  SortKey,
  Outcome,
  SessionEvent,
  SessionInfo,
  SessionsResult,
  StartProxyParams,
  StartProxyResult,
  StopLocation,
} from '../src/protocol';
import type { ProcessesParams, ProcessRow, ProcessTable } from '../src/processes';
import type { RayListParams, RayListResult, RayTask } from '../src/ray';
import type { Attribute, Column, Dim, Histogram, IndexInfo, InspectError, InspectResult, Item, Model, Preview, Row, Statistics, Structure, XVariable } from '../src/types';
import { array, lazy, leaf, nullable, object, opt, record, req, type Shape } from './shape';

const histogram = object<Histogram>({ start: req(), width: req(), counts: req(), tails_exact: opt(), tails: opt() });
const column = object<Column>({ name: req(), key: opt(), dtype: opt(), null_count: opt(), duplicate: opt() });
const indexInfo = object<IndexInfo>({
  type: opt(), name: opt(), dtype: opt(), length: opt(), start: opt(), stop: opt(), step: opt(), is_unique: opt(), repeated: opt(), levels: opt(), names: opt(), first: opt(), last: opt(),
});
const attribute = object<Attribute>({ name: req(), type: opt(), repr: opt(), is_truncated: opt() });
const dim = object<Dim>({ name: req(), size: req() });
const modelShape = object<Model>({
  params: req(), trainable: req(), param_bytes: req(), tensors: req(), buffers: opt(), buffer_bytes: opt(),
  dtypes: opt(record(leaf)), devices: opt(record(leaf)), training: opt(), training_mixed: opt(),
  frozen: opt(), frozen_count: opt(), nan: opt(), inf: opt(),
  layers: opt(array(object<NonNullable<Model['layers']>[number]>({ path: req(), type: req(), depth: req(), params: opt(), shapes: opt(record(leaf)), training: opt() }))),
  layer_count: opt(),
  entries: opt(array(object<NonNullable<Model['entries']>[number]>({ name: req(), shape: req(), dtype: req(), device: opt() }))),
  entry_count: opt(),
});
const xvariable = object<XVariable>({ name: req(), dims: opt(), dtype: opt(), size: opt(), index: opt(), null_count: opt(), lazy: opt(), values: opt() });

export const structureShape = object<Structure>({
  shape: opt(), ndim: opt(), length: opt(), cap: opt(), size: opt(), dtype: opt(),
  fields: opt(array(object<{ name: string; dtype?: string }>({ name: req(), dtype: opt() }))),
  nbytes: opt(), itemsize: opt(), c_contiguous: opt(), f_contiguous: opt(), masked_count: opt(), device: opt(), requires_grad: opt(),
  grad_fn: opt(), has_grad: opt(), layout: opt(), nnz: opt(), qscheme: opt(), storage_bytes: opt(),
  device_memory: opt(object<NonNullable<Structure['device_memory']>>({ allocated: req(), reserved: req() })), model: opt(modelShape),
  array_name: opt(), dims: opt(array(dim)), coords: opt(array(xvariable)), data_vars: opt(array(xvariable)), attrs: opt(array(attribute)),
  memory_bytes: opt(), memory_deep: opt(), memory_estimated: opt(),
  columns: opt(array(column)), column_count: opt(), column_levels: opt(), column_level_names: opt(), index: opt(indexInfo), series_name: opt(), duplicate_columns: opt(),
  key_types: opt(record(leaf)), value_types: opt(record(leaf)), element_types: opt(record(leaf)), element_type: opt(), key_type: opt(),
  depth: opt(), self_referencing: opt(), line_count: opt(), value: opt(),
  class: opt(), module: opt(), kind: opt(), attributes: opt(array(attribute)), attribute_count: opt(), properties: opt(),
  signature: opt(), doc: opt(), bases: opt(), file: opt(), address: opt(), nil: opt(), target_type: opt(),
});

export const statisticsShape: Shape = object<Statistics>({
  name: opt(), count: opt(), min: opt(), max: opt(), mean: opt(), std: opt(), ddof: opt(),
  quantiles: opt(object<NonNullable<Statistics['quantiles']>>({ p5: req(), p25: req(), p50: req(), p75: req(), p95: req() })),
  zeros: opt(), nan_count: opt(), inf_count: opt(), histogram: opt(histogram), distinct: opt(), distinct_estimated: opt(),
  repeated: opt(), repeated_not_computed: opt(), key_like: opt(),
  top_values: opt(array(object<{ value: unknown; count: number }>({ value: req(), count: req() }))),
  first: opt(), last: opt(), str_len: opt(object<NonNullable<Statistics['str_len']>>({ min: req(), max: req(), mean: req() })),
  true_count: opt(), true_rate: opt(), categories: opt(), ordered: opt(), element_types: opt(record(leaf)),
  sampled: opt(), sample_size: opt(), skipped: opt(), duplicate_rows: opt(), duplicate_rows_by: opt(), duplicate_rows_not_computed: opt(), columns: opt(array(lazy(() => statisticsShape))),
});

const row = object<Row>({ index: req(), values: req() });
const item = object<Item>({ key: opt(), index: opt(), value: req(), type: opt() });
export const previewShape = object<Preview>({
  columns: opt(), head: opt(array(row)), tail: opt(array(row)), omitted_rows: opt(), items: opt(array(item)), tail_items: opt(array(item)),
  values: opt(), text: opt(), repr: opt(), is_truncated: opt(),
});

export const inspectErrorShape = object<InspectError>({ code: opt(), message: opt(), hint: opt(), available_variables: opt(), state: opt() });

export const inspectResultShape = object<InspectResult>({
  name: opt(), type: opt(), detected_type: opt(), language: opt(), structure: opt(structureShape), preview: opt(previewShape), statistics: opt(statisticsShape),
  summary: opt(), warnings: opt(), error: opt(inspectErrorShape), partial: opt(), timed_out: opt(), variables_reference: opt(),
  hint: opt(), source: opt(), elapsed_ms: opt(), probe_ms: opt(),
});

const stopLocation = object<StopLocation>({
  reason: req(), description: opt(), thread_id: req(), frame_id: opt(), function: opt(), file: opt(), path: opt(), line: opt(), column: opt(),
});
const breakpointState = object<BreakpointState>({
  file: req(), line: req(), condition: opt(), hit_condition: opt(), log_message: opt(), id: opt(), verified: req(), message: opt(), hit_count: req(), state: opt(),
});
const sessionInfo = object<SessionInfo>({
  id: req(), origin: req(), adapter: req(), status: req(), program: opt(), module: opt(), name: opt(), debug_type: opt(), args: opt(), env_keys: opt(),
  created_at: req(), updated_at: req(), stop: opt(stopLocation), last_breakpoint: opt(breakpointState),
  timings: req(object<SessionInfo['timings']>({ last_run_ms: req(), total_run_ms: req() })),
  breakpoints: opt(array(breakpointState)),
  outcome: opt(object<Outcome>({ reached: req(), ended: opt(), exit_code: opt(), signal: opt(), signal_name: opt(), error_type: opt(), error_message: opt(), traceback: opt(), truncated: opt(), survivors: opt() })),
  active: opt(), ended: opt(), parent_id: opt(), pid: opt(), children: opt(),
});
const bridgedInfo = object<BridgedInfo>({ vscodeSessionId: req(), name: req(), debugType: req(), adapter: req(), status: req(), threadId: opt(), updatedAt: req() });

const kernelCell = object<KernelCell>({
  msg_id: opt(), session: opt(), known: req(), code: opt(), execution_count: opt(), submitted: opt(), started: opt(), started_by: opt(), ended: opt(), error: opt(),
});
const kernelShape = object<Kernel>({
  id: req(), connection_file: opt(), server: opt(), notebook: opt(), kernel_name: opt(), language: opt(), implementation: opt(),
  pid: opt(), cwd: opt(), started: opt(), state: req(), cell: opt(kernelCell), connections: opt(), error: opt(), found: req(),
});

const sortKey = object<SortKey>({ column: req(), descending: opt() });
const rowWindow = object<RowWindow>({ offset: req(), limit: req() });

const position = leaf; // LSP's own types: checked by the compiler
const hover = object<Hover>({ contents: req(), range: opt() });

const rayTask = object<RayTask>({
  worker_id: req(), pid: req(), host: req(), port: req(), paused_threads: req(), node_id: opt(), task_id: opt(), name: opt(), function: opt(), job_id: opt(), actor_id: opt(), note: opt(),
});

/** Shapes of the params and result of the methods whose types are dapscope's. */
export const SHAPES: Partial<Record<MethodName, { params?: Shape; result?: Shape }>> = {
  'textDocument/hover': {
    params: object<HoverParams>({ textDocument: req(), position: req(position), workDoneToken: opt() }),
    result: nullable(hover),
  },
  initialize: {
    // InitializeResult allows any extra member; dapscope answers these two.
    result: object<Pick<InitializeResult, 'capabilities' | 'serverInfo'>>({ capabilities: req(), serverInfo: opt(object<NonNullable<InitializeResult['serverInfo']>>({ name: req(), version: opt() })) }),
  },
  'dapscope/inspect': {
    params: object<InspectParams>({
      sessionId: opt(), vscodeSessionId: opt(), frameId: opt(), expression: req(),
      options: req(object<InspectOptions>({
        max_preview_rows: opt(), max_preview_items: opt(), include_statistics: opt(), deep_memory: opt(), timeout: opt(), format: opt(), request_timeout: opt(), variables_reference: opt(),
      })),
    }),
    result: inspectResultShape,
  },
  'dapscope/page': {
    params: object<PageParams>({
      sessionId: opt(), vscodeSessionId: opt(), frameId: opt(), expression: req(), columns: opt(), rows: opt(rowWindow), sort: opt(array(sortKey)), filter: opt(), count: opt(), timeout: opt(),
    }),
    result: object<PageResult>({
      name: req(), type: opt(), warnings: opt(), partial: opt(), timed_out: opt(), probe_ms: opt(), error: opt(inspectErrorShape),
      page: opt(object<Page>({
        // positions and rows are lists, empty ones for a page without rows, never null (issue #28.7)
        kind: req(), total_rows: opt(), all_rows: opt(), offset: req(), limit: req(), positions: req(array(leaf)), index: opt(),
        columns: req(array(object<PageColumn>({ name: req(), dtype: opt() }))), column_count: req(), rows: req(array(array(leaf))), cached: opt(), filter: opt(), filter_na_rows: opt(), sort: opt(array(sortKey)),
        computed: opt(), total_pending: opt(),
      })),
    }),
  },
  'dapscope/sessions': {
    params: nullable(object<Record<string, never>>({})),
    result: object<SessionsResult>({ sessions: req(array(sessionInfo)), bridged: opt(array(bridgedInfo)), active: opt() }),
  },
  'dapscope/startProxy': {
    params: object<StartProxyParams>({ configuration: req(record(leaf)), vscodeSessionId: opt() }),
    result: object<StartProxyResult>({ address: req(), adapter: req() }),
  },
  'dapscope/mcpEndpoint': { result: object<McpEndpoint>({ url: req(), token: req() }) },
  'dapscope/kernels': {
    params: nullable(object<KernelsParams>({ serverUrl: opt(), tokenFile: opt() })),
    result: object<KernelsResult>({ kernels: req(array(kernelShape)) }),
  },
  'dapscope/kernelAttach': {
    params: object<KernelAttachParams>({ kernel: opt(), connectionFile: opt(), serverUrl: opt(), kernelId: opt(), tokenFile: opt() }),
    result: object<KernelAttachResult>({
      sessionId: req(), id: req(), origin: req(), adapter: req(), status: req(), program: opt(), module: opt(), name: opt(), debug_type: opt(),
      stop: opt(stopLocation), active: opt(), ended: opt(), parent_id: opt(), pid: opt(), children: opt(), kernel: req(kernelShape),
    }),
  },
  'dapscope/kernelVariables': {
    params: object<KernelVariablesParams>({ sessionId: req(), all: opt() }),
    result: object<KernelVariablesResult>({
      items: req(array(object<KernelVariable>({ name: req(), type: req(), kind: req(), shape: opt(), dtype: opt(), memory: opt(), summary: req(), fp: opt(), error: opt() }))),
    }),
  },
  'dapscope/rayList': {
    params: object<RayListParams>({ address: opt(), tokenFile: opt() }),
    result: object<RayListResult>({ dashboard: req(), tasks: req(array(rayTask)), debugging: opt(array(rayTask)) }),
  },
  'dapscope/inspectProcesses': {
    params: object<ProcessesParams>({
      sessionId: opt(), vscodeSessionIds: opt(), frameIds: opt(record(leaf)), expression: req(), maxBytes: opt(),
      options: req(object<InspectOptions>({
        max_preview_rows: opt(), max_preview_items: opt(), include_statistics: opt(), deep_memory: opt(), timeout: opt(), format: opt(), request_timeout: opt(), variables_reference: opt(),
      })),
    }),
    result: object<ProcessTable>({
      expression: req(), omitted: opt(),
      rows: req(array(object<ProcessRow>({
        session_id: req(), parent_id: opt(), vscode_session_id: opt(), name: opt(), pid: opt(), status: req(), location: opt(), summary: opt(), problems: opt(), error: opt(),
      }))),
    }),
  },
  'dapscope/bridgeEvent': {
    params: object<BridgeEvent>({ vscodeSessionId: req(), debugType: req(), name: req(), adapter: req(), kind: req(), threadId: opt(), frameId: opt(), line: opt(), path: opt(),
      cdp: opt(object<CdpAddress>({ host: req(), port: req(), path: opt() })), reason: opt(), allThreadsStopped: opt(), event: opt(), body: opt(record(leaf)) }),
  },
  'dapscope/dapRequest': { params: object<DapRequestParams>({ vscodeSessionId: req(), command: req(), arguments: opt() }) },
  'dapscope/sessionEvent': { params: object<SessionEvent>({ sessionId: req(), vscodeSessionId: opt(), kind: req(), stop: opt(stopLocation) }) },
};
