// Pure rendering of an inspection Result into HTML strings for the webview:
// summary header with badges, a column table with small histograms for
// tables, a preview table (sticky header), and layouts for arrays, mappings,
// sequences, objects, text and scalars. Every interpolated value is escaped;
// no inline styles or scripts, so the webview's strict CSP holds.

import type { Column, Histogram, InspectResult, Item, Row, Statistics, ViewState } from '../types';

export function escapeHtml(v: unknown): string {
  return String(v)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Formats a number compactly: integers with thousands separators, floats with 4 significant digits. */
export function formatNumber(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'number') return String(v);
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e9)) return v.toExponential(3);
  return Number(v.toPrecision(4)).toLocaleString('en-US', { maximumFractionDigits: 6 });
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined || n === null) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${units[u]}`;
}

/** A cell value as text: null shows as an em dash, objects as compact JSON. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

function cell(v: unknown, cls = ''): string {
  const nullCls = v === null || v === undefined ? ' null' : '';
  const num = typeof v === 'number' ? ' num' : '';
  return `<td class="${(cls + nullCls + num).trim()}">${escapeHtml(cellText(v))}</td>`;
}

/** Badges for partial, sampled, truncated and estimated results. */
export function renderBadges(r: InspectResult): string {
  const badges: [string, string, string][] = [];
  if (r.partial) badges.push(['partial', 'partial', `Time budget ran out; skipped: ${(r.timed_out ?? []).join(', ') || 'some facts'}`]);
  const sampled = r.statistics?.sampled || (r.statistics?.columns ?? []).some((c) => c.sampled);
  if (sampled) badges.push(['sampled', 'sampled', 'Statistics computed on a sample']);
  const estimated = r.statistics?.distinct_estimated || (r.statistics?.columns ?? []).some((c) => c.distinct_estimated);
  if (estimated) badges.push(['estimated', 'distinct estimated', 'Distinct counts estimated from a sample']);
  if (r.preview?.is_truncated) badges.push(['truncated', 'truncated', 'The preview was cut to stay bounded']);
  if (r.structure?.memory_estimated) badges.push(['estimated', 'memory estimated', 'Shallow memory figure; object contents not counted']);
  if (r.statistics?.skipped) badges.push(['skipped', 'stats skipped', r.statistics.skipped]);
  if (r.structure?.self_referencing) badges.push(['selfref', 'self-referencing', 'The container contains itself']);
  return badges
    .map(([cls, label, title]) => `<span class="badge badge-${cls}" title="${escapeHtml(title)}">${escapeHtml(label)}</span>`)
    .join('');
}

/** The counts.length + 1 bin edges of a histogram (start + i × width, without float noise). */
export function histogramEdges(h: Histogram): number[] {
  return Array.from({ length: h.counts.length + 1 }, (_, i) => Number((h.start + i * h.width).toPrecision(12)));
}

/** A small SVG histogram (bars scaled to the tallest bin). */
export function renderHistogram(h: Histogram | undefined, width = 120, height = 28): string {
  if (!h || !Array.isArray(h.counts) || h.counts.length === 0) return '';
  const max = Math.max(...h.counts, 1);
  const n = h.counts.length;
  const bw = width / n;
  const edges = histogramEdges(h);
  const label = `Histogram of ${n} bins from ${formatNumber(edges[0])} to ${formatNumber(edges[n])}`;
  const bars = h.counts
    .map((c, i) => {
      const bh = c === 0 ? 0 : Math.max(1, Math.round((c / max) * height));
      const x = (i * bw).toFixed(2);
      const tip = `${formatNumber(edges[i])} – ${formatNumber(edges[i + 1])}: ${formatNumber(c)}`;
      return `<rect class="bar" x="${x}" y="${height - bh}" width="${Math.max(bw - 1, 1).toFixed(2)}" height="${bh}"><title>${escapeHtml(tip)}</title></rect>`;
    })
    .join('');
  return `<svg class="hist" role="img" aria-label="${escapeHtml(label)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${bars}</svg>`;
}

/** Per-column statistics aligned with the structure's columns by name. */
export function columnStats(r: InspectResult): Map<string, Statistics> {
  const m = new Map<string, Statistics>();
  for (const s of r.statistics?.columns ?? []) if (s.name !== undefined) m.set(String(s.name), s);
  return m;
}

