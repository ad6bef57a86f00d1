// "dapscope: Attach to Paused Ray Tasks": lists the tasks of a Ray cluster
// paused in Ray's debugger (dapscope/rayList; the cluster's dashboard from
// the command's argument, the dapscope.ray.address setting, else Ray's
// default), a QuickPick of them, and each picked task attached as a
// `dapscope` debug session (debugpy at the task's listen address, through
// the sidecar's proxy and its host rules), under this window's oldest Ray
// session when there is one (as the view attaches: one tree to compare). The model is ray.ts; the Run and
// Debug view's "Ray: paused tasks" section (rayview.ts) attaches through
// the same startRaySession.

import * as vscode from 'vscode';
import { attachPausedTasks, type RayListParams } from './ray';
import type { ExtensionState } from './state';

/** The settings' cluster, an argument's fields first. */
export function rayParams(arg?: RayListParams): RayListParams {
  const cfg = vscode.workspace.getConfiguration('dapscope.ray');
  return {
    address: arg?.address ?? (cfg.get<string>('address') || undefined),
    tokenFile: arg?.tokenFile ?? (cfg.get<string>('tokenFile') || undefined),
  };
}

/** Starts a task's attach session (a child of parent when given); the session, or undefined when it did not start. */
export async function startRaySession(configuration: Record<string, unknown> & { name: string }, parent?: vscode.DebugSession): Promise<vscode.DebugSession | undefined> {
  let started: vscode.DebugSession | undefined;
  const sub = vscode.debug.onDidStartDebugSession((s) => {
    if (s.configuration.rayWorker === configuration.rayWorker) started = s;
  });
  try {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const ok = await vscode.debug.startDebugging(folder, configuration as vscode.DebugConfiguration, parent ? { parentSession: parent, lifecycleManagedByParent: false, compact: false } : undefined);
    return ok ? started : undefined;
  } finally {
    sub.dispose();
  }
}

/** The oldest live Ray task session (sessions in the order they started): the root the picks join. */
function oldestRaySession(live: Iterable<vscode.DebugSession>): vscode.DebugSession | undefined {
  for (const s of live) if (typeof s.configuration.rayWorker === 'string') return s;
  return undefined;
}

export function registerRay(state: ExtensionState): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('dapscope.attachRayTasks', async (arg?: RayListParams) => {
      const out = await attachPausedTasks<vscode.DebugSession>(
        {
          list: async (p) => {
            await state.sidecar.start();
            return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'dapscope: listing paused Ray tasks' }, () => state.sidecar.rayList(p));
          },
          pick: async (items, placeholder) => vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: placeholder, matchOnDescription: true, matchOnDetail: true }),
          attach: startRaySession,
          info: (m) => void vscode.window.showInformationMessage(m),
          error: (m) => void vscode.window.showErrorMessage(m),
        },
        rayParams(arg),
        oldestRaySession(state.liveSessions.values()),
      );
      state.log.info(`attached ${out.attached.length} paused Ray task(s)${out.skipped.length ? `; not attached: ${out.skipped.join('; ')}` : ''}`);
      return out.attached.length;
    }),
  ];
}
