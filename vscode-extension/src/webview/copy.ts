// Copying from the data viewer: rows as TSV or CSV (with a header and the
// index), and "Copy as code": the pandas expression that gives the view the
// user sees (filter, sort, columns), built the way the probe's select()
// builds it, so pasting it in the debug console reproduces the rows.

import type { SortKey } from '../protocol';

/** The part of a value the viewer shows. */
export interface ViewSelection {
  sort: SortKey[];
  filter: string;
  /** Columns shown, in order; undefined: all. */
  columns?: string[];
}

/** One copied row: its index label (DataFrame/Series) and cells. */
export interface CopyRow {
  index?: unknown;
  cells: unknown[];
}

function plain(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function tsvField(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}

/**
 * Rows as delimited text: a header (an empty index header when the rows
 * carry an index), then one line per row; nulls are empty fields. CSV quotes
 * what needs it (RFC 4180); TSV replaces tabs and line breaks in a cell by a
 * space.
 */
export function toDelimited(columns: string[], rows: CopyRow[], format: 'tsv' | 'csv', withIndex: boolean): string {
  const field = format === 'csv' ? csvField : tsvField;
  const sep = format === 'csv' ? ',' : '\t';
  const line = (vals: unknown[]) => vals.map((v) => field(plain(v))).join(sep);
  const head = withIndex ? ['', ...columns] : columns;
  const body = rows.map((r) => line(withIndex ? [r.index, ...r.cells] : r.cells));
  return [line(head), ...body].join(format === 'csv' ? '\r\n' : '\n') + (format === 'csv' ? '\r\n' : '\n');
}

/** A Python string literal (JSON's escapes are all valid in Python). */
export function pyString(s: string): string {
  return JSON.stringify(s);
}

/**
 * The value as the DataFrame the probe browses: a DataFrame as is; a Series
 * as a one-column frame named as the page names it; arrays and lists of
 * records converted the same way select() converts them.
 */
function asFrame(expression: string, kind: string, columns: string[], ndim: number | undefined): string {
  switch (kind) {
    case 'series':
      return `${expression}.to_frame(name=${pyString(columns[0] ?? 'value')})`;
    case 'ndarray':
      return ndim === 1 ? `pd.DataFrame({"value": ${expression}})` : `pd.DataFrame(${expression}).rename(columns=str)`;
    case 'records':
      return `pd.DataFrame.from_records(list(${expression}))`;
    default:
      return expression;
  }
}

/**
 * "Copy as code": df.query(...).sort_values(...)[[...]] for the current view
 * (stable sort, nulls last, as the viewer sorts). allColumns is every column
 * of the value, so a selection of all of them adds no [[...]]. A Series
 * comes back as a Series.
 */
export function copyAsCode(expression: string, kind: string, sel: ViewSelection, allColumns: string[], ndim?: number): string {
  let code = asFrame(expression, kind, allColumns, ndim);
  const plainSeries = kind === 'series' && !sel.filter;
  if (plainSeries) code = expression;
  else if (sel.filter.trim()) code += `.query(${pyString(sel.filter.trim())})`;
  if (sel.sort.length) {
    const cols = sel.sort.map((k) => (typeof k.column === 'number' ? String(k.column) : pyString(k.column)));
    const asc = sel.sort.map((k) => (k.descending ? 'False' : 'True'));
    if (plainSeries) code += `.sort_values(ascending=${asc[0]}, kind="stable", na_position="last")`;
    else if (cols.length === 1) code += `.sort_values(${cols[0]}, ascending=${asc[0]}, kind="stable", na_position="last")`;
    else code += `.sort_values([${cols.join(', ')}], ascending=[${asc.join(', ')}], kind="stable", na_position="last")`;
  }
  if (kind === 'series') {
    if (!plainSeries) code += `[${pyString(allColumns[0] ?? 'value')}]`;
    return code;
  }
  const shown = sel.columns;
  if (shown && !(shown.length === allColumns.length && shown.every((c, i) => c === allColumns[i]))) code += `[[${shown.map(pyString).join(', ')}]]`;
  return code;
}