function statRange(s: Statistics | undefined): [string, string, string] {
  if (!s) return ['', '', ''];
  if (s.min !== undefined || s.max !== undefined) return [cellText(s.min ?? null), cellText(s.max ?? null), s.mean === undefined ? '' : cellText(s.mean)];
  if (s.first !== undefined || s.last !== undefined) return [cellText(s.first ?? null), cellText(s.last ?? null), ''];
  if (s.str_len) return [`len ${s.str_len.min}`, `len ${s.str_len.max}`, `len ${formatNumber(s.str_len.mean)}`];
  if (s.true_rate !== undefined) return ['', '', `${formatNumber(s.true_rate * 100)}% true`];
  return ['', '', ''];
}

function topValues(s: Statistics | undefined): string {
  if (!s?.top_values?.length) return '';
  return s.top_values
    .slice(0, 3)
    .map((t) => `${cellText(t.value)} (${formatNumber(t.count)})`)
    .join(', ');
}

/** The column table of a DataFrame: name, dtype, nulls, distinct, min/max/mean, histogram. */
export function renderColumnsTable(r: InspectResult): string {
  const cols: Column[] = r.structure?.columns ?? [];
  if (!cols.length) return '';
  const stats = columnStats(r);
  const rows = cols
    .map((c, i) => {
      const s = stats.get(c.name);
      const [min, max, mean] = statRange(s);
      const nulls = c.null_count ?? (s?.nan_count ?? undefined);
      const distinct = s?.distinct === undefined ? '' : (s.distinct_estimated ? '≈' : '') + formatNumber(s.distinct);
      const nullCls = nulls ? 'num has-nulls' : 'num';
      return (
        `<tr tabindex="${i === 0 ? 0 : -1}" data-column="${escapeHtml(c.name)}">` +
        `<th scope="row" class="colname">${escapeHtml(c.name)}${c.duplicate ? ' <span class="badge badge-dup">dup</span>' : ''}</th>` +
        `<td class="dtype">${escapeHtml(c.dtype ?? '')}</td>` +
        `<td class="${nullCls}">${nulls === undefined ? '' : escapeHtml(formatNumber(nulls))}</td>` +
        `<td class="num">${escapeHtml(distinct)}</td>` +
        `<td class="num">${escapeHtml(min)}</td>` +
        `<td class="num">${escapeHtml(max)}</td>` +
        `<td class="num">${escapeHtml(mean)}</td>` +
        `<td class="top">${escapeHtml(topValues(s))}</td>` +
        `<td class="histcell">${renderHistogram(s?.histogram)}</td>` +
        `</tr>`
      );
    })
    .join('');
  const more = r.structure?.column_count !== undefined && r.structure.column_count > cols.length
    ? `<p class="note">${formatNumber(r.structure.column_count - cols.length)} more columns not shown</p>` : '';
  return (
    `<section class="columns" aria-label="Columns"><h2>Columns <span class="count">${formatNumber(r.structure?.column_count ?? cols.length)}</span></h2>` +
    `<table class="grid coltable" role="grid"><thead><tr><th scope="col">Name</th><th scope="col">Dtype</th><th scope="col">Nulls</th>` +
    `<th scope="col">Distinct</th><th scope="col">Min</th><th scope="col">Max</th><th scope="col">Mean</th><th scope="col">Top values</th><th scope="col">Histogram</th></tr></thead>` +
    `<tbody>${rows}</tbody></table>${more}</section>`
  );
}

function rowsHtml(rows: Row[]): string {
  return rows.map((row) => `<tr><th scope="row" class="idx">${escapeHtml(cellText(row.index))}</th>${(row.values ?? []).map((v) => cell(v)).join('')}</tr>`).join('');
}

/** The preview table (head, omitted marker, tail) with a sticky header. */
export function renderPreviewTable(r: InspectResult): string {
  const p = r.preview;
  if (!p || (!p.head?.length && !p.tail?.length)) return '';
  const columns = p.columns ?? (r.detected_type === 'series' ? [String(r.structure?.series_name ?? r.name ?? 'value')] : []);
  const width = columns.length + 1;
  const omitted = p.omitted_rows
    ? `<tr class="omitted"><td colspan="${width}">… ${escapeHtml(formatNumber(p.omitted_rows))} rows …</td></tr>` : '';
  return (
    `<section class="preview" aria-label="Preview"><h2>Preview</h2><div class="scroll" tabindex="0">` +
    `<table class="grid previewtable"><thead><tr><th scope="col" class="idx"></th>${columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rowsHtml(p.head ?? [])}${omitted}${rowsHtml(p.tail ?? [])}</tbody></table></div></section>`
  );
}

