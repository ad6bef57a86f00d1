// The data viewer's virtualised grid, without the DOM: a cache of row blocks
// fetched page by page from the debuggee (dapscope/page), the mapping from a
// scroll position to the first visible row (scaled, so 10M rows fit the
// browser's height limit), the header's sort cycle, and the HTML of the
// header and of the visible rows only. Own code rather than a library: the
// grid needs that scaled mapping (a 10M-row spacer at 22 px a row exceeds
// what Chromium can lay out) and the webview's CSP forbids the style
// elements that grid libraries inject.

import type { Page, PageColumn, SortKey } from '../protocol';
import { cellText, escapeHtml } from './render';

/** Rows per fetched block (one dapscope/page request). */
export const BLOCK = 200;
/** Blocks kept in memory (not in the DOM: only the visible rows are). */
export const MAX_BLOCKS = 60;
/** The tallest spacer the grid lays out, in px; beyond it the scroll is scaled. */
export const MAX_SCROLL_PX = 4_000_000;

export interface Block {
  positions: number[];
  index?: unknown[];
  rows: unknown[][];
}

/**
 * A page as the grid reads it: its lists always lists. The sidecar answers
 * rows [] and positions [] for a page without rows; one before issue #28.7
 * answered null, and the viewer then threw and stayed on "loading rows…".
 */
export function settledPage(p: Page): Page {
  return { ...p, positions: p.positions ?? [], rows: p.rows ?? [], columns: p.columns ?? [] };
}

/** Row blocks of one selection of one stop, least recently used dropped first. */
export class BlockCache {
  private blocks = new Map<number, Block>();
  private inflight = new Set<number>();
  total: number | undefined;
  allRows: number | undefined;
  /**
   * Whether total is counted. An engine whose count is a job of its own
   * (Spark) answers its pages first, their totals left out (total_pending):
   * until the count comes (setCount), total is the rows seen so far, one
   * more while the last page seen was full, so paging forward goes on.
   */
  counted = true;
  columns: PageColumn[] = [];
  columnCount = 0;

  clear(): void {
    this.blocks.clear();
    this.inflight.clear();
    this.total = undefined;
    this.allRows = undefined;
    this.counted = true;
  }

  /** Stores a page answered for block b (page.offset = b × BLOCK). */
  put(b: number, p: Page): void {
    this.inflight.delete(b);
    if (p.total_rows !== undefined) this.setCount(p);
    else if (!this.counted || this.total === undefined) {
      const full = p.limit > 0 && p.rows.length >= p.limit;
      this.total = Math.max(this.total ?? 0, p.offset + p.rows.length + (full ? 1 : 0));
      this.counted = false;
    }
    this.columns = p.columns;
    this.columnCount = p.column_count;
    this.blocks.delete(b);
    this.blocks.set(b, { positions: p.positions, index: p.index, rows: p.rows });
    while (this.blocks.size > MAX_BLOCKS) this.blocks.delete(this.blocks.keys().next().value as number);
  }

  /** The totals of a page that has them (a count asked for with count: true). */
  setCount(p: Page): void {
    if (p.total_rows === undefined) return;
    this.total = p.total_rows;
    this.allRows = p.all_rows;
    this.counted = true;
  }

  failed(b: number): void {
    this.inflight.delete(b);
  }

  has(b: number): boolean {
    return this.blocks.has(b);
  }

  /** The row at a view position, if its block is loaded. */
  row(i: number): { position: number; index?: unknown; cells: unknown[] } | undefined {
    const b = this.blocks.get(Math.floor(i / BLOCK));
    const k = i % BLOCK;
    if (!b || k >= b.rows.length) return undefined;
    return { position: b.positions[k], index: b.index?.[k], cells: b.rows[k] };
  }

  /** Blocks covering rows [from, to) that are neither loaded nor asked for; marks them asked for. */
  missing(from: number, to: number): number[] {
    const out: number[] = [];
    const last = this.total === undefined ? Math.floor(from / BLOCK) : Math.floor((Math.min(to, this.total) - 1) / BLOCK);
    for (let b = Math.floor(from / BLOCK); b <= last; b++) {
      if (b < 0 || this.blocks.has(b) || this.inflight.has(b)) continue;
      this.inflight.add(b);
      out.push(b);
    }
    return out;
  }
}

/** The spacer height for total rows (capped: beyond the cap the scroll is scaled). */
export function spacerHeight(total: number, rowHeight: number): number {
  return Math.min(total * rowHeight, MAX_SCROLL_PX);
}

/** The first visible row for a scroll position: proportional over the scrollable range. */
export function firstRowAt(scrollTop: number, maxScrollTop: number, total: number, visible: number): number {
  const maxStart = Math.max(0, total - visible);
  if (maxScrollTop <= 0 || maxStart === 0) return 0;
  return Math.min(maxStart, Math.max(0, Math.round((scrollTop / maxScrollTop) * maxStart)));
}

/** The scroll position that shows row first at the top (the inverse of firstRowAt). */
export function scrollTopFor(first: number, maxScrollTop: number, total: number, visible: number): number {
  const maxStart = Math.max(0, total - visible);
  if (maxStart === 0) return 0;
  return (Math.min(first, maxStart) / maxStart) * maxScrollTop;
}

/**
 * The header's sort cycle for a click on column: ascending, descending, off.
 * A plain click sorts by that column alone; with additive (Shift) it is
 * added to, flipped in or removed from the keys, the others kept.
 */
