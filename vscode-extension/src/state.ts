// The extension's one piece of state, passed explicitly to the tracker and
// the commands: the output channel, the sidecar, the bridge for other debug
// types, the live debug sessions and the sidecar session id of each
// `dapscope` session; the sidecar's session events, for the Kernel variables
// view and the panels on kernel values.

import * as vscode from 'vscode';
import { Bridge } from './bridge';
import { InspectPanel, kernelOwner } from './panel';
import { ProcessesPanel } from './processpanel';
import type { BridgeEvent, SessionEvent } from './protocol';
import { Sidecar } from './sidecar';

export class ExtensionState {
  readonly sidecar: Sidecar;
  readonly bridge: Bridge;
  /** VS Code session id → the sidecar's session id (asked with the custom DAP request dapscope/session). */
  readonly sidecarIds = new Map<string, string>();
  /** Live debug sessions by id (the Variables view's context names its session by id). */
  readonly liveSessions = new Map<string, vscode.DebugSession>();
  /** Every session event of the sidecar (kernel sessions: "continued" a cell started, "stopped" it finished). */
  readonly sessionEvents = new vscode.EventEmitter<SessionEvent>();

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.bridge = new Bridge(
      (ev: BridgeEvent) => {
        if (ev.kind === 'stopped' || ev.kind === 'terminated') InspectPanel.onSessionEvent(ev.vscodeSessionId, ev.kind);
        if (ev.kind === 'stopped') ProcessesPanel.onSessionEvent(ev.vscodeSessionId, ev.kind);
        this.sidecar.bridgeEvent(ev);
      },
      // The bridge's timings belong to the DAP trace: at info level while it is on.
      (m) => (vscode.workspace.getConfiguration('dapscope').get<boolean>('trace.dap') === true ? log.info(m) : log.debug(m)),
      // js-debug's CDP proxy for a session: the sidecar's probe evaluates go
      // straight to V8 instead of through the workbench (server/bridge/cdp.go).
      (id) => vscode.commands.executeCommand('extension.js-debug.requestCDPProxy', id),
    );
    this.sidecar = new Sidecar(context.extensionPath, log, {
      onSessionEvent: (ev) => {
        log.debug(`session event ${ev.kind} ${ev.sessionId} (vscode ${ev.vscodeSessionId ?? '-'})`);
        // Panels of dapscope sessions refresh from the tracker (the editor's own
        // view of stops); here only the end of a sidecar session matters.
        if (ev.vscodeSessionId && ev.kind === 'terminated') InspectPanel.onSessionEvent(ev.vscodeSessionId, ev.kind);
        // A session of no editor debug session (a kernel's): its panels follow it.
        if (!ev.vscodeSessionId) InspectPanel.onSessionEvent(kernelOwner(ev.sessionId), ev.kind);
        this.sessionEvents.fire(ev);
      },
      onDapRequest: (p) => this.bridge.request(p),
    });
  }

  /** Learns (once) which sidecar session a `dapscope` debug session is. */
  async learnSidecarId(session: vscode.DebugSession): Promise<void> {
    if (this.sidecarIds.has(session.id)) return;
    try {
      const info = (await session.customRequest('dapscope/session')) as { id?: string };
      if (info?.id) {
        this.sidecarIds.set(session.id, info.id);
        this.log.info(`debug session "${session.name}" is sidecar session ${info.id}`);
      }
    } catch (e) {
      this.log.debug(`dapscope/session: ${(e as Error).message}`);
    }
  }

  sessionStarted(s: vscode.DebugSession): void {
    this.liveSessions.set(s.id, s);
  }

  sessionEnded(s: vscode.DebugSession): void {
    this.liveSessions.delete(s.id);
    this.sidecarIds.delete(s.id);
    InspectPanel.onSessionEvent(s.id, 'terminated');
  }
}
