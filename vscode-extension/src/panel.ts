// The inspection webview panel: one per (session, expression); renders the
// result the sidecar returns, refreshes on every stop of its session, shows a
// clear message when the session is running or gone.

import * as vscode from 'vscode';
import type { InspectResult, ViewState } from './types';
import { makeNonce, webviewHtml } from './webview/html';

export interface InspectTarget {
  vscodeSessionId: string;
  sessionName: string;
  expression: string;
  frameId?: number;
}

export type Inspector = (t: InspectTarget) => Promise<{ result?: InspectResult; failure?: string; elapsedMs: number }>;

export class InspectPanel {
  private static panels = new Map<string, InspectPanel>();
  private generation = 0;
  private pending?: Promise<void>;
  private rerun = false;

  static show(extUri: vscode.Uri, target: InspectTarget, inspector: Inspector, log: vscode.LogOutputChannel): InspectPanel {
    const key = `${target.vscodeSessionId}\u0000${target.expression}`;
    const existing = InspectPanel.panels.get(key);
    if (existing) {
      existing.target = target;
      existing.panel.reveal(undefined, false);
      void existing.refresh();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel('dapscope.inspect', `dapscope: ${target.expression}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(extUri, 'media'), vscode.Uri.joinPath(extUri, 'dist')],
    });
    const p = new InspectPanel(panel, extUri, target, inspector, log);
    InspectPanel.panels.set(key, p);
    panel.onDidDispose(() => InspectPanel.panels.delete(key));
    return p;
  }

  /** Called on every session event from the sidecar or a tracker. */
  static onSessionEvent(vscodeSessionId: string, kind: string): void {
    for (const p of InspectPanel.panels.values()) {
      if (p.target.vscodeSessionId !== vscodeSessionId) continue;
      if (kind === 'stopped') {
        p.target.frameId = undefined; // a new stop: inspect in the new top frame
        void p.refresh();
      } else if (kind === 'terminated') p.post({ failure: 'The debug session has ended.' });
      else if (kind === 'continued') void p.panel.webview.postMessage({ type: 'loading' });
    }
  }

  private constructor(
    private panel: vscode.WebviewPanel,
    extUri: vscode.Uri,
    private target: InspectTarget,
    private inspector: Inspector,
    private log: vscode.LogOutputChannel,
  ) {
    const w = panel.webview;
    w.html = webviewHtml({
      cspSource: w.cspSource,
      nonce: makeNonce(),
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(extUri, 'dist', 'webview.js')).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(extUri, 'media', 'webview.css')).toString(),
      title: `dapscope: ${target.expression}`,
    });
    w.onDidReceiveMessage((m: { type?: string }) => {
      if (m?.type === 'ready' || m?.type === 'refresh') void this.refresh();
    });
  }

  private post(s: Partial<ViewState>): void {
    const state: ViewState = {
      expression: this.target.expression,
      sessionName: this.target.sessionName,
      generation: this.generation,
      updatedAt: new Date().toISOString().slice(11, 19),
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
