// "Compare across processes": the command on a variable of a debug session
// whose program has child processes (a multiprocessing Pool's workers are
// child sessions), and its panel: one question (dapscope/inspectProcesses)
// to every process of the session tree, a row per process with its summary
// and problems, or why it has none. The panel asks again on every stop of a
// session of its tree and with its Refresh button; a row's Open button opens
// the data viewer on that process's value. The model is processes.ts.

import * as vscode from 'vscode';
import { focusedFrame, openInspection } from './commands';
import { createPanel, kernelOwner, mediaUri } from './panel';
import { anyTree, hasChildProcesses, processesHtml, processesPage, processesParams, treeOf, type ProcessTable } from './processes';
import type { ExtensionState } from './state';
import { makeNonce } from './webview/html';
import { escapeHtml } from './webview/render';

/** The context key of the Variables view's menu item. */
const CONTEXT_KEY = 'dapscope.hasChildProcesses';

export function registerProcesses(state: ExtensionState): vscode.Disposable[] {
  // The session that starts or ends is counted here: the state's own
  // listener (extension.ts) may not have run yet.
  const setKey = (live: vscode.DebugSession[]) => void vscode.commands.executeCommand('setContext', CONTEXT_KEY, anyTree(live));
  return [
    vscode.commands.registerCommand('dapscope.compareProcesses', (arg?: { sessionId?: string; variable?: { name?: string; evaluateName?: string } }) => {
      const session = (arg?.sessionId ? state.liveSessions.get(arg.sessionId) : undefined) ?? vscode.debug.activeDebugSession;
      const expr = arg?.variable?.evaluateName ?? arg?.variable?.name;
      if (!session || !expr) {
        void vscode.window.showWarningMessage('dapscope: select a variable in a paused debug session.');
        return;
      }
      if (!hasChildProcesses(state.liveSessions.values(), session)) {
        void vscode.window.showInformationMessage(`dapscope: "${session.name}" has no child processes to compare (the program started none, or they have ended).`);
      }
      ProcessesPanel.show(state, session, expr, focusedFrame(session));
    }),
    vscode.debug.onDidStartDebugSession((s) => setKey([...state.liveSessions.values(), s])),
    vscode.debug.onDidTerminateDebugSession((s) => setKey([...state.liveSessions.values()].filter((x) => x.id !== s.id))),
  ];
}

export class ProcessesPanel {
  private static panels = new Map<string, ProcessesPanel>();
  private table?: ProcessTable;
  private pending?: Promise<void>;
  private rerun = false;

  /** Opens (or reveals and refreshes) the panel of expression across session's tree. */
  static show(state: ExtensionState, session: vscode.DebugSession, expression: string, frameId?: number): void {
    const key = `${treeOf(state.liveSessions.values(), session)[0].id}\u0000${expression}`;
    const existing = ProcessesPanel.panels.get(key);
    if (existing) {
      existing.asking = session;
      existing.frameId = frameId;
      existing.panel.reveal(undefined, false);
      void existing.refresh();
      return;
    }
    const panel = createPanel(state.context.extensionUri, 'dapscope.processes', `dapscope: ${expression} across processes`, { retain: false, roots: ['media'] });
    const p = new ProcessesPanel(state, panel, session, expression, frameId);
    ProcessesPanel.panels.set(key, p);
    panel.onDidDispose(() => ProcessesPanel.panels.delete(key));
    void p.refresh();
  }

  /** A stop of a session of a panel's tree asks again (in each top frame). */
  static onSessionEvent(vscodeSessionId: string, kind: string): void {
    if (kind !== 'stopped') return;
    for (const p of ProcessesPanel.panels.values()) {
      if (p.treeIds().includes(vscodeSessionId)) {
        p.frameId = undefined;
        void p.refresh();
      }
    }
  }

  private constructor(
    private readonly state: ExtensionState,
    private readonly panel: vscode.WebviewPanel,
    private asking: vscode.DebugSession,
    private readonly expression: string,
    private frameId: number | undefined,
  ) {
    panel.webview.onDidReceiveMessage((m: { type?: string; row?: number }) => {
      if (m?.type === 'refresh') void this.refresh();
      else if (m?.type === 'open' && typeof m.row === 'number') this.open(m.row);
    });
  }

  private tree(): vscode.DebugSession[] {
    return treeOf(this.state.liveSessions.values(), this.asking);
  }

  private treeIds(): string[] {
    return this.tree().map((s) => s.id);
  }

  /** Asks again; concurrent calls coalesce into one follow-up run. */
  refresh(): Promise<void> {
    if (this.pending) {
      this.rerun = true;
      return this.pending;
    }
    this.pending = (async () => {
      do {
        this.rerun = false;
        await this.ask();
      } while (this.rerun);
    })().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async ask(): Promise<void> {
    const { sidecar, log } = this.state;
    const tree = this.tree();
    const names = new Map(tree.map((s) => [s.id, s.name]));
    const options = { max_preview_rows: 1 };
    const t0 = performance.now();
    try {
      await sidecar.start();
      this.table = await sidecar.inspectProcesses(processesParams(tree, this.asking.id, this.expression, this.frameId, options));
      const ms = performance.now() - t0;
      log.info(`inspectProcesses ${this.expression} over ${tree.length} sessions answered in ${ms.toFixed(1)} ms`);
      this.render(processesHtml(this.table, names), `asked ${new Date().toISOString().slice(11, 19)} in ${ms.toFixed(0)} ms`);
    } catch (e) {
      this.table = undefined;
      log.warn(`inspectProcesses ${this.expression} failed: ${(e as Error).message}`);
      this.render(`<p class="error">${escapeHtml((e as Error).message)}</p>`, '');
    }
  }

  /** The data viewer on one row's process. */
  private open(i: number): void {
    const r = this.table?.rows[i];
    if (!r || r.error) return;
    const vscodeId = r.vscode_session_id;
    const session = vscodeId ? this.state.liveSessions.get(vscodeId) : undefined;
    openInspection(this.state, {
      vscodeSessionId: vscodeId ?? kernelOwner(r.session_id),
      sessionId: vscodeId ? undefined : r.session_id,
      sessionName: session?.name ?? r.name ?? `session ${r.session_id.slice(0, 8)}`,
      expression: this.expression,
      frameId: vscodeId === this.asking.id ? this.frameId : undefined,
    });
  }

  private render(body: string, footer: string): void {
    const w = this.panel.webview;
    w.html = processesPage({ cspSource: w.cspSource, nonce: makeNonce(), styleUri: mediaUri(w, this.state.context.extensionUri, 'webview.css'), expression: this.expression, body, footer });
  }
}
