// "Compare across processes", its model (no `vscode` import, unit-tested):
// the editor channel's dapscope/inspectProcesses types, the debug session
// tree a variable's session belongs to (VS Code's parentSession links: a
// multiprocessing run's workers are child sessions of the launch), and the
// table's HTML, a row per process with its summary and problems, or the
// reason it has none (not paused, no such name, ended), and the panel's page
// (its Refresh and Open buttons post {type: 'refresh'} and {type: 'open', row}).

import type { InspectOptions } from './protocol';
import { pageHtml } from './webview/html';
import { escapeHtml } from './webview/render';

/**
 * dapscope/inspectProcesses params (editor.ProcessesParams): one question to
 * every process of a debug session tree (a multiprocessing run, a pool's
 * workers): the VS Code debug sessions of the tree (parents first), and/or a
 * sidecar session whose own tree is asked ("all": every live session).
 */
export interface ProcessesParams {
  sessionId?: string;
  vscodeSessionIds?: string[];
  /** The frame to ask per session id (VS Code or sidecar); others: their top frame. */
  frameIds?: Record<string, number>;
  expression: string;
  options: InspectOptions;
  /** Bounds the table's text (default 64 KiB). */
  maxBytes?: number;
}

/** One process's answer (allprocs.Row): the summary and problems, or error saying why there is none. */
export interface ProcessRow {
  session_id: string;
  parent_id?: string;
  vscode_session_id?: string;
  /** The debug session's name (bridged sessions). */
  name?: string;
  pid?: number;
  /** paused, or why there is no answer (running, completed, starting, unknown…). */
  status: string;
  /** file:line of the frame asked. */
  location?: string;
  summary?: string;
  problems?: string[];
  /** Why there is no summary: not paused, the name is not defined there, the session ended… */
  error?: string;
}

/** dapscope/inspectProcesses result (allprocs.Table). */
export interface ProcessTable {
  expression: string;
  rows: ProcessRow[];
  /** Rows left out to fit maxBytes. */
  omitted?: number;
}

/** What the tree needs of a vscode.DebugSession. */
export interface TreeSession {
  id: string;
  name: string;
  parentSession?: TreeSession;
}

/** The root of s's tree (s itself when it has no parent). */
export function rootOf<S extends TreeSession>(s: S): S {
  let r: TreeSession = s;
  while (r.parentSession) r = r.parentSession;
  return r as S;
}

/**
 * The live sessions of from's tree: its root, then each one whose parent is
 * already in the list (parents before children, in the order of live).
 */
export function treeOf<S extends TreeSession>(live: Iterable<S>, from: S): S[] {
  const root = rootOf(from);
  const all = [...live];
  const out: S[] = [root];
  const ids = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of all) {
      if (!ids.has(s.id) && s.parentSession && ids.has(s.parentSession.id)) {
        out.push(s);
        ids.add(s.id);
        grew = true;
      }
    }
  }
  return out;
}

/** Whether from belongs to a tree of more than one session (a program with child processes). */
export function hasChildProcesses<S extends TreeSession>(live: Iterable<S>, from: S): boolean {
  return treeOf(live, from).length > 1;
}

/** Whether any live session has a child session (the menu's context key). */
export function anyTree<S extends TreeSession>(live: Iterable<S>): boolean {
  for (const s of live) if (s.parentSession) return true;
  return false;
}

/** The params of a question to every process of the tree; frameId is the asking session's frame. */
export function processesParams(tree: TreeSession[], asking: string, expression: string, frameId: number | undefined, options: InspectOptions): ProcessesParams {
  const p: ProcessesParams = { vscodeSessionIds: tree.map((s) => s.id), expression, options };
  if (frameId !== undefined) p.frameIds = { [asking]: frameId };
  return p;
}

/** A row's process as the user knows it: the session's name, its pid. */
export function processLabel(r: ProcessRow, names: ReadonlyMap<string, string>): string {
  const name = (r.vscode_session_id && names.get(r.vscode_session_id)) || r.name || (r.session_id ? `session ${r.session_id.slice(0, 8)}` : r.vscode_session_id ?? '?');
  return r.pid && !name.includes(`pid ${r.pid}`) ? `${name} (pid ${r.pid})` : name; // a Ray task's session names its pid
}

/** The answer cell: the summary, or the reason there is none. */
export function answerText(r: ProcessRow): string {
  if (r.error) return r.error === 'not paused' ? `not paused (${r.status})` : r.error;
  return r.summary ?? '';
}

/** Counts for the heading: processes answered, and those with problems. */
export function tally(t: ProcessTable): { answered: number; withProblems: number; total: number } {
  let answered = 0;
  let withProblems = 0;
  for (const r of t.rows) {
    if (!r.error) answered++;
    if (r.problems?.length) withProblems++;
  }
  return { answered, withProblems, total: t.rows.length + (t.omitted ?? 0) };
}

/** The table's body HTML (every text escaped); each answered row's data-row is its index, for "open". */
export function processesHtml(t: ProcessTable, names: ReadonlyMap<string, string>): string {
  const n = tally(t);
  const head = `<h2>${escapeHtml(t.expression)} in ${n.total} process${n.total === 1 ? '' : 'es'}</h2>
<p class="meta">${n.answered} answered · ${n.withProblems} with problems${t.omitted ? ` · ${t.omitted} left out to fit the size bound` : ''}</p>`;
  const rows = t.rows.map((r, i) => {
    const cls = r.error ? 'no-answer' : r.problems?.length ? 'problems' : 'ok';
    const problems = (r.problems ?? []).map((p) => `<li>${escapeHtml(p)}</li>`).join('');
    const open = r.error ? '' : `<button class="open" data-row="${i}" title="Open in the data viewer">Open</button>`;
    return `<tr class="${cls}"><td>${escapeHtml(processLabel(r, names))}</td><td>${escapeHtml(r.status)}</td><td>${escapeHtml(r.location ?? '')}</td>` +
      `<td>${escapeHtml(answerText(r))}</td><td>${problems ? `<ul>${problems}</ul>` : ''}</td><td>${open}</td></tr>`;
  });
  return `${head}
<table class="processes"><thead><tr><th>process</th><th>status</th><th>where</th><th>summary</th><th>problems</th><th></th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

/** The page's script: Refresh asks again, a row's Open opens that process's value in the data viewer. */
export const PROCESSES_SCRIPT = `const vscode = acquireVsCodeApi();
document.getElementById('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
for (const b of document.querySelectorAll('button.open')) b.addEventListener('click', () => vscode.postMessage({ type: 'open', row: Number(b.dataset.row) }));`;

/** The panel's whole page around a body (processesHtml's table, or an error) and a footer line. */
export function processesPage(o: { cspSource: string; nonce: string; styleUri: string; expression: string; body: string; footer: string }): string {
  return pageHtml({
    cspSource: o.cspSource,
    nonce: o.nonce,
    styleUri: o.styleUri,
    title: `${o.expression} across processes`,
    bodyClass: 'processes-view',
    body: `<button id="refresh">Refresh</button>\n${o.body}\n<p class="meta">${escapeHtml(o.footer)}</p>`,
    script: { inline: PROCESSES_SCRIPT },
  });
}
