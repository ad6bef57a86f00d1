// The extension's commands: inspect a variable (Variables view) or an
// expression (opening the inspection panel), copy the MCP configuration or
// endpoint, show the output, restart the sidecar; and the panel's inspector
// and pager (dapscope/inspect, dapscope/page, with a short retry while the
// sidecar catches up).

import * as vscode from 'vscode';
import { expressionAt, isInspectable } from './expression';
import { stdioMcpConfig } from './mcp';
import { InspectPanel, type InspectTarget } from './panel';
import type { InspectParams, PageParams, PageResult } from './protocol';
import { sidecarPath, workspaceRoot } from './sidecar';
import type { ExtensionState } from './state';
import type { InspectResult } from './types';

export function registerCommands(state: ExtensionState): vscode.Disposable[] {
  const { log, sidecar } = state;
  return [
    vscode.commands.registerCommand('dapscope.inspectVariable', (arg?: { sessionId?: string; variable?: { name?: string; evaluateName?: string } }) => {
      const session = (arg?.sessionId ? state.liveSessions.get(arg.sessionId) : undefined) ?? vscode.debug.activeDebugSession;
      const expr = arg?.variable?.evaluateName ?? arg?.variable?.name;
      if (!session || !expr) {
        void vscode.window.showWarningMessage('dapscope: select a variable in a paused debug session.');
        return;
      }
      openPanel(state, session, expr);
    }),
    vscode.commands.registerCommand('dapscope.inspectExpression', async (exprArg?: string) => {
      const session = vscode.debug.activeDebugSession;
      if (!session) {
        void vscode.window.showWarningMessage('dapscope: start a debug session and pause it first.');
        return;
      }
      let initial = exprArg;
      const ed = vscode.window.activeTextEditor;
      if (!initial && ed) {
        const sel = ed.document.getText(ed.selection).trim();
        initial = sel || expressionAt(ed.document.lineAt(ed.selection.active.line).text, ed.selection.active.character);
      }
      const expr = exprArg ?? (await vscode.window.showInputBox({
        title: 'dapscope: Inspect Expression',
        prompt: 'A name, attribute or subscript chain, e.g. df, self.cache, data["train"]',
        value: initial ?? '',
        validateInput: (v) => (isInspectable(v) ? undefined : 'Use a name with attributes and subscripts (int or string literals).'),
      }));
      if (expr) openPanel(state, session, expr.trim());
    }),
    vscode.commands.registerCommand('dapscope.copyMcpConfig', async () => {
      const cfg = stdioMcpConfig(sidecarPath(state.context.extensionPath), workspaceRoot());
      await vscode.env.clipboard.writeText(JSON.stringify(cfg, null, 2));
      void vscode.window.showInformationMessage('dapscope: stdio MCP configuration copied to the clipboard.');
    }),
    vscode.commands.registerCommand('dapscope.copyMcpEndpoint', async () => {
      const ep = await sidecar.mcpEndpoint();
      await vscode.env.clipboard.writeText(JSON.stringify({ type: 'http', url: ep.url, headers: { Authorization: `Bearer ${ep.token}` } }));
      log.info(`MCP endpoint copied: ${ep.url}`);
      void vscode.window.showInformationMessage(`dapscope: MCP endpoint ${ep.url} copied (with its token).`);
    }),
    vscode.commands.registerCommand('dapscope.showOutput', () => log.show(true)),
    vscode.commands.registerCommand('dapscope.restartSidecar', () => sidecar.restart()),
  ];
}

/** The frame the user is looking at in `session`, if any. */
export function focusedFrame(session: vscode.DebugSession): number | undefined {
  const item = (vscode.debug as unknown as { activeStackItem?: unknown }).activeStackItem as { session?: vscode.DebugSession; frameId?: number } | undefined;
  if (item && item.session?.id === session.id && typeof item.frameId === 'number') return item.frameId;
  return undefined;
}

function openPanel(state: ExtensionState, session: vscode.DebugSession, expression: string, frameId?: number): void {
  openInspection(state, { vscodeSessionId: session.id, sessionName: session.name, expression, frameId: frameId ?? focusedFrame(session) });
}

/** Opens (or reveals) the inspection panel with the data viewer on a target. */
export function openInspection(state: ExtensionState, target: InspectTarget): void {
  state.log.info(`open inspection of ${target.expression} in ${target.sessionName}`);
  InspectPanel.show(state.context.extensionUri, target, (t) => inspect(state, t), state.log, (t, sel) => page(state, t, sel));
}

/** The session fields of a request: a kernel's sidecar session, else the debug session's. */
function sessionOf(state: ExtensionState, t: InspectTarget): { sessionId?: string; vscodeSessionId?: string } {
  if (t.sessionId) return { sessionId: t.sessionId };
  return { sessionId: state.sidecarIds.get(t.vscodeSessionId), vscodeSessionId: t.vscodeSessionId };
}

/** A page of a panel's value for the data viewer (dapscope/page), with the same short NOT_PAUSED retry. */
async function page(state: ExtensionState, t: InspectTarget, sel: Partial<PageParams>): Promise<{ result?: PageResult; failure?: string }> {
  await state.sidecar.start();
  const params: PageParams = { ...sel, ...sessionOf(state, t), frameId: t.frameId, expression: t.expression };
  try {
    let result = await state.sidecar.page(params);
    for (let i = 0; i < 20 && result?.error?.code === 'NOT_PAUSED'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      result = await state.sidecar.page(params);
    }
    return { result };
  } catch (e) {
    state.log.warn(`page of ${t.expression} failed: ${(e as Error).message}`);
    return { failure: (e as Error).message };
  }
}

/** Inspects a panel's target through the sidecar, timing it as the extension sees it. */
async function inspect(state: ExtensionState, t: InspectTarget): Promise<{ result?: InspectResult; failure?: string; elapsedMs: number }> {
  const { log, sidecar } = state;
  await sidecar.start();
  const t0 = performance.now();
  try {
    const params: InspectParams = {
      ...sessionOf(state, t),
      frameId: t.frameId,
      expression: t.expression,
      options: { max_preview_rows: vscode.workspace.getConfiguration('dapscope').get<number>('previewRows', 10) },
    };
    let result = await sidecar.inspect(params);
    // The editor may see a stop a moment before the sidecar's session has
    // processed it: retry briefly while it still reports "not paused".
    for (let i = 0; i < 20 && result?.error?.code === 'NOT_PAUSED'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      result = await sidecar.inspect(params);
    }
    const ms = performance.now() - t0;
    log.info(`inspect ${t.expression} answered in ${ms.toFixed(1)} ms (sidecar ${result?.elapsed_ms?.toFixed?.(1) ?? '?'} ms)`);
    return { result, elapsedMs: ms };
  } catch (e) {
    const ms = performance.now() - t0;
    log.warn(`inspect ${t.expression} failed in ${ms.toFixed(1)} ms: ${(e as Error).message}`);
    return { failure: (e as Error).message, elapsedMs: ms };
  }
}
