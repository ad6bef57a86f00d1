// The inspection webview panel: one per (session, expression); renders the
// result the sidecar returns, refreshes on every stop of its session, shows a
// clear message when the session is running or gone (a kernel's value: after
// each cell, and while a cell runs). For the data viewer it
// answers the webview's page requests (dapscope/page), column statistics
// (inspecting expr["column"]) and copies, and keeps the hidden columns per
// expression for the debug session.

import * as vscode from 'vscode';
import type { PageParams, PageResult } from './protocol';
import type { InspectResult, ViewState } from './types';
import { makeNonce, webviewHtml } from './webview/html';

export interface InspectTarget {
  /** The VS Code debug session's id, or kernelOwner(sessionId) for a kernel's value. */
  vscodeSessionId: string;
  /** The sidecar session, when it is known here (a kernel session). */
  sessionId?: string;
  sessionName: string;
  expression: string;
  frameId?: number;
}

export type Inspector = (t: InspectTarget) => Promise<{ result?: InspectResult; failure?: string; elapsedMs: number }>;

/** Asks the sidecar for a page of the target's value (the selection in params). */
export type Pager = (t: InspectTarget, params: Partial<PageParams>) => Promise<{ result?: PageResult; failure?: string }>;

/** The owner key of a panel on a kernel session's value (no VS Code debug session). */
export function kernelOwner(sessionId: string): string {
  return `kernel:${sessionId}`;
}

/** A Python subscript of expression by a column name (JSON's string escapes are Python's). */
export function columnExpression(expression: string, column: string): string {
  return `${expression}[${JSON.stringify(column)}]`;
}

/** A webview panel beside the editor, scripts on, reading only the extension's folders in roots. */
export function createPanel(extUri: vscode.Uri, viewType: string, title: string, o: { retain: boolean; roots: string[] }): vscode.WebviewPanel {
  return vscode.window.createWebviewPanel(viewType, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
    enableScripts: true,
    retainContextWhenHidden: o.retain,
    localResourceRoots: o.roots.map((r) => vscode.Uri.joinPath(extUri, r)),
  });
}

/** A file of the extension's media folder as the webview may load it. */
export function mediaUri(w: vscode.Webview, extUri: vscode.Uri, file: string): string {
  return w.asWebviewUri(vscode.Uri.joinPath(extUri, 'media', file)).toString();
}

export class InspectPanel {
  private static panels = new Map<string, InspectPanel>();
  /** Hidden columns by (VS Code session, expression), for the session's life. */
  private static hidden = new Map<string, string[]>();
  private generation = 0;
  private pending?: Promise<void>;
  private rerun = false;

  static show(extUri: vscode.Uri, target: InspectTarget, inspector: Inspector, log: vscode.LogOutputChannel, pager?: Pager): InspectPanel {
    const key = `${target.vscodeSessionId}\u0000${target.expression}`;
    const existing = InspectPanel.panels.get(key);
    if (existing) {
      existing.target = target;
      existing.panel.reveal(undefined, false);
      void existing.refresh();
      return existing;
    }
    const panel = createPanel(extUri, 'dapscope.inspect', `dapscope: ${target.expression}`, { retain: true, roots: ['media', 'dist'] });
    const p = new InspectPanel(panel, extUri, target, inspector, log, pager);
    InspectPanel.panels.set(key, p);
    panel.onDidDispose(() => InspectPanel.panels.delete(key));
    return p;
  }

  /** Called on every session event from the sidecar or a tracker. */
  static onSessionEvent(vscodeSessionId: string, kind: string): void {
    if (kind === 'terminated') InspectPanel.forgetSession(vscodeSessionId);
    for (const p of InspectPanel.panels.values()) {
      if (p.target.vscodeSessionId !== vscodeSessionId) continue;
      if (kind === 'stopped') {
        p.target.frameId = undefined; // a new stop: inspect in the new top frame
        void p.refresh();
      } else if (kind === 'terminated') p.post({ failure: p.target.sessionId ? 'The kernel session has ended (the kernel exited, or the sidecar restarted): open the value again from the Kernel variables view.' : 'The debug session has ended.' });
      else if (kind === 'continued') void p.panel.webview.postMessage({ type: 'loading' });
    }
  }

