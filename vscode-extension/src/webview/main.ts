// The webview's script: renders each ViewState the extension posts, keeps the
// last one for when the panel is restored, mounts the data viewer (viewer.ts)
// in place of the preview for tables, routes the extension's page and
// statistics answers to it, and makes the tables keyboard navigable (arrow
// keys move between column rows; R refreshes).

import { renderView } from './render';
import { browsable, Viewer } from './viewer';
import type { PageResult } from '../protocol';
import type { InspectResult, ViewState } from '../types';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
const status = document.getElementById('status') as HTMLElement;

let viewer: Viewer | undefined;
let viewerKey = '';
let viewerGen = -1;
let last: ViewState | undefined;
const unavailable = new Set<string>(); // expressions the probe cannot page (e.g. Go sessions)

/** Puts the data viewer where the preview was (one viewer per expression, kept across stops). */
function mountViewer(state: ViewState): void {
  if (!browsable(state.result) || unavailable.has(state.expression)) return;
  if (!viewer || viewerKey !== state.expression) {
    viewerKey = state.expression;
    viewerGen = state.generation;
    const expr = state.expression;
    viewer = new Viewer(expr, state, (m) => vscode.postMessage(m), () => {
      unavailable.add(expr);
      viewer = undefined;
      if (last) show(last);
    });
  } else if (viewerGen !== state.generation) {
    viewerGen = state.generation;
    viewer.update(state);
  }
  const slot = root.querySelector('section.preview, section.text');
  if (slot) slot.replaceWith(viewer.el);
  else root.querySelector('footer.meta')?.before(viewer.el);
  viewer.attached();
}

function show(state: ViewState): void {
  last = state;
  root.innerHTML = renderView(state);
  mountViewer(state);
  document.body.dataset.generation = String(state.generation);
  document.body.dataset.state = state.failure ? 'failure' : state.result ? 'result' : 'loading';
  status.textContent = state.failure ? 'failed' : state.result ? `updated ${state.updatedAt}` : 'inspecting…';
  vscode.setState(state);
}

window.addEventListener('message', (e: MessageEvent) => {
  const msg = e.data as { type?: string; state?: ViewState; id?: number; result?: unknown; failure?: string; column?: string };
  if (msg?.type === 'state' && msg.state) show(msg.state);
  else if (msg?.type === 'page' && typeof msg.id === 'number') viewer?.onPage(msg.id, msg.result as PageResult | undefined, msg.failure);
  else if (msg?.type === 'stats' && typeof msg.column === 'string') viewer?.onStats(msg.column, msg.result as InspectResult | undefined);
  else if (msg?.type === 'loading') status.textContent = 'inspecting…';
});

document.getElementById('refresh')?.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));

document.addEventListener('keydown', (e: KeyboardEvent) => {
  const target = e.target as HTMLElement;
  if (e.key === 'r' && !(target instanceof HTMLInputElement) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    vscode.postMessage({ type: 'refresh' });
    return;
  }
  if (target?.tagName !== 'TR' || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End')) return;
  const rows = Array.from(target.parentElement?.querySelectorAll('tr') ?? []) as HTMLElement[];
  let i = rows.indexOf(target);
  if (e.key === 'ArrowDown') i = Math.min(rows.length - 1, i + 1);
  else if (e.key === 'ArrowUp') i = Math.max(0, i - 1);
  else if (e.key === 'Home') i = 0;
  else i = rows.length - 1;
  rows.forEach((r) => r.setAttribute('tabindex', '-1'));
  rows[i].setAttribute('tabindex', '0');
  rows[i].focus();
  e.preventDefault();
});

const saved = vscode.getState() as ViewState | undefined;
if (saved) show(saved);
vscode.postMessage({ type: 'ready' });
