// The sidecar's lifecycle: `dapscope serve` run as a language client,
// started lazily (once, however many callers ask at the same time), logging
// to the dapscope output channel, restarted or stopped on demand; and the
// typed calls of the editor channel (protocol.ts) the extension makes.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { HOVER_LANGUAGES } from './adapter';
import { resolveSidecar, type Host } from './binary';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { BridgeEvent, DapRequestParams, InspectParams, McpEndpoint, PageParams, PageResult, SessionEvent, StartProxyResult } from './protocol';
import type { ProcessesParams, ProcessTable } from './processes';
import type { RayListParams, RayListResult } from './ray';
import type { InspectResult } from './types';

/** The host as resolveSidecar sees it: this machine's files and PATH. */
const thisHost: Host = {
  platform: process.platform,
  arch: process.arch,
  env: process.env,
  exists: (p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  },
  head: (p) => {
    let fd: number | undefined;
    try {
      fd = fs.openSync(p, 'r');
      const b = Buffer.alloc(4096);
      return b.subarray(0, fs.readSync(fd, b, 0, b.length, 0));
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
};

/**
 * The sidecar binary (binary.ts): the `dapscope.path` setting, else the one
 * bundled for this platform, else `dapscope` on PATH. Throws an error that
 * says what to install when none can run here.
 */
export function sidecarPath(extPath: string): string {
  const configured = vscode.workspace.getConfiguration('dapscope').get<string>('path');
  const r = resolveSidecar(configured, extPath, thisHost);
  if ('error' in r) throw new Error(r.error);
  if (r.source === 'bundled' && process.platform !== 'win32') {
    try {
      fs.accessSync(r.path, fs.constants.X_OK);
    } catch {
      fs.chmodSync(r.path, 0o755); // some unpackers drop the executable bit
    }
  }
  return r.path;
}

export function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** What the sidecar asks of the extension. */
export interface SidecarHandlers {
  onSessionEvent(ev: SessionEvent): void;
  onDapRequest(p: DapRequestParams): Promise<unknown>;
}

export class Sidecar {
  private client?: LanguageClient;
  private starting?: Promise<LanguageClient>;

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly handlers: SidecarHandlers,
  ) {}

  /** The running client, starting the sidecar on first use. */
  async start(): Promise<LanguageClient> {
    if (this.client) return this.client;
    if (this.starting) return this.starting;
    this.starting = this.launch();
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  /** Starts the sidecar in the background; failures go to the log. */
  startInBackground(what = 'could not start the sidecar'): void {
    void this.start().catch((e) => this.log.error(`${what}: ${e}`));
  }

  async restart(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.stop().catch(() => undefined);
    await this.start();
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.stop();
  }

  private async launch(): Promise<LanguageClient> {
    let bin: string;
    try {
      bin = sidecarPath(this.extensionPath);
    } catch (e) {
      // Said once per start attempt, where the user sees it.
      void vscode.window.showErrorMessage(String((e as Error).message ?? e));
      throw e;
    }
    const cfg = vscode.workspace.getConfiguration('dapscope');
    const args = ['serve', '--log-level', cfg.get<string>('sidecarLogLevel', 'info')];
    if (cfg.get<boolean>('trace.dap')) args.push('--trace-dap');
    // Smart values in VS Code's own hover, Watch and Variables views (a
    // launch configuration's "smartValues" overrides it per session).
    if (!cfg.get<boolean>('smartValues', true)) args.push('--smart-values=false');
    const root = workspaceRoot();
    if (root) args.push('--workspace', root);
    this.log.info(`starting sidecar: ${bin} ${args.join(' ')}`);
    const serverOptions: ServerOptions = { command: bin, args, options: { cwd: root } };
    const log = this.log;
    const clientOptions: LanguageClientOptions = {
      documentSelector: HOVER_LANGUAGES.map((language) => ({ scheme: 'file', language })),
      outputChannel: log,
      // The hover's "Open in dapscope" link runs this one command.
      markdown: { isTrusted: { enabledCommands: ['dapscope.inspectExpression'] } },
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
    c.onNotification('dapscope/sessionEvent', (ev: SessionEvent) => this.handlers.onSessionEvent(ev));
    c.onRequest('dapscope/dapRequest', (p: DapRequestParams) => this.handlers.onDapRequest(p));
    await c.start();
    this.client = c;
    log.info('sidecar started');
    return c;
  }

  // ------------------------------------------------------------ channel calls

  async startProxy(configuration: vscode.DebugConfiguration, vscodeSessionId: string): Promise<StartProxyResult> {
    const c = await this.start();
    return c.sendRequest<StartProxyResult>('dapscope/startProxy', { configuration, vscodeSessionId });
  }

  async inspect(params: InspectParams): Promise<InspectResult> {
    const c = await this.start();
    return c.sendRequest<InspectResult>('dapscope/inspect', params);
  }

  async inspectProcesses(params: ProcessesParams): Promise<ProcessTable> {
    const c = await this.start();
    return c.sendRequest<ProcessTable>('dapscope/inspectProcesses', params);
  }

  async rayList(params: RayListParams): Promise<RayListResult> {
    const c = await this.start();
    return c.sendRequest<RayListResult>('dapscope/rayList', params);
  }

  async page(params: PageParams): Promise<PageResult> {
    const c = await this.start();
    return c.sendRequest<PageResult>('dapscope/page', params);
  }

  async mcpEndpoint(): Promise<McpEndpoint> {
    const c = await this.start();
    return c.sendRequest<McpEndpoint>('dapscope/mcpEndpoint');
  }

  /** Tells a running sidecar about a tracked session (never starts it). */
  bridgeEvent(ev: BridgeEvent): void {
    void this.client?.sendNotification('dapscope/bridgeEvent', ev).catch((e) => this.log.warn(`bridge event: ${e}`));
  }
}
