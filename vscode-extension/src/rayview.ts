// The "Ray: paused tasks" section of the Run and Debug view: a tree of the
// Ray cluster's tasks paused in Ray's debugger (its model, items and
// refresh policy are raytree.ts), listed through the sidecar
// (dapscope/rayList) every dapscope.ray.refreshSeconds while the section is
// visible and never while hidden; Refresh in its title; Attach inline on
// each task (raycommand.ts's startRaySession, under the oldest Ray session
// of this window); a task attached here is marked until its session ends.

import * as vscode from 'vscode';
import { startRaySession, rayParams } from './raycommand';
import type { RayTask } from './ray';
import { RayPoller, RayTreeModel, type RayNode } from './raytree';
import type { ExtensionState } from './state';

const VIEW_ID = 'dapscope.rayTasks';

export class RayView implements vscode.TreeDataProvider<RayNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RayNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly model: RayTreeModel<vscode.DebugSession>;
  private readonly poller: RayPoller;
  private readonly view: vscode.TreeView<RayNode>;
  /** This window's live Ray sessions by worker, oldest first. */
  private readonly sessions = new Map<string, vscode.DebugSession>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly state: ExtensionState) {
    this.model = new RayTreeModel<vscode.DebugSession>({
      list: async (p) => {
        await state.sidecar.start();
        return state.sidecar.rayList(p);
      },
      params: () => rayParams(),
      sessions: () => this.sessions,
      changed: () => this.changed.fire(undefined),
      attach: startRaySession,
      error: (m) => void vscode.window.showErrorMessage(m),
    });
    this.poller = new RayPoller(() => void this.model.refresh(), () => this.model.tick(), { setInterval, clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>) });
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this });
    this.subs.push(
      this.view,
      this.changed,
      this.view.onDidChangeVisibility(() => this.updatePolling()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('dapscope.ray') && this.updatePolling()),
      vscode.debug.onDidStartDebugSession((s) => {
        const w = s.configuration.rayWorker;
        if (typeof w === 'string' && !this.sessions.has(w)) {
          this.sessions.set(w, s);
          this.model.remark();
        }
      }),
      vscode.debug.onDidTerminateDebugSession((s) => {
        const w = s.configuration.rayWorker;
        if (typeof w === 'string' && this.sessions.get(w) === s) {
          this.sessions.delete(w);
          this.model.remark();
        }
      }),
      vscode.commands.registerCommand('dapscope.ray.refresh', () => this.model.refresh()),
      vscode.commands.registerCommand('dapscope.ray.attachTask', (n?: RayNode) => this.attach(n)),
    );
    this.updatePolling();
  }

  dispose(): void {
    this.poller.stop();
    for (const s of this.subs) s.dispose();
  }

  getTreeItem(n: RayNode): vscode.TreeItem {
    const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.None);
    item.id = n.key;
    item.tooltip = n.tooltip;
    if (n.kind === 'message') {
      item.iconPath = new vscode.ThemeIcon('info');
      if (n.key === 'error') item.command = { command: 'workbench.action.openSettings', title: 'Open Settings', arguments: ['dapscope.ray'] };
      return item;
    }
    item.description = n.description;
    item.iconPath = new vscode.ThemeIcon(n.attached ? 'debug-alt' : n.task.note ? 'warning' : 'debug-pause');
    item.contextValue = n.attached === 'here' ? 'dapscope.rayTaskAttached' : n.task.note ? 'dapscope.rayTaskFar' : 'dapscope.rayTask';
    return item;
  }

  getChildren(n?: RayNode): RayNode[] {
    return n ? [] : this.model.nodes;
  }

  private updatePolling(): void {
    const secs = vscode.workspace.getConfiguration('dapscope.ray').get<number>('refreshSeconds', 5);
    this.poller.update(this.view.visible, secs);
  }

  private async attach(n?: RayNode): Promise<void> {
    if (n?.kind !== 'task') return;
    const t: RayTask = n.task;
    const out = await this.model.attach(t);
    this.state.log.info(`Ray view: ${out.attached.length ? `attached worker ${t.worker_id} (pid ${t.pid})` : `not attached: ${out.skipped.join('; ')}`}`);
  }
}
