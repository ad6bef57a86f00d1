// The data viewer in the DOM: a filter box, a column picker, copy buttons, the
// virtualised grid (only the visible rows are in the DOM; pages of BLOCK rows
// are asked of the extension, which asks the sidecar's dapscope/page) and a
// side panel with a column's statistics or a row's full values. Sort, filter,
// scroll position and hidden columns survive a new stop; the hidden columns
// are kept by the extension per expression for the session.

import type { PageColumn, PageParams, PageResult } from '../protocol';
import type { InspectResult, Statistics, ViewState } from '../types';
import { copyAsCode, toDelimited, type CopyRow, type ViewSelection } from './copy';
import { BLOCK, BlockCache, columnWidths, firstRowAt, nextSort, renderEmptyRows, renderGridHeader, renderGridRows, rowsLabel, scrollTopFor, settledPage, spacerHeight } from './grid';
import { renderPicker, renderStatsPanel, shownColumns } from './panels';
import { cellText, columnStats, escapeHtml } from './render';

/** Rows a copy takes at most. */
export const MAX_COPY_ROWS = 10_000;

/** Whether the result is a table the probe can page through (JavaScript
 * also an apache-arrow table, a Map's or a Set's entries, any array). */
export function browsable(r: InspectResult | undefined): boolean {
  if (!r || r.error) return false;
  const k = r.detected_type;
  if (k === 'dataframe' || k === 'series') return true;
  if (k === 'ndarray') return [1, 2].includes(r.structure?.shape?.length ?? 0);
  if (r.language === 'javascript' && (k === 'arrow_table' || k === 'map' || k === 'set' || k === 'list')) return true;
  const et = r.structure?.element_types;
  return k === 'list' && !!et && Object.keys(et).length === 1 && 'dict' in et;
}

/** The filter box's example, in the language of the session. */
export function filterPlaceholder(r: InspectResult | undefined): string {
  return r?.language === 'javascript'
    ? "Filter (a JavaScript expression over the row's fields), e.g. price > 10 && city === 'Nice'"
    : "Filter (DataFrame.query), e.g. price > 10 and city == 'Nice'";
}

function kindOf(r: InspectResult): string {
  const k = r.detected_type ?? '';
  return k === 'list' ? 'records' : k;
}

const SHELL = `<div class="vtools">
<input type="search" class="vfilter" placeholder="Filter (DataFrame.query), e.g. price &gt; 10 and city == 'Nice'" aria-label="Filter rows" spellcheck="false">
<button type="button" class="vcolumns" aria-expanded="false">Columns</button>
<button type="button" class="vcopy" data-format="tsv" title="Copy the selected rows (or the visible ones) as TSV">Copy TSV</button>
<button type="button" class="vcopy" data-format="csv" title="Copy the selected rows (or the visible ones) as CSV">Copy CSV</button>
<button type="button" class="vcode" title="Copy the pandas expression of this view">Copy as code</button>
<span class="vcount" aria-live="polite"></span></div>
<div class="verror error" role="alert" hidden></div>
<div class="vpicker" hidden></div>
<div class="vbody"><div class="vscroll" tabindex="0" role="grid" aria-label="Rows"><div class="vstick"><table class="grid vtable"><colgroup></colgroup><thead></thead><tbody></tbody></table></div><div class="vsizer"></div></div>
<aside class="vside" aria-label="Details" hidden><button type="button" class="vclose" aria-label="Close">×</button><div class="vsidebody"></div></aside></div>`;

export class Viewer {
  readonly el: HTMLElement;
  private q = <T extends Element>(s: string) => this.el.querySelector(s) as T;
  private scroller: HTMLElement;
  private cache = new BlockCache();
  private sel: ViewSelection = { sort: [], filter: '' };
  private hidden: Set<string>;
  private allColumns: PageColumn[] = [];
  private result!: InspectResult;
  private epoch = 0;
  private static nextId = 1; // one sequence for every viewer: a late answer never reaches another's request
  private restoreScroll = false;
  private pending = new Map<number, { epoch: number; block?: number; count?: boolean }>();
  private counting = -1; // the epoch whose count was asked for (an engine that counts on request: Spark)
  private countFailed = -1;
  private waiters: (() => void)[] = [];
  private first = 0;
  private rowH = 22;
  private cursor = 0;
  private anchor: number | undefined;
  private side: { column?: string; row?: number } = {};
  private stats = new Map<string, Statistics | 'loading' | 'none'>();
  private frame = 0;
  private widthsSet = false;
  private failed = -1; // the epoch whose page failed: no more fetches until the selection changes