export function nextSort(sort: SortKey[], column: string, additive: boolean): SortKey[] {
  const i = sort.findIndex((k) => k.column === column);
  const cur = i < 0 ? undefined : sort[i];
  const next: SortKey | undefined = !cur ? { column } : !cur.descending ? { column, descending: true } : undefined;
  if (!additive) return next ? [next] : [];
  const out = sort.slice();
  if (i < 0) out.push(next as SortKey);
  else if (next) out[i] = next;
  else out.splice(i, 1);
  return out;
}

/** The grid's header: the index column, then one sortable header per column with its sort state and a statistics button. */
export function renderGridHeader(columns: PageColumn[], sort: SortKey[], withIndex: boolean, statsColumn?: string): string {
  const ths = columns
    .map((c, i) => {
      const k = sort.findIndex((s) => s.column === c.name);
      const dir = k < 0 ? 'none' : sort[k].descending ? 'descending' : 'ascending';
      const mark = k < 0 ? '' : `<span class="vmark">${dir === 'ascending' ? '▲' : '▼'}${sort.length > 1 ? k + 1 : ''}</span>`;
      const active = c.name === statsColumn ? ' vactive' : '';
      return (
        `<th scope="col" class="vcol${active}" data-col="${i}" aria-sort="${dir}" title="${escapeHtml(`${c.name}${c.dtype ? ` (${c.dtype})` : ''}: click to sort, Shift+click to add`)}">` +
        `<button type="button" class="vsort" data-col="${i}">${escapeHtml(c.name)}${mark}</button>` +
        `<button type="button" class="vstat" data-col="${i}" title="Statistics of ${escapeHtml(c.name)}" aria-label="Statistics of ${escapeHtml(c.name)}">σ</button></th>`
      );
    })
    .join('');
  return `<tr>${withIndex ? '<th scope="col" class="idx vidx">#</th>' : '<th scope="col" class="idx vidx">pos</th>'}${ths}</tr>`;
}

/**
 * The visible rows [first, first + count) of the view: loaded rows with
 * their cells, rows still loading as placeholders. Each row carries its view
 * position (data-row) and its position in the original value (data-pos).
 */
export function renderGridRows(cache: BlockCache, first: number, count: number, ncols: number, selected?: { from: number; to: number }, cursor?: number): string {
  const total = cache.total ?? 0;
  const out: string[] = [];
  for (let i = first; i < Math.min(first + count, total); i++) {
    const r = cache.row(i);
    const sel = selected && i >= selected.from && i <= selected.to ? ' vsel' : '';
    const cur = i === cursor ? ' vcur' : '';
    const aria = `aria-rowindex="${i + 2}"${sel ? ' aria-selected="true"' : ''}`;
    if (!r) {
      out.push(`<tr class="vrow vloading${sel}${cur}" data-row="${i}" ${aria}><th scope="row" class="idx">…</th>${'<td></td>'.repeat(ncols)}</tr>`);
      continue;
    }
    const label = r.index !== undefined ? cellText(r.index) : String(r.position);
    const cells = r.cells
      .map((v) => {
        const cls = v === null || v === undefined ? 'null' : typeof v === 'number' ? 'num' : '';
        const text = cellText(v);
        return `<td${cls ? ` class="${cls}"` : ''} title="${escapeHtml(text.length > 40 ? text.slice(0, 2000) : '')}">${escapeHtml(text)}</td>`;
      })
      .join('');
    out.push(`<tr class="vrow${sel}${cur}" data-row="${i}" data-pos="${r.position}" ${aria}><th scope="row" class="idx">${escapeHtml(label)}</th>${cells}</tr>`);
  }
  return out.join('');
}

/**
 * "rows 1–30 of 1,234 (filtered from 5,000)"; "no rows match the filter (of 5,000)"; "no rows" (an empty table);
 * while an engine counts on request (counting: the count asked for, or undefined where it failed):
 * "rows 1–30 of ? (counting…)", "rows 1–30 of ?".
 */
export function rowsLabel(first: number, shown: number, total: number | undefined, allRows: number | undefined, counting?: boolean): string {
  if (total === undefined) return 'loading rows…';
  const fmt = (n: number) => n.toLocaleString('en-US');
  if (counting !== undefined) return `rows ${fmt(first + 1)}–${fmt(Math.min(total, first + shown))} of ?${counting ? ' (counting…)' : ''}`;
  const filtered = allRows !== undefined && allRows !== total;
  if (total === 0) return filtered ? `no rows match the filter (of ${fmt(allRows)})` : 'no rows';
  const range = `rows ${fmt(first + 1)}–${fmt(Math.min(total, first + shown))} of ${fmt(total)}`;
  return filtered ? `${range} (filtered from ${fmt(allRows)})` : range;
}

/** The grid's body when the view has no rows: one row that says so. */
export function renderEmptyRows(ncols: number, filtered: boolean): string {
  const text = filtered ? 'No rows match the filter.' : 'No rows: the table is empty.';
  return `<tr class="vempty"><td colspan="${ncols + 1}">${text}</td></tr>`;
}

/** A column's width in ch from its header and the first loaded cells (bounded). */
export function columnWidths(columns: PageColumn[], sample: unknown[][]): number[] {
  return columns.map((c, j) => {
    let w = c.name.length + 8; // the name, a sort mark and the σ button
    for (const row of sample.slice(0, 50)) w = Math.max(w, cellText(row[j]).length + 2);
    return Math.min(Math.max(w, 8), 40);
  });
}