function itemsHtml(items: Item[]): string {
  return items
    .map((it) => {
      const k = it.key !== undefined ? it.key : it.index;
      return `<tr><th scope="row" class="key">${escapeHtml(cellText(k))}</th><td class="dtype">${escapeHtml(it.type ?? '')}</td>${cell(it.value, 'value')}</tr>`;
    })
    .join('');
}

/** Items of a dict/list/tuple/set/deque (head and tail). */
export function renderItems(r: InspectResult): string {
  const p = r.preview;
  if (!p?.items?.length && !p?.tail_items?.length) return '';
  const keyLabel = ['dict', 'map'].includes(r.detected_type ?? '') ? 'Key' : 'Index';
  const gap = p.tail_items?.length ? `<tr class="omitted"><td colspan="3">…</td></tr>` : '';
  return (
    `<section class="items" aria-label="Items"><h2>Items</h2><table class="grid itemtable"><thead><tr><th scope="col">${keyLabel}</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead>` +
    `<tbody>${itemsHtml(p.items ?? [])}${gap}${itemsHtml(p.tail_items ?? [])}</tbody></table></section>`
  );
}

/** Public attributes of an object or fields of a struct. */
export function renderAttributes(r: InspectResult): string {
  const attrs = r.structure?.attributes ?? [];
  if (!attrs.length) return '';
  const rows = attrs
    .map((a) => `<tr><th scope="row" class="key">${escapeHtml(a.name)}</th><td class="dtype">${escapeHtml(a.type ?? '')}</td><td class="value">${escapeHtml(a.repr ?? '')}${a.is_truncated ? '<span class="badge badge-truncated">…</span>' : ''}</td></tr>`)
    .join('');
  return `<section class="attributes" aria-label="Attributes"><h2>Attributes</h2><table class="grid attrtable"><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Value</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** Key facts as a definition list. */
export function renderFacts(r: InspectResult): string {
  const s = r.structure ?? {};
  const facts: [string, string][] = [];
  const add = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== '') facts.push([k, typeof v === 'string' ? v : cellText(v)]);
  };
  if (s.shape) add('Shape', s.shape.map((d) => formatNumber(d)).join(' × '));
  add('Length', s.length);
  add('Capacity', s.cap);
  add('Dtype', s.dtype);
  add('Size', s.size);
  if (s.memory_bytes !== undefined) add('Memory', formatBytes(s.memory_bytes) + (s.memory_deep ? ' (deep)' : ''));
  if (s.nbytes !== undefined) add('Bytes', formatBytes(s.nbytes));
  if (s.c_contiguous !== undefined || s.f_contiguous !== undefined) add('Contiguous', [s.c_contiguous ? 'C' : '', s.f_contiguous ? 'F' : ''].filter(Boolean).join(', ') || 'no');
  add('Device', s.device);
  if (s.index) {
    const ix = s.index;
    const range = ix.start !== undefined ? `${ix.start}..${ix.stop} step ${ix.step ?? 1}` : ix.first !== undefined ? `${cellText(ix.first)} … ${cellText(ix.last)}` : '';
    add('Index', [ix.type, ix.dtype, range, ix.is_unique === false ? 'not unique' : ''].filter(Boolean).join(' · '));
  }
  add('Element type', s.element_type);
  add('Key type', s.key_type);
  if (s.key_types) add('Key types', Object.entries(s.key_types).map(([k, n]) => `${k} ×${n}`).join(', '));
  if (s.value_types) add('Value types', Object.entries(s.value_types).map(([k, n]) => `${k} ×${n}`).join(', '));
  if (s.element_types) add('Element types', Object.entries(s.element_types).map(([k, n]) => `${k} ×${n}`).join(', '));
  add('Depth', s.depth);
  add('Class', s.class);
  add('Module', s.module);
  add('Signature', s.signature);
  add('Target type', s.target_type);
  add('Address', s.address);
  if (s.value !== undefined) add('Value', s.value);
  const st = r.statistics;
  if (st && !st.columns?.length) {
    add('Min', st.min);
    add('Max', st.max);
    add('Mean', st.mean);
    add('Std', st.std);
    if (st.nan_count) add('NaN', st.nan_count);
    if (st.inf_count) add('Inf', st.inf_count);
    if (st.distinct !== undefined) add('Distinct', (st.distinct_estimated ? '≈' : '') + formatNumber(st.distinct));
    if (st.duplicate_rows !== undefined) add('Duplicate rows', st.duplicate_rows);
  } else if (st?.duplicate_rows !== undefined) add('Duplicate rows', st.duplicate_rows);
  if (!facts.length) return '';
  return `<dl class="facts">${facts.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`;
}

function renderText(r: InspectResult): string {
  const p = r.preview;
  if (!p) return '';
  const t = p.text ?? (r.detected_type === 'ndarray' || r.detected_type === 'tensor' || r.detected_type === 'dataarray' ? (p.values !== undefined ? JSON.stringify(p.values) : undefined) : undefined) ?? p.repr;
  if (t === undefined) return '';
  const label = p.text !== undefined ? 'Text' : p.values !== undefined ? 'Values' : 'Repr';
  return `<section class="text" aria-label="${label}"><h2>${label}</h2><pre tabindex="0">${escapeHtml(t)}</pre></section>`;
}

export function renderError(message: string, hint?: string, available?: string[]): string {
  const avail = available?.length
    ? `<p class="available">Available: ${available.map((a) => `<code>${escapeHtml(a)}</code>`).join(' ')}</p>` : '';
  return `<div class="error" role="alert"><p>${escapeHtml(message)}</p>${hint ? `<p class="hint">${escapeHtml(hint)}</p>` : ''}${avail}</div>`;
}

/** The whole result. */
export function renderResult(r: InspectResult): string {
  if (r.error) return renderError(`${r.error.code ?? 'ERROR'}: ${r.error.message ?? ''}`, r.error.hint, r.error.available_variables);
  const kind = r.detected_type ?? 'unknown';
  const header =
    `<header class="summary"><h1><code class="expr">${escapeHtml(r.name ?? '')}</code> <span class="type">${escapeHtml(r.type ?? kind)}</span></h1>` +
    `<p class="line">${escapeHtml(r.summary ?? '')}</p><div class="badges">${renderBadges(r)}</div></header>`;
  const parts = [header, renderFacts(r)];
  if (kind === 'dataframe' || kind === 'arrow_table') parts.push(renderColumnsTable(r), renderPreviewTable(r));
  else if (kind === 'series') {
    if (r.statistics?.histogram) parts.push(`<section class="dist" aria-label="Distribution"><h2>Distribution</h2>${renderHistogram(r.statistics.histogram, 320, 64)}</section>`);
    parts.push(renderPreviewTable(r));
  } else if (kind === 'ndarray' || kind === 'tensor' || kind === 'dataarray') {
    if (r.statistics?.histogram) parts.push(`<section class="dist" aria-label="Distribution"><h2>Distribution</h2>${renderHistogram(r.statistics.histogram, 320, 64)}</section>`);
    parts.push(renderText(r));
  } else {
    parts.push(renderItems(r), renderAttributes(r));
    if (!r.preview?.items?.length && !r.structure?.attributes?.length) parts.push(renderText(r));
  }
  if (r.warnings?.length) parts.push(`<section class="warnings" aria-label="Warnings"><h2>Warnings</h2><ul>${r.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></section>`);
  if (r.hint) parts.push(`<p class="hint">${escapeHtml(r.hint)}</p>`);
  return parts.filter(Boolean).join('');
}

/** The whole view: result or failure plus a footer with refresh details. */
export function renderView(v: ViewState): string {
  const body = v.failure ? renderError(v.failure) : v.result ? renderResult(v.result) : '<p class="loading">Inspecting…</p>';
  const timing = v.elapsedMs !== undefined ? ` · ${v.elapsedMs.toFixed(0)} ms` : '';
  const footer = `<footer class="meta"><span class="gen" data-generation="${v.generation}">refresh #${v.generation}</span> · ${escapeHtml(v.sessionName ?? '')} · ${escapeHtml(v.updatedAt)}${timing}</footer>`;
  return body + footer;
}
