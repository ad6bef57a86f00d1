// Extension entry point: starts the sidecar (`dapscope serve`) as a language
// client, registers the `dapscope` debug type and its proxy factory, the
// tracker bridge for other debug types, the inspect commands and webview, the
// MCP server definition provider, and the output channel (levels, DAP trace).

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { Bridge, childConfiguration, type BridgeEvent, type DapRequestParams } from './bridge';
import { ConfigurationProvider, DescriptorFactory } from './debug';
import { expressionAt, isInspectable } from './expression';
import { InspectPanel, type InspectTarget } from './panel';
import type { InspectResult } from './types';
import { registerMcp, stdioMcpConfig } from './mcp';

let client: LanguageClient | undefined;
let starting: Promise<LanguageClient> | undefined;
let log: vscode.LogOutputChannel;
/** VS Code session id → the sidecar's session id (asked with the custom DAP request dapscope/session). */
const sidecarIds = new Map<string, string>();
/** Live debug sessions by id (the Variables view's context names its session by id). */
const liveSessions = new Map<string, vscode.DebugSession>();

async function learnSidecarId(session: vscode.DebugSession): Promise<void> {
  if (sidecarIds.has(session.id)) return;
  try {
    const info = (await session.customRequest('dapscope/session')) as { id?: string };
    if (info?.id) {
      sidecarIds.set(session.id, info.id);
      log.info(`debug session "${session.name}" is sidecar session ${info.id}`);
    }
  } catch (e) {
    log.debug(`dapscope/session: ${(e as Error).message}`);
  }
}

/** The sidecar binary: the `dapscope.path` setting, else the bundled one, else `dapscope` on PATH. */
export function sidecarPath(extPath: string): string {
  const configured = vscode.workspace.getConfiguration('dapscope').get<string>('path');
  if (configured) return configured;
  const bundled = path.join(extPath, 'bin', process.platform === 'win32' ? 'dapscope.exe' : 'dapscope');
  if (!fs.existsSync(bundled)) return 'dapscope';
  try {
    fs.accessSync(bundled, fs.constants.X_OK);
  } catch {
    fs.chmodSync(bundled, 0o755); // some unpackers drop the executable bit
  }
  return bundled;
}

function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function startClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  if (client) return client;
  if (starting) return starting;
  starting = (async () => {
    const bin = sidecarPath(context.extensionPath);
    const cfg = vscode.workspace.getConfiguration('dapscope');
    const args = ['serve', '--log-level', cfg.get<string>('sidecarLogLevel', 'info')];
    if (cfg.get<boolean>('trace.dap')) args.push('--trace-dap');
    const root = workspaceRoot();
    if (root) args.push('--workspace', root);
    log.info(`starting sidecar: ${bin} ${args.join(' ')}`);
    const serverOptions: ServerOptions = { command: bin, args, options: { cwd: root } };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'file', language: 'go' },
      ],
      outputChannel: log,
      middleware: {
        provideHover: async (document, position, token, next) => {
          const t0 = performance.now();
          const h = await next(document, position, token);
          const ms = performance.now() - t0;
          log.info(`hover ${path.basename(document.uri.fsPath)}:${position.line + 1}:${position.character + 1} ${h ? 'answered' : 'null'} in ${ms.toFixed(1)} ms`);
          return h;
        },
      },
    };
    const c = new LanguageClient('dapscope', 'dapscope sidecar', serverOptions, clientOptions);
    c.onNotification('dapscope/sessionEvent', (ev: { sessionId: string; vscodeSessionId?: string; kind: string }) => {
      log.debug(`session event ${ev.kind} ${ev.sessionId} (vscode ${ev.vscodeSessionId ?? '-'})`);
      // Panels of dapscope sessions refresh from the tracker (the editor's own
      // view of stops); here only the end of a sidecar session matters.
      if (ev.vscodeSessionId && ev.kind === 'terminated') InspectPanel.onSessionEvent(ev.vscodeSessionId, ev.kind);
    });
    c.onRequest('dapscope/dapRequest', (p: DapRequestParams) => bridge.request(p));
    await c.start();
    client = c;
    log.info('sidecar started');
    return c;
  })();
  try {
    return await starting;
  } finally {
    starting = undefined;
  }
}

