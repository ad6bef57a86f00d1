// The DebugAdapterTracker on every debug session: DAP trace logging
// (`dapscope.trace.dap`), the bridge for other debug types and dapscope
// child sessions, panel refresh on the stops of `dapscope` sessions, and
// debugpy's `debugpyAttach` subprocesses started as child sessions.

import * as vscode from 'vscode';
import { childConfiguration } from './bridge';
import { InspectPanel } from './panel';
import { ProcessesPanel } from './processpanel';
import type { ExtensionState } from './state';
import { traceText } from './trace';

type BridgeTracker = NonNullable<ReturnType<ExtensionState['bridge']['tracker']>>;

interface DapMessage {
  type?: string;
  event?: string;
  body?: Record<string, unknown>;
}

export class TrackerFactory implements vscode.DebugAdapterTrackerFactory {
  constructor(private readonly state: ExtensionState) {}

  createDebugAdapterTracker(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterTracker> {
    const trace = vscode.workspace.getConfiguration('dapscope').get<boolean>('trace.dap') === true;
    const bridged = this.state.bridge.tracker(session);
    if (bridged) this.state.sidecar.startInBackground('sidecar');
    const own = session.type === 'dapscope';
    if (!trace && !own) return bridged;
    return new SessionTracker(this.state, session, trace, own, bridged);
  }
}

/** One session's tracker: each concern is a method, called in order. */
export class SessionTracker implements vscode.DebugAdapterTracker {
  constructor(
    private readonly state: ExtensionState,
    private readonly session: vscode.DebugSession,
    private readonly trace: boolean,
    private readonly own: boolean,
    private readonly bridged: BridgeTracker | undefined,
  ) {}

  onWillReceiveMessage(m: unknown): void {
    this.traceMessage('→', m);
    this.bridged?.onWillReceiveMessage(m);
  }

  onDidSendMessage(m: unknown): void {
    this.traceMessage('←', m);
    this.bridged?.onDidSendMessage(m);
    const msg = m as DapMessage;
    // Child sessions (bridged) refresh their panels through the bridge.
    if (this.own && !this.bridged && msg?.type === 'event') this.ownEvent(msg);
  }

  onExit(): void {
    this.bridged?.onExit();
  }

  onWillStopSession(): void {
    this.bridged?.onWillStopSession();
  }

  /** Logs a DAP message when `dapscope.trace.dap` is on (its first TRACE_CHARS characters: a probe's source or a big answer would make every line of the log huge and the extension host slow). */
  private traceMessage(direction: '→' | '←', m: unknown): void {
    if (this.trace) this.state.log.info(`dap [${this.session.type}] ${direction} ${traceText(m)}`);
  }

  /** An event of a (proxied) `dapscope` session: refresh panels, start subprocess sessions. */
  private ownEvent(msg: DapMessage): void {
    if (msg.event === 'stopped') {
      void this.state.learnSidecarId(this.session).finally(() => {
        InspectPanel.onSessionEvent(this.session.id, 'stopped');
        ProcessesPanel.onSessionEvent(this.session.id, 'stopped');
      });
    } else if (msg.event === 'continued') {
      InspectPanel.onSessionEvent(this.session.id, 'continued');
    } else if (msg.event === 'debugpyAttach' && msg.body) {
      this.startChild(msg.body);
    }
  }

  /** debugpy < 1.8 announces a subprocess with `debugpyAttach`: debug it as a child session. */
  private startChild(body: Record<string, unknown>): void {
    const child = childConfiguration(body, this.session.type);
    if (!child) return;
    this.state.log.info(`debugpy subprocess ${String(child.subProcessId)}: starting a child session`);
    void vscode.debug.startDebugging(this.session.workspaceFolder, child as vscode.DebugConfiguration, {
      parentSession: this.session,
      lifecycleManagedByParent: true,
      consoleMode: vscode.DebugConsoleMode.MergeWithParent,
    });
  }
}