  private constructor(
    private panel: vscode.WebviewPanel,
    extUri: vscode.Uri,
    private target: InspectTarget,
    private inspector: Inspector,
    private log: vscode.LogOutputChannel,
    private pager?: Pager,
  ) {
    const w = panel.webview;
    w.html = webviewHtml({
      cspSource: w.cspSource,
      nonce: makeNonce(),
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(extUri, 'dist', 'webview.js')).toString(),
      styleUri: mediaUri(w, extUri, 'webview.css'),
      title: `dapscope: ${target.expression}`,
    });
    w.onDidReceiveMessage((m: { type?: string; id?: number; params?: Partial<PageParams>; column?: string; text?: string; what?: string; hidden?: string[] }) => {
      if (m?.type === 'ready' || m?.type === 'refresh') void this.refresh();
      else if (m?.type === 'page' && typeof m.id === 'number') void this.page(m.id, m.params ?? {});
      else if (m?.type === 'stats' && typeof m.column === 'string') void this.stats(m.column);
      else if (m?.type === 'hidden' && Array.isArray(m.hidden)) InspectPanel.hidden.set(this.key(), m.hidden.map(String));
      else if (m?.type === 'copy' && typeof m.text === 'string') {
        void vscode.env.clipboard.writeText(m.text).then(() => vscode.window.setStatusBarMessage(`dapscope: copied ${m.what ?? 'the selection'}`, 3000));
      }
    });
  }

  private key(): string {
    return `${this.target.vscodeSessionId}\u0000${this.target.expression}`;
  }

  /** Forgets a session's hidden columns when it ends. */
  static forgetSession(vscodeSessionId: string): void {
    for (const k of InspectPanel.hidden.keys()) if (k.startsWith(`${vscodeSessionId}\u0000`)) InspectPanel.hidden.delete(k);
  }

  private async page(id: number, params: Partial<PageParams>): Promise<void> {
    const res = this.pager ? await this.pager(this.target, params).catch((e: unknown) => ({ failure: String((e as Error)?.message ?? e), result: undefined })) : { failure: 'paging is not available', result: undefined };
    void this.panel.webview.postMessage({ type: 'page', id, result: res.result, failure: res.failure });
  }

  private async stats(column: string): Promise<void> {
    const res = await this.inspector({ ...this.target, expression: columnExpression(this.target.expression, column) }).catch(() => ({ result: undefined }));
    void this.panel.webview.postMessage({ type: 'stats', column, result: res.result });
  }

  private post(s: Partial<ViewState>): void {
    const state: ViewState = {
      expression: this.target.expression,
      sessionName: this.target.sessionName,
      generation: this.generation,
      updatedAt: new Date().toISOString().slice(11, 19),
      hidden: InspectPanel.hidden.get(this.key()),
      ...s,
    };
    void this.panel.webview.postMessage({ type: 'state', state });
  }

  /** Inspects again; concurrent calls coalesce into one follow-up run. */
  refresh(): Promise<void> {
    if (this.pending) {
      this.rerun = true;
      return this.pending;
    }
    this.pending = (async () => {
      do {
        this.rerun = false;
        this.generation++;
        const res = await this.inspector(this.target).catch((e: unknown) => ({ failure: String((e as Error)?.message ?? e), elapsedMs: 0, result: undefined }));
        this.log.info(`webview refresh #${this.generation} ${this.target.expression}: ${res.failure ? 'failed: ' + res.failure : 'ok'} in ${res.elapsedMs} ms`);
        this.post({ result: res.result, failure: res.failure, elapsedMs: res.elapsedMs });
      } while (this.rerun);
    })().finally(() => (this.pending = undefined));
    return this.pending;
  }
}
