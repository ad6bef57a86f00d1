// Types shared by the extension host and the webview: the inspection Result
// model (mirrors inspect/result.go, snake_case JSON) and the editor channel's
// request/notification payloads.

export interface InspectResult {
  name?: string;
  type?: string;
  detected_type?: string;
  /** "javascript" for results of the JavaScript probe (booleans true/false, missing values null); absent for Python and Go. */
  language?: string;
  structure?: Structure;
  preview?: Preview;
  statistics?: Statistics;
  summary?: string;
  warnings?: string[];
  error?: InspectError;
  partial?: boolean;
  timed_out?: string[];
  variables_reference?: number;
  hint?: string;
  source?: string;
  elapsed_ms?: number;
  probe_ms?: number;
}

export interface InspectError {
  code?: string;
  message?: string;
  hint?: string;
  available_variables?: string[];
  /** The session status for NOT_PAUSED ("running", ...). */
  state?: string;
}

export interface Structure {
  shape?: number[];
  ndim?: number;
  length?: number;
  cap?: number;
  size?: number;
  dtype?: string;
  fields?: { name: string; dtype?: string }[];
  nbytes?: number;
  itemsize?: number;
  c_contiguous?: boolean;
  f_contiguous?: boolean;
  masked_count?: number;
  device?: string;
  requires_grad?: boolean;
  /** torch: autograd's grad_fn, whether a leaf's .grad is set, a non-strided layout (sparse: nnz stored elements), a quantized tensor's scheme, its storage's bytes and the device's allocator figures. */
  grad_fn?: string;
  has_grad?: boolean;
  layout?: string;
  nnz?: number;
  qscheme?: string;
  storage_bytes?: number;
  device_memory?: { allocated: number; reserved: number };
  /** torch.nn.Module or a state_dict (inspect.Model). */
  model?: Model;
  /** xarray: the DataArray's name, its dims with sizes, coords, data variables (Dataset) and attrs. */
  array_name?: string;
  dims?: Dim[];
  coords?: XVariable[];
  data_vars?: XVariable[];
  attrs?: Attribute[];
  memory_bytes?: number;
  memory_deep?: boolean;
  memory_estimated?: boolean;
  columns?: Column[];
  column_count?: number;
  column_levels?: number;
  column_level_names?: unknown[];
  index?: IndexInfo;
  series_name?: unknown;
  duplicate_columns?: boolean;
  key_types?: Record<string, number>;
  value_types?: Record<string, number>;
  element_types?: Record<string, number>;
  element_type?: string;
  key_type?: string;
  depth?: number;
  self_referencing?: boolean;
  line_count?: number;
  value?: unknown;
  class?: string;
  module?: string;
  kind?: string;
  attributes?: Attribute[];
  attribute_count?: number;
  properties?: string[];
  signature?: string;
  doc?: string;
  bases?: string[];
  file?: string;
  address?: string;
  nil?: boolean;
  target_type?: string;
}

export interface Column {
  name: string;
  key?: unknown;
  dtype?: string;
  null_count?: number;
  duplicate?: boolean;
}

export interface IndexInfo {
  type?: string;
  name?: unknown;
  dtype?: string;
  length?: number;
  start?: number;
  stop?: number;
  step?: number;
  is_unique?: boolean;
  /** Repeated labels of a non-unique index (MultiIndex: whole tuples). */
  repeated?: number;
  levels?: number;
  names?: unknown[];
  first?: unknown;
  last?: unknown;
}

export interface Attribute {
  name: string;
  type?: string;
  repr?: string;
  is_truncated?: boolean;
}

export interface Statistics {
  name?: string;
  count?: number;
  min?: unknown;
  max?: unknown;
  mean?: unknown;
  std?: unknown;
  /** std's delta degrees of freedom: 1, as pandas' std() and describe(). */
  ddof?: number;
  quantiles?: { p5: unknown; p25: unknown; p50: unknown; p75: unknown; p95: unknown };
  zeros?: number;
  nan_count?: number;
  inf_count?: number;
  histogram?: Histogram;
  distinct?: number;
  distinct_estimated?: boolean;
  /** Non-null values equal to an earlier one (exact), or why not counted. */
  repeated?: number;
  repeated_not_computed?: string;
  /** Why a column with repeated values looks like a key ("name", "distinct 97%"). */
  key_like?: string;
  top_values?: { value: unknown; count: number }[];
  first?: unknown;
  last?: unknown;
  str_len?: { min: number; max: number; mean: number };
  true_count?: number;
  true_rate?: number;
  categories?: number;
  ordered?: boolean;
  element_types?: Record<string, number>;
  sampled?: boolean;
  sample_size?: number;
  skipped?: string;
  duplicate_rows?: number;
  duplicate_rows_by?: string;
  duplicate_rows_not_computed?: string;
  columns?: Statistics[];
}

/** Equal bins: bin i covers start + i × width … start + (i + 1) × width. */
export interface Histogram {
  start: number;
  width: number;
  counts: number[];
  /** The extreme bins were counted over all values (the sample missed the min or max). */
  tails_exact?: boolean;
  tails?: string;
}

export interface Preview {
  columns?: string[];
  head?: Row[];
  tail?: Row[];
  omitted_rows?: number;
  items?: Item[];
  tail_items?: Item[];
  values?: unknown;
  text?: string;
  repr?: string;
  is_truncated?: boolean;
}

export interface Row {
  index: unknown;
  values: unknown[];
}

export interface Item {
  key?: unknown;
  index?: number;
  value: unknown;
  type?: string;
}

/** What the extension posts to the webview. */
export interface ViewState {
  expression: string;
  sessionName?: string;
  /** Monotonic refresh counter (one per stop), shown for the user and tests. */
  generation: number;
  result?: InspectResult;
  /** A request-level failure (not paused, channel error...). */
  failure?: string;
  /** Milliseconds the inspect request took, seen from the extension. */
  elapsedMs?: number;
  updatedAt: string;
  /** Columns the data viewer hides for this expression (kept for the session). */
  hidden?: string[];
}

/** One xarray dimension. */
export interface Dim {
  name: string;
  size: number;
}

/** One xarray coordinate or data variable. */
export interface XVariable {
  name: string;
  dims?: string[];
  dtype?: string;
  size?: number;
  index?: boolean;
  null_count?: number;
  lazy?: boolean;
  values?: unknown;
}

/** A torch model or a state_dict's tensors, never run (inspect.Model). */
export interface Model {
  params: number;
  trainable: number;
  param_bytes: number;
  tensors: number;
  buffers?: number;
  buffer_bytes?: number;
  dtypes?: Record<string, number>;
  devices?: Record<string, number>;
  training?: boolean;
  training_mixed?: boolean;
  frozen?: string[];
  frozen_count?: number;
  nan?: string[];
  inf?: string[];
  layers?: { path: string; type: string; depth: number; params?: number; shapes?: Record<string, number[]>; training?: boolean }[];
  layer_count?: number;
  entries?: { name: string; shape: number[]; dtype: string; device?: string }[];
  entry_count?: number;
}
