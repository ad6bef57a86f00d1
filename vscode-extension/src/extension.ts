// Extension entry point: wires the pieces together on activation — the
// state (state.ts: output channel, sidecar, bridge, sessions), the
// "Compare across processes" command and panel (processpanel.ts),
// "Attach to Paused Ray Tasks" (raycommand.ts) and the Run and Debug view's
// "Ray: paused tasks" section (rayview.ts), the
// `dapscope` debug type and its proxy factory (debug.ts), the tracker on
// every session (tracker.ts), the commands (commands.ts), the MCP server
// definition provider (mcp.ts), the Kernel variables view (kernelview.ts) —
// and starts the sidecar (sidecar.ts) once a Python, Go or JavaScript file,
// a debug session or the Kernel variables view needs it.

import * as vscode from 'vscode';
import { HOVER_LANGUAGES } from './adapter';
import { registerCommands } from './commands';
import { ConfigurationProvider, DescriptorFactory } from './debug';
import { KernelView } from './kernelview';
import { registerMcp } from './mcp';
import { registerProcesses } from './processpanel';
import { registerRay } from './raycommand';
import { RayView } from './rayview';
import { ExtensionState } from './state';
import { TrackerFactory } from './tracker';

/** The activated extension's state; deactivate stops its sidecar. */
let active: ExtensionState | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('dapscope', { log: true });
  context.subscriptions.push(log);
  log.info(`dapscope ${context.extension.packageJSON.version} activating (VS Code ${vscode.version})`);
  const state = new ExtensionState(context, log);
  active = state;

  context.subscriptions.push(
    vscode.debug.registerDebugConfigurationProvider('dapscope', new ConfigurationProvider()),
    vscode.debug.registerDebugAdapterDescriptorFactory('dapscope', new DescriptorFactory(state.sidecar, log)),
    vscode.debug.registerDebugAdapterTrackerFactory('*', new TrackerFactory(state)),
    ...registerCommands(state),
    ...registerProcesses(state),
    ...registerRay(state),
    new RayView(state),
    vscode.debug.onDidStartDebugSession((s) => state.sessionStarted(s)),
    vscode.debug.onDidTerminateDebugSession((s) => state.sessionEnded(s)),
    state.sessionEvents,
    new KernelView(state),
  );
  registerMcp(context, log, () => state.sidecar.mcpEndpoint());

  // Start the sidecar now when a Python, Go or JavaScript file is open (hover needs it).
  const lang = vscode.window.activeTextEditor?.document.languageId;
  if ((lang && HOVER_LANGUAGES.includes(lang)) || vscode.debug.activeDebugSession) {
    state.sidecar.startInBackground();
  } else {
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (HOVER_LANGUAGES.includes(d.languageId)) {
        sub.dispose();
        state.sidecar.startInBackground();
      }
    });
    context.subscriptions.push(sub);
  }
}

export async function deactivate(): Promise<void> {
  const state = active;
  active = undefined;
  await state?.sidecar.stop();
}