  constructor(private expression: string, state: ViewState, private post: (m: unknown) => void, private onUnavailable: () => void) {
    this.el = document.createElement('section');
    this.el.className = 'viewer';
    this.el.setAttribute('aria-label', 'Data');
    this.el.innerHTML = SHELL;
    this.scroller = this.q('.vscroll');
    this.hidden = new Set(state.hidden ?? []);
    this.bind();
    this.update(state);
  }

  /** A new state (a new stop or a refresh): keep the selection and scroll, fetch again. */
  update(state: ViewState): void {
    this.result = state.result as InspectResult;
    this.q<HTMLInputElement>('.vfilter').placeholder = filterPlaceholder(this.result);
    this.q<HTMLElement>('.vcode').hidden = this.result.language === 'javascript'; // it writes pandas code
    this.epoch++;
    this.cache.clear();
    this.stats.clear();
    this.widthsSet = false;
    this.restoreScroll = this.first > 0;
    this.request({ rows: { offset: 0, limit: 0 } }, {}); // every column, for the picker
    this.draw();
  }

  /** After the element was (re)attached: restore the scroll position. */
  attached(): void {
    this.draw();
    this.scroller.scrollTop = scrollTopFor(this.first, this.maxScroll(), this.cache.total ?? 0, this.visible());
  }

  // ------------------------------------------------------------ requests

  private params(): Partial<PageParams> {
    const p: Partial<PageParams> = { sort: this.sel.sort, filter: this.sel.filter };
    if (this.hidden.size && this.allColumns.length) p.columns = shownColumns(this.allColumns, this.hidden);
    return p;
  }

  private request(p: Partial<PageParams>, meta: { block?: number; count?: boolean }): void {
    const id = Viewer.nextId++;
    this.pending.set(id, { epoch: this.epoch, ...meta });
    this.post({ type: 'page', id, params: p });
  }

  private fetchVisible(): void {
    if (this.failed === this.epoch || (this.hidden.size && !this.allColumns.length)) return; // the column list first
    for (const b of this.cache.missing(Math.max(0, this.first - 20), this.first + this.visible() + 40)) {
      this.request({ ...this.params(), rows: { offset: b * BLOCK, limit: BLOCK } }, { block: b });
    }
  }

  /** A page the extension answered (or failed to). */
  onPage(id: number, result: PageResult | undefined, failure: string | undefined): void {
    const req = this.pending.get(id);
    this.pending.delete(id);
    if (!req || req.epoch !== this.epoch) return;
    if (req.count) return this.onCount(result, failure);
    const err = failure ?? (result?.error ? `${result.error.code ?? 'ERROR'}: ${result.error.message ?? ''}` : undefined);
    if (err || !result?.page) {
      if (req.block !== undefined) this.cache.failed(req.block);
      this.failed = this.epoch;
      if (result?.error?.code === 'INVALID_ARGUMENT' && this.cache.total === undefined && !this.sel.filter && !this.sel.sort.length) return this.onUnavailable();
      this.showError(err ?? 'no page', result?.error?.hint);
      this.wake();
      return;
    }
    const page = settledPage(result.page);
    if (req.block === undefined) {
      this.allColumns = page.columns;
      for (const h of [...this.hidden]) if (!this.allColumns.some((c) => c.name === h)) this.hidden.delete(h);
      this.renderPicker();
      this.fetchVisible();
      return;
    }
    this.showError('');
    this.cache.put(req.block, page);
    if (!this.cache.counted && this.counting !== this.epoch) {
      // the page came first, its totals on request: ONE count of the selection, asked after it
      this.counting = this.epoch;
      this.request({ ...this.params(), rows: { offset: 0, limit: 0 }, count: true }, { count: true });
    }
    if (!this.widthsSet) this.setWidths(page.rows);
    this.wake();
    this.draw();
    if (this.restoreScroll) {
      this.restoreScroll = false;
      this.scroller.scrollTop = scrollTopFor(this.first, this.maxScroll(), this.cache.total ?? 0, this.visible());
    }
  }

  /** The selection's count, asked after its first page: the grid's total from now on ("of ?" if it failed). */
  private onCount(result: PageResult | undefined, failure: string | undefined): void {
    if (failure || result?.error || result?.page?.total_rows === undefined) this.countFailed = this.epoch;
    else this.cache.setCount(settledPage(result.page));
    this.draw();
  }