const bridge = new Bridge(
  (ev: BridgeEvent) => {
    if (ev.kind === 'stopped' || ev.kind === 'terminated') InspectPanel.onSessionEvent(ev.vscodeSessionId, ev.kind);
    void client?.sendNotification('dapscope/bridgeEvent', ev).catch((e) => log.warn(`bridge event: ${e}`));
  },
  (m) => log.debug(m),
);

/** The frame the user is looking at in `session`, if any. */
function focusedFrame(session: vscode.DebugSession): number | undefined {
  const item = (vscode.debug as unknown as { activeStackItem?: unknown }).activeStackItem as { session?: vscode.DebugSession; frameId?: number } | undefined;
  if (item && item.session?.id === session.id && typeof item.frameId === 'number') return item.frameId;
  return undefined;
}

async function inspect(context: vscode.ExtensionContext, t: InspectTarget): Promise<{ result?: InspectResult; failure?: string; elapsedMs: number }> {
  const c = await startClient(context);
  const t0 = performance.now();
  try {
    const params = {
      sessionId: sidecarIds.get(t.vscodeSessionId),
      vscodeSessionId: t.vscodeSessionId,
      frameId: t.frameId,
      expression: t.expression,
      options: { max_preview_rows: vscode.workspace.getConfiguration('dapscope').get<number>('previewRows', 10) },
    };
    let result = await c.sendRequest<InspectResult>('dapscope/inspect', params);
    // The editor may see a stop a moment before the sidecar's session has
    // processed it: retry briefly while it still reports "not paused".
    for (let i = 0; i < 20 && result?.error?.code === 'NOT_PAUSED'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      result = await c.sendRequest<InspectResult>('dapscope/inspect', params);
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

function openPanel(context: vscode.ExtensionContext, session: vscode.DebugSession, expression: string, frameId?: number): void {
  const target: InspectTarget = { vscodeSessionId: session.id, sessionName: session.name, expression, frameId: frameId ?? focusedFrame(session) };
  log.info(`open inspection of ${expression} in ${session.name}`);
  InspectPanel.show(context.extensionUri, target, (t) => inspect(context, t), log);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel('dapscope', { log: true });
  context.subscriptions.push(log);
  log.info(`dapscope ${context.extension.packageJSON.version} activating (VS Code ${vscode.version})`);

  const starter = {
    startProxy: async (configuration: vscode.DebugConfiguration, vscodeSessionId: string) => {
      const c = await startClient(context);
      return c.sendRequest<{ address: string; sessionId?: string }>('dapscope/startProxy', { configuration, vscodeSessionId });
    },
  };
  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider('dapscope', new ConfigurationProvider()),
    vscode.debug.registerDebugAdapterDescriptorFactory('dapscope', new DescriptorFactory(starter, log)),
    vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker(session) {
        const trace = vscode.workspace.getConfiguration('dapscope').get<boolean>('trace.dap');
        const b = bridge.tracker(session);
        if (b) void startClient(context).catch((e) => log.error(`sidecar: ${e}`));
        const own = session.type === 'dapscope';
        if (!trace && !own) return b;
        return {
          onWillReceiveMessage: (m: unknown) => {
            if (trace) log.info(`dap [${session.type}] → ${JSON.stringify(m)}`);
          },
          onDidSendMessage: (m: unknown) => {
            if (trace) log.info(`dap [${session.type}] ← ${JSON.stringify(m)}`);
            b?.onDidSendMessage(m);
            const msg = m as { type?: string; event?: string; body?: Record<string, unknown> };
            if (own && msg?.type === 'event') {
              if (b) {
                // child sessions refresh through the bridge
              } else if (msg.event === 'stopped') {
                void learnSidecarId(session).finally(() => InspectPanel.onSessionEvent(session.id, 'stopped'));
              }
              else if (msg.event === 'continued') InspectPanel.onSessionEvent(session.id, 'continued');
              else if (msg.event === 'debugpyAttach' && msg.body) {
                const child = childConfiguration(msg.body, session.type);
                if (child) {
                  log.info(`debugpy subprocess ${String(child.subProcessId)}: starting a child session`);
                  void vscode.debug.startDebugging(session.workspaceFolder, child as vscode.DebugConfiguration, { parentSession: session, lifecycleManagedByParent: true, consoleMode: vscode.DebugConsoleMode.MergeWithParent });
                }
              }
            }
          },
          onExit: () => b?.onExit(),
          onWillStopSession: () => b?.onWillStopSession(),
        };
      },
    }),
    vscode.commands.registerCommand('dapscope.inspectVariable', (arg?: { sessionId?: string; variable?: { name?: string; evaluateName?: string } }) => {
      const session = (arg?.sessionId ? liveSessions.get(arg.sessionId) : undefined) ?? vscode.debug.activeDebugSession;
      const expr = arg?.variable?.evaluateName ?? arg?.variable?.name;
      if (!session || !expr) {
        void vscode.window.showWarningMessage('dapscope: select a variable in a paused debug session.');
        return;
      }
      openPanel(context, session, expr);
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
      if (expr) openPanel(context, session, expr.trim());
    }),
    vscode.commands.registerCommand('dapscope.copyMcpConfig', async () => {
      const cfg = stdioMcpConfig(sidecarPath(context.extensionPath), workspaceRoot());
      await vscode.env.clipboard.writeText(JSON.stringify(cfg, null, 2));
      void vscode.window.showInformationMessage('dapscope: stdio MCP configuration copied to the clipboard.');
    }),
    vscode.commands.registerCommand('dapscope.copyMcpEndpoint', async () => {
      const c = await startClient(context);
      const ep = await c.sendRequest<{ url: string; token: string }>('dapscope/mcpEndpoint');
      await vscode.env.clipboard.writeText(JSON.stringify({ type: 'http', url: ep.url, headers: { Authorization: `Bearer ${ep.token}` } }));
      log.info(`MCP endpoint copied: ${ep.url}`);
      void vscode.window.showInformationMessage(`dapscope: MCP endpoint ${ep.url} copied (with its token).`);
    }),
    vscode.commands.registerCommand('dapscope.showOutput', () => log.show(true)),
    vscode.commands.registerCommand('dapscope.restartSidecar', async () => {
      const c = client;
      client = undefined;
      await c?.stop().catch(() => undefined);
      await startClient(context);
    }),
    vscode.debug.onDidStartDebugSession((s) => liveSessions.set(s.id, s)),
    vscode.debug.onDidTerminateDebugSession((s) => {
      liveSessions.delete(s.id);
      sidecarIds.delete(s.id);
      InspectPanel.onSessionEvent(s.id, 'terminated');
    }),
  );

  registerMcp(context, log, async () => {
    const c = await startClient(context);
    return c.sendRequest<{ url: string; token: string }>('dapscope/mcpEndpoint');
  });

  // Start the sidecar now when a Python or Go file is open (hover needs it).
  const lang = vscode.window.activeTextEditor?.document.languageId;
  if (lang === 'python' || lang === 'go' || vscode.debug.activeDebugSession) {
    void startClient(context).catch((e) => log.error(`could not start the sidecar: ${e}`));
  } else {
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.languageId === 'python' || d.languageId === 'go') {
        sub.dispose();
        void startClient(context).catch((e) => log.error(`could not start the sidecar: ${e}`));
      }
    });
    context.subscriptions.push(sub);
  }
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  await c?.stop();
}
