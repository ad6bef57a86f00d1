// The data viewer's side parts, as HTML strings: the column picker (show or
// hide each column; the choice is kept per expression for the session by the
// extension) and the statistics panel of one column (dtype, nulls, distinct,
// min/max/mean/std, quantiles, top values and a themed SVG histogram with its
// range).

import type { PageColumn } from '../protocol';
import type { Statistics } from '../types';
import { cellText, escapeHtml, formatNumber, histogramEdges, renderHistogram } from './render';

/** The picker: a checkbox per column (hidden ones unchecked), all/none and a name filter. */
export function renderPicker(columns: PageColumn[], hidden: Set<string>): string {
  const items = columns
    .map(
      (c, i) =>
        `<li><label><input type="checkbox" class="vpick" data-col="${i}" value="${escapeHtml(c.name)}"${hidden.has(c.name) ? '' : ' checked'}> ` +
        `<span class="vpname">${escapeHtml(c.name)}</span> <span class="dtype">${escapeHtml(c.dtype ?? '')}</span></label></li>`,
    )
    .join('');
  const shown = columns.filter((c) => !hidden.has(c.name)).length;
  return (
    `<div class="vpickhead"><span class="vpickcount">${shown} of ${columns.length} columns shown</span>` +
    `<button type="button" class="vpickall">All</button><button type="button" class="vpicknone">None</button>` +
    `<input type="search" class="vpickfind" placeholder="Find a column" aria-label="Find a column"></div>` +
    `<ul class="vpicklist" role="group" aria-label="Columns">${items}</ul>`
  );
}

/** The shown columns, in the value's order. */
export function shownColumns(columns: PageColumn[], hidden: Set<string>): string[] {
  return columns.map((c) => c.name).filter((n) => !hidden.has(n));
}

function row(k: string, v: string): string {
  return v === '' ? '' : `<tr><th scope="row">${escapeHtml(k)}</th><td class="num">${escapeHtml(v)}</td></tr>`;
}

function val(v: unknown): string {
  return v === undefined ? '' : cellText(v);
}

/**
 * The statistics of one column. nulls comes from the structure (the inspector
 * counts them for every column); stats may be missing while they load.
 */
export function renderStatsPanel(column: PageColumn, stats: Statistics | undefined, nulls: number | undefined, loading = false): string {
  const head = `<h3><code>${escapeHtml(column.name)}</code> <span class="dtype">${escapeHtml(column.dtype ?? '')}</span></h3>`;
  if (!stats) return `<div class="vstatsbody">${head}<p class="note">${loading ? 'Computing statistics…' : 'No statistics for this column.'}</p></div>`;
  const s = stats;
  const nullCount = nulls ?? s.nan_count;
  const facts = [
    row('Count', s.count === undefined ? '' : formatNumber(s.count)),
    row('Nulls', nullCount === undefined ? '' : formatNumber(nullCount)),
    row('Distinct', s.distinct === undefined ? '' : (s.distinct_estimated ? '≈' : '') + formatNumber(s.distinct)),
    row('Min', val(s.min ?? s.first)),
    row('Max', val(s.max ?? s.last)),
    row('Mean', val(s.mean)),
    row('Std', val(s.std)),
    row('Zeros', s.zeros ? formatNumber(s.zeros) : ''),
    row('Inf', s.inf_count ? formatNumber(s.inf_count) : ''),
    row('True', s.true_rate === undefined ? '' : `${formatNumber(s.true_rate * 100)}%`),
    row('Length', s.str_len ? `${s.str_len.min}–${s.str_len.max} (mean ${formatNumber(s.str_len.mean)})` : ''),
  ].join('');
  const q = s.quantiles;
  const quant = q
    ? `<h4>Quantiles</h4><table class="vq"><thead><tr><th>5%</th><th>25%</th><th>50%</th><th>75%</th><th>95%</th></tr></thead>` +
      `<tbody><tr>${[q.p5, q.p25, q.p50, q.p75, q.p95].map((v) => `<td class="num">${escapeHtml(cellText(v))}</td>`).join('')}</tr></tbody></table>`
    : '';
  const top = s.top_values?.length
    ? `<h4>Top values</h4><ol class="vtop">${s.top_values
        .slice(0, 10)
        .map((t) => `<li><span class="vtopv">${escapeHtml(cellText(t.value))}</span> <span class="vtopc">${escapeHtml(formatNumber(t.count))}</span></li>`)
        .join('')}</ol>`
    : '';
  const h = s.histogram;
  const edges = h?.counts?.length ? histogramEdges(h) : [];
  const hist = h?.counts?.length
    ? `<h4>Histogram</h4>${renderHistogram(h, 260, 90)}<div class="vaxis"><span>${escapeHtml(formatNumber(edges[0]))}</span><span>${escapeHtml(formatNumber(edges[edges.length - 1]))}</span></div>`
    : '';
  const badges = [s.sampled ? `<span class="badge badge-sampled" title="Computed on a sample of ${formatNumber(s.sample_size)} rows">sampled</span>` : '', s.skipped ? `<span class="badge badge-skipped">${escapeHtml(s.skipped)}</span>` : '']
    .filter(Boolean)
    .join('');
  return `<div class="vstatsbody">${head}${badges ? `<div class="badges">${badges}</div>` : ''}<table class="vfacts">${facts}</table>${quant}${hist}${top}</div>`;
}