  /** Statistics of a column (inspected by the extension as expr["column"]). */
  onStats(column: string, result: InspectResult | undefined): void {
    const s = result && !result.error ? (result.statistics ?? undefined) : undefined;
    this.stats.set(column, s ?? 'none');
    if (this.side.column === column) this.renderSide();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  // ------------------------------------------------------------ drawing

  private visible(): number {
    const head = (this.q<HTMLElement>('.vtable thead')?.offsetHeight ?? 0) || this.rowH;
    return Math.max(1, Math.floor((this.scroller.clientHeight - head) / this.rowH));
  }

  private maxScroll(): number {
    return Math.max(0, this.scroller.scrollHeight - this.scroller.clientHeight);
  }

  private draw(): void {
    const total = this.cache.total;
    const cols = this.cache.columns;
    const withIndex = kindOf(this.result) === 'dataframe' || kindOf(this.result) === 'series';
    this.q<HTMLElement>('.vtable thead').innerHTML = cols.length ? renderGridHeader(cols, this.sel.sort, withIndex, this.side.column) : '';
    const vis = this.visible();
    this.q<HTMLElement>('.vsizer').style.height = `${spacerHeight(Math.max(0, (total ?? 0) - vis), this.rowH)}px`;
    this.scroller.setAttribute('aria-rowcount', String((total ?? 0) + 1));
    if (total !== undefined) this.first = Math.min(this.first, Math.max(0, total - vis));
    this.drawRows();
    const n = this.allColumns.length;
    this.q<HTMLElement>('.vcolumns').textContent = n ? `Columns ${n - this.hidden.size}/${n}` : 'Columns';
  }

  private drawRows(): void {
    const vis = this.visible();
    const range = this.anchor === undefined ? undefined : { from: Math.min(this.anchor, this.cursor), to: Math.max(this.anchor, this.cursor) };
    const total = this.cache.total;
    this.q<HTMLElement>('.vtable tbody').innerHTML =
      total === 0 ? renderEmptyRows(this.cache.columns.length, this.cache.allRows !== 0) : renderGridRows(this.cache, this.first, vis + 1, this.cache.columns.length, range, this.cursor);
    const tr = this.q<HTMLElement>('.vtable tbody tr');
    if (tr?.offsetHeight && Math.abs(tr.offsetHeight - this.rowH) > 0.5) this.rowH = tr.offsetHeight;
    this.q<HTMLElement>('.vcount').textContent = this.failed === this.epoch ? '' : rowsLabel(this.first, vis, this.cache.total, this.cache.allRows, this.cache.counted ? undefined : this.countFailed !== this.epoch);
    this.fetchVisible();
  }

  private setWidths(sample: unknown[][]): void {
    const widths = columnWidths(this.cache.columns, sample);
    const cg = this.q<HTMLElement>('.vtable colgroup');
    cg.innerHTML = `<col class="vidxcol">${widths.map(() => '<col>').join('')}`;
    const cols = Array.from(cg.children) as HTMLElement[];
    cols[0].style.width = '8ch';
    widths.forEach((w, i) => (cols[i + 1].style.width = `${w}ch`));
    this.q<HTMLElement>('.vtable').style.width = `${8 + widths.reduce((a, b) => a + b, 0)}ch`;
    this.widthsSet = true;
  }

  private showError(msg: string, hint?: string): void {
    const e = this.q<HTMLElement>('.verror');
    e.hidden = !msg;
    e.innerHTML = msg ? `<p>${escapeHtml(msg)}</p>${hint ? `<p class="hint">${escapeHtml(hint)}</p>` : ''}` : '';
  }

  private renderPicker(): void {
    this.q<HTMLElement>('.vpicker').innerHTML = renderPicker(this.allColumns, this.hidden);
  }

  private renderSide(): void {
    const aside = this.q<HTMLElement>('.vside');
    const body = this.q<HTMLElement>('.vsidebody');
    aside.hidden = this.side.column === undefined && this.side.row === undefined;
    if (this.side.column !== undefined) {
      const name = this.side.column;
      const col = this.allColumns.find((c) => c.name === name) ?? { name };
      const s = this.columnStatistics(name);
      const nulls = this.result.structure?.columns?.find((c) => c.name === name)?.null_count;
      body.innerHTML = renderStatsPanel(col, s === 'loading' || s === 'none' ? undefined : s, nulls, s === 'loading');
    } else if (this.side.row !== undefined) {
      const r = this.cache.row(this.side.row);
      const cols = this.cache.columns;
      body.innerHTML = r
        ? `<h3>Row ${escapeHtml(cellText(r.index ?? r.position))} <span class="dtype">position ${r.position}</span></h3><dl class="vrowvals">${cols
            .map((c, j) => `<dt>${escapeHtml(c.name)}</dt><dd><pre>${escapeHtml(typeof r.cells[j] === 'string' ? (r.cells[j] as string) : cellText(r.cells[j]))}</pre></dd>`)
            .join('')}</dl>`
        : '<p class="note">Loading…</p>';
    }
  }

  /** A column's statistics: from the inspection result, else asked of the extension once. */
  private columnStatistics(name: string): Statistics | 'loading' | 'none' {
    if (kindOf(this.result) === 'series' && this.result.statistics) return this.result.statistics;
    const known = columnStats(this.result).get(name) ?? this.stats.get(name);
    if (known) return known;
    if (kindOf(this.result) !== 'dataframe') return 'none';
    this.stats.set(name, 'loading');
    this.post({ type: 'stats', column: name });
    return 'loading';
  }

  // ------------------------------------------------------------ actions

  private reselect(): void {
    this.epoch++;
    this.cache.clear();
    this.first = 0;
    this.cursor = 0;
    this.anchor = undefined;
    this.widthsSet = false;
    this.scroller.scrollTop = 0;
    this.request({ rows: { offset: 0, limit: 0 } }, {});
    this.draw();
  }

  /** Moves the cursor row, extending the selection with Shift, and scrolls it into view. */
  private moveTo(row: number, extend: boolean): void {
    const total = this.cache.total ?? 0;
    if (!total) return;
    if (extend && this.anchor === undefined) this.anchor = this.cursor;
    if (!extend) this.anchor = undefined;
    this.cursor = Math.max(0, Math.min(total - 1, row));
    const vis = this.visible();
    if (this.cursor < this.first) this.first = this.cursor;
    else if (this.cursor >= this.first + vis) this.first = this.cursor - vis + 1;
    this.scroller.scrollTop = scrollTopFor(this.first, this.maxScroll(), total, vis);
    this.drawRows();
    if (this.side.row !== undefined) {
      this.side.row = this.cursor;
      this.renderSide();
    }
  }

  private async rowsFor(from: number, to: number): Promise<CopyRow[]> {
    to = Math.min(to, from + MAX_COPY_ROWS - 1, (this.cache.total ?? 0) - 1);
    const blocks: number[] = [];
    for (let b = Math.floor(from / BLOCK); b <= Math.floor(to / BLOCK); b++) blocks.push(b);
    for (const b of this.cache.missing(from, to + 1)) this.request({ ...this.params(), rows: { offset: b * BLOCK, limit: BLOCK } }, { block: b });
    const epoch = this.epoch;
    while (blocks.some((b) => !this.cache.has(b)) && epoch === this.epoch && [...this.pending.values()].some((p) => p.block !== undefined && p.epoch === epoch)) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    const out: CopyRow[] = [];
    for (let i = from; i <= to; i++) {
      const r = this.cache.row(i);
      if (r) out.push({ index: r.index ?? r.position, cells: r.cells });
    }
    return out;
  }

  private async copy(format: 'tsv' | 'csv'): Promise<void> {
    const [from, to] = this.anchor === undefined ? [this.first, this.first + this.visible() - 1] : [Math.min(this.anchor, this.cursor), Math.max(this.anchor, this.cursor)];
    const rows = await this.rowsFor(from, to);
    const text = toDelimited(this.cache.columns.map((c) => c.name), rows, format, true);
    this.post({ type: 'copy', text, what: `${rows.length} rows as ${format.toUpperCase()}` });
  }

  private copyCode(): void {
    const all = this.allColumns.map((c) => c.name);
    const sel: ViewSelection = { ...this.sel, columns: this.hidden.size ? shownColumns(this.allColumns, this.hidden) : undefined };
    const code = copyAsCode(this.expression, kindOf(this.result), sel, all, this.result.structure?.shape?.length);
    this.post({ type: 'copy', text: code, what: 'the pandas expression' });
  }

  private bind(): void {
    this.scroller.addEventListener('scroll', () => {
      if (this.frame) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        const total = this.cache.total ?? 0;
        const vis = this.visible();
        // A scroll the grid made itself (keyboard) keeps its exact row.
        if (Math.abs(scrollTopFor(this.first, this.maxScroll(), total, vis) - this.scroller.scrollTop) < 1) return;
        this.first = firstRowAt(this.scroller.scrollTop, this.maxScroll(), total, vis);
        this.drawRows();
      });
    });
    this.el.addEventListener('click', (e) => {
      const t = e.target as HTMLElement;
      const col = t.closest<HTMLElement>('[data-col]');
      const name = col ? this.cache.columns[Number(col.dataset.col)]?.name : undefined;
      if (t.closest('.vsort') && name !== undefined) {
        this.sel.sort = nextSort(this.sel.sort, name, (e as MouseEvent).shiftKey);
        this.reselect();
      } else if (t.closest('.vstat') && name !== undefined) {
        this.side = { column: name };
        this.renderSide();
        this.draw();
      } else if (t.closest('.vclose')) {
        this.side = {};
        this.renderSide();
        this.draw();
      } else if (t.closest('.vcolumns')) {
        const p = this.q<HTMLElement>('.vpicker');
        p.hidden = !p.hidden;
        this.q<HTMLElement>('.vcolumns').setAttribute('aria-expanded', String(!p.hidden));
      } else if (t.closest('.vpickall') || t.closest('.vpicknone')) {
        this.hidden = new Set(t.closest('.vpicknone') ? this.allColumns.slice(1).map((c) => c.name) : []);
        this.columnsChanged();
      } else if (t.closest('.vcopy')) void this.copy(t.closest<HTMLElement>('.vcopy')!.dataset.format as 'tsv' | 'csv');
      else if (t.closest('.vcode')) this.copyCode();
      else if (t.closest('tr.vrow')) {
        const row = Number(t.closest<HTMLElement>('tr.vrow')!.dataset.row);
        if ((e as MouseEvent).shiftKey) {
          if (this.anchor === undefined) this.anchor = this.cursor;
          this.cursor = row;
        } else {
          this.anchor = row;
          this.cursor = row;
        }
        this.scroller.focus();
        this.drawRows();
      }
    });
    this.el.addEventListener('change', (e) => {
      const t = e.target as HTMLInputElement;
      if (!t.classList.contains('vpick')) return;
      if (t.checked) this.hidden.delete(t.value);
      else if (shownColumns(this.allColumns, this.hidden).length > 1) this.hidden.add(t.value);
      else t.checked = true; // keep one column
      this.columnsChanged();
    });
    this.el.addEventListener('input', (e) => {
      const t = e.target as HTMLInputElement;
      if (!t.classList.contains('vpickfind')) return;
      const f = t.value.toLowerCase();
      this.el.querySelectorAll<HTMLElement>('.vpicklist li').forEach((li) => (li.hidden = !!f && !(li.textContent ?? '').toLowerCase().includes(f)));
    });
    const filter = this.q<HTMLInputElement>('.vfilter');
    filter.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || (e.key === 'Escape' && filter.value)) {
        if (e.key === 'Escape') filter.value = '';
        this.sel.filter = filter.value.trim();
        this.reselect();
        e.preventDefault();
        e.stopPropagation();
      }
    });
    this.scroller.addEventListener('keydown', (e) => {
      const vis = this.visible();
      const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: vis, PageUp: -vis };
      if (e.key in moves) this.moveTo(this.cursor + moves[e.key], e.shiftKey);
      else if (e.key === 'Home') this.moveTo(0, e.shiftKey);
      else if (e.key === 'End') this.moveTo((this.cache.total ?? 1) - 1, e.shiftKey);
      else if (e.key === 'Enter') {
        this.side = { row: this.cursor };
        this.renderSide();
      } else if ((e.ctrlKey || e.metaKey) && e.key === 'c') void this.copy('tsv');
      else if ((e.ctrlKey || e.metaKey) && e.key === 'a') {
        this.anchor = 0;
        this.cursor = Math.max(0, (this.cache.total ?? 1) - 1);
        this.drawRows();
      } else return;
      e.preventDefault();
      e.stopPropagation();
    });
  }

  private columnsChanged(): void {
    this.post({ type: 'hidden', hidden: [...this.hidden] });
    this.renderPicker();
    this.reselect();
  }
}
