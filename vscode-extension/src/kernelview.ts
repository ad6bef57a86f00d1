// The "dapscope: Kernel variables" view (Explorer): the running Jupyter
// kernels the sidecar finds, each expanded into its user variables with the
// probe's one-line summaries (kerneltree.ts holds the model); a variable
// opens the inspection panel with the data viewer on that kernel session.
// It refreshes a kernel when its cell finishes (the session's "stopped"),
// shows a busy kernel's cell and for how long (a one-second tick while the
// view is visible), lists again every dapscope.kernels.refreshSeconds, and
// selects the active notebook's kernel when VS Code's Jupyter extension
// runs it (notebookkernel.ts). Failures are items and log lines, never
// dialogs.

import type { Kernel as JupyterKernel } from '@vscode/jupyter-extension';
import * as vscode from 'vscode';
import { openInspection } from './commands';
import { isInspectable } from './expression';
import { busyText, kernelDescription, kernelLabel, kernelTooltip, variableDescription, variableIcon, variableTooltip } from './kernelformat';
import { KernelTree, type KernelCalls, type KernelNode, type Node } from './kerneltree';
import { resolveVariable, VIEWER_COMMAND } from './jupyterviewer';
import { Coincidences, JupyterLink, mapNotebook, procAncestors, type NotebookFacts } from './notebookkernel';
import { kernelOwner } from './panel';
import type { KernelAttachParams, KernelAttachResult, Kernel as KernelInfo, KernelsResult, KernelVariablesResult, SessionEvent } from './protocol';
import type { ExtensionState } from './state';

export const VIEW_ID = 'dapscope.kernels';

/** The editor-channel calls of the view, through the sidecar's language client. */
function sidecarCalls(state: ExtensionState): KernelCalls {
  return {
    async list() {
      const c = await state.sidecar.start();
      return c.sendRequest<KernelsResult>('dapscope/kernels', {});
    },
    async attach(k: KernelInfo) {
      const c = await state.sidecar.start();
      const params: KernelAttachParams = k.connection_file ? { connectionFile: k.connection_file } : k.server ? { serverUrl: k.server, kernelId: k.id } : { kernel: k.id };
      return c.sendRequest<KernelAttachResult>('dapscope/kernelAttach', params);
    },
    async variables(sessionId: string, all: boolean) {
      const c = await state.sidecar.start();
      return c.sendRequest<KernelVariablesResult>('dapscope/kernelVariables', { sessionId, all });
    },
  };
}

function notebookFacts(nb: vscode.NotebookDocument): NotebookFacts {
  return {
    uri: nb.uri.toString(),
    fsPath: nb.uri.scheme === 'file' ? nb.uri.fsPath : undefined,
    cells: nb.getCells().map((c) => ({ text: c.document.getText(), executionOrder: c.executionSummary?.executionOrder })),
  };
}

export class KernelView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly tree: KernelTree;
  private readonly view: vscode.TreeView<Node>;
  private readonly jupyter: JupyterLink;
  private readonly coincidences = new Coincidences();
  private readonly subs: vscode.Disposable[] = [];
  private tick?: ReturnType<typeof setInterval>;
  private relist?: ReturnType<typeof setInterval>;
  private watched?: { uri: string; sub: vscode.Disposable };
  private mapping?: Promise<void>;
  private revealed?: string;
  private shown = false;
  private tickAt = 0;
  private lastMapLog?: string;

  constructor(private readonly state: ExtensionState) {
    const log = (m: string) => state.log.info(m);
    this.tree = new KernelTree(sidecarCalls(state), log);
    this.jupyter = new JupyterLink(vscode.extensions, log);
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.subs.push(
      this.view,
      this.changed,
      this.view.onDidChangeVisibility(() => this.visibilityChanged()),
      state.sessionEvents.event((ev) => this.sessionEvent(ev)),
      vscode.window.onDidChangeActiveNotebookEditor(() => void this.mapActiveNotebook()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('dapscope.kernels') && this.visibilityChanged()),
      vscode.commands.registerCommand('dapscope.showKernels', () => vscode.commands.executeCommand(`${VIEW_ID}.focus`)),
      vscode.commands.registerCommand('dapscope.kernels.refresh', () => this.refresh()),
      vscode.commands.registerCommand('dapscope.kernels.showAll', () => this.setAll(true)),
      vscode.commands.registerCommand('dapscope.kernels.showUser', () => this.setAll(false)),
      vscode.commands.registerCommand('dapscope.kernels.open', (n?: Node) => this.open(n)),
      vscode.commands.registerCommand('dapscope.kernels.inspectExpression', (n?: Node) => this.inspectExpression(n)),
      vscode.commands.registerCommand(VIEWER_COMMAND, (v?: unknown) => this.openJupyterVariable(v)),
    );
    void vscode.commands.executeCommand('setContext', 'dapscope.kernels.all', false);
    this.visibilityChanged();
  }

  dispose(): void {
    this.stopTimers();
    this.watched?.sub.dispose();
    for (const s of this.subs) s.dispose();
  }

  // ------------------------------------------------------------ tree data

  getTreeItem(n: Node): vscode.TreeItem {
    // One clock per tick: a kernel's line and its busy child say the same seconds.
    const now = Date.now() - this.tickAt < 900 ? this.tickAt : Date.now();
    if (n.kind === 'kernel') {
      const label = n.notebook ? `${kernelLabel(n.info)} (${n.notebook})` : kernelLabel(n.info);
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `kernel\u0000${n.key}`;
      item.description = kernelDescription(n.info, now, n.busy, n.after);
      item.tooltip = new vscode.MarkdownString(kernelTooltip(n.info, n.notebook ? `the kernel of ${n.notebook}` : undefined));
      const busy = n.busy !== undefined || n.info.state === 'busy';
      item.iconPath = new vscode.ThemeIcon(
        ['dead', 'refused', 'not answering'].includes(n.info.state) ? 'error' : busy ? 'loading~spin' : 'notebook-kernel-select',
      );
      item.contextValue = 'dapscope.kernel';
      return item;
    }
    if (n.kind === 'variable') {
      const item = new vscode.TreeItem(n.v.name, vscode.TreeItemCollapsibleState.None);
      item.id = `var\u0000${n.parent.key}\u0000${n.v.name}`;
      item.description = variableDescription(n.v, n.changed);
      item.tooltip = new vscode.MarkdownString(variableTooltip(n.v, n.changed));
      item.iconPath = new vscode.ThemeIcon(variableIcon(n.v));
      item.contextValue = 'dapscope.kernelVariable';
      item.command = { command: 'dapscope.kernels.open', title: 'Open in the data viewer', arguments: [n] };
      return item;
    }
    const text = n.severity === 'busy' && n.parent?.busy ? busyText(n.parent.busy, now) : n.text;
    const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.None);
    item.tooltip = n.detail ? `${text}\n\n${n.detail}` : text;
    item.iconPath = new vscode.ThemeIcon(n.severity === 'error' ? 'warning' : n.severity === 'busy' ? 'watch' : 'info');
    item.contextValue = `dapscope.kernelMessage.${n.severity}`;
    return item;
  }

  async getChildren(n?: Node): Promise<Node[]> {
    try {
      if (!n) {
        const roots = await this.tree.roots();
        this.updateTimers();
        void this.mapActiveNotebook();
        return roots;
      }
      if (n.kind === 'kernel') {
        const wasBusy = n.busy !== undefined;
        const kids = await this.tree.children(n);
        this.updateTimers();
        // The variables call may have found the kernel busy (or idle again): redraw its line.
        if (wasBusy !== (n.busy !== undefined)) this.changed.fire(n);
        return kids;
      }
    } catch (e) {
      this.state.log.warn(`kernels view: ${(e as Error).message}`);
      return [{ kind: 'message', severity: 'error', text: (e as Error).message }];
    }
    return [];
  }

  getParent(n: Node): Node | undefined {
    return n.kind === 'kernel' ? undefined : n.parent;
  }

  // ------------------------------------------------------------ actions

  private refresh(): void {
    this.tree.invalidate();
    this.changed.fire(undefined);
  }

  private setAll(all: boolean): void {
    this.tree.all = all;
    void vscode.commands.executeCommand('setContext', 'dapscope.kernels.all', all);
    for (const n of this.tree.kernels()) n.stale = true;
    this.changed.fire(undefined);
  }

  private open(n?: Node): void {
    if (n?.kind !== 'variable' || !n.parent.sessionId) {
      this.state.log.warn('kernels view: open needs a variable of an attached kernel');
      return;
    }
    const k = n.parent;
    openInspection(this.state, {
      vscodeSessionId: kernelOwner(k.sessionId!),
      sessionId: k.sessionId,
      sessionName: `kernel ${kernelLabel(k.info)}`,
      expression: n.v.name,
    });
  }

  /** The Jupyter extension's "Show in Data Viewer" (jupyterviewer.ts): never throws, a failure is a message. */
  private async openJupyterVariable(arg: unknown): Promise<void> {
    const out = await resolveVariable(arg, {
      access: (uri) => this.jupyter.access(vscode.Uri.parse(uri)),
      notebook: (uri) => {
        const want = uri ? vscode.Uri.parse(uri).toString() : undefined;
        const nb = want ? vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === want) : vscode.window.activeNotebookEditor?.notebook;
        return nb && notebookFacts(nb);
      },
      kernels: async () => {
        this.tree.relist();
        await this.tree.roots();
        return this.tree.kernels().map((n) => n.info);
      },
      learned: (uri) => this.coincidences.kernelOf(uri),
      proc: { hostPid: process.pid, ancestors: (pid) => procAncestors(pid) },
      attach: async (k) => {
        const n = this.tree.byId(k.id);
        if (!n) return { failure: 'it is no longer listed' };
        if (!n.sessionId) await this.tree.load(n);
        this.changed.fire(n);
        return n.sessionId ? { sessionId: n.sessionId } : { failure: n.failure?.message };
      },
    });
    if (out.kind === 'message') {
      this.state.log.info(`jupyter variable viewer: ${out.text}`);
      void vscode.window.showInformationMessage(out.text);
      return;
    }
    for (const note of out.notes) this.state.log.info(`jupyter variable viewer: ${note}`);
    openInspection(this.state, { vscodeSessionId: kernelOwner(out.sessionId), sessionId: out.sessionId, sessionName: `kernel ${kernelLabel(out.kernel)}`, expression: out.expression });
  }

  private async inspectExpression(n?: Node): Promise<void> {
    const k = n?.kind === 'kernel' ? n : n?.parent;
    if (!k) return;
    if (!k.sessionId) await this.tree.load(k);
    if (!k.sessionId) {
      this.changed.fire(k);
      return;
    }
    const expr = await vscode.window.showInputBox({
      title: `dapscope: Inspect in kernel ${kernelLabel(k.info)}`,
      prompt: 'A name with attributes and subscripts, e.g. df, model.layers[0], data["train"]',
      validateInput: (v) => (isInspectable(v) ? undefined : 'Use a name with attributes and subscripts (int or string literals).'),
    });
    if (!expr) return;
    openInspection(this.state, { vscodeSessionId: kernelOwner(k.sessionId), sessionId: k.sessionId, sessionName: `kernel ${kernelLabel(k.info)}`, expression: expr.trim() });
  }

  private sessionEvent(ev: SessionEvent): void {
    if (ev.vscodeSessionId) return;
    const n = this.tree.bySession(ev.sessionId);
    const what = this.tree.onSessionEvent(ev.sessionId, ev.kind, ev.stop);
    if (!what) return;
    this.state.log.debug(`kernels view: ${ev.kind} on kernel session ${ev.sessionId}`);
    if (ev.kind === 'stopped' && n) {
      const uri = this.coincidences.kernelFinished(n.info.id, Date.now());
      if (uri) void this.mapActiveNotebook();
    }
    // A cell started: ask at once (the sidecar answers from its state, sending nothing to the
    // kernel) which cell, so a collapsed kernel's line names it too.
    if (ev.kind === 'continued' && n) void this.tree.load(n).then(() => this.changed.fire(n));
    this.changed.fire(what === 'all' ? undefined : what);
    this.updateTimers();
  }

  // ------------------------------------------------------------ timers

  private visibilityChanged(): void {
    this.stopTimers();
    if (!this.view.visible) return;
    if (this.shown) this.refreshListing(); // shown again: what ran meanwhile
    this.shown = true;
    const secs = vscode.workspace.getConfiguration('dapscope').get<number>('kernels.refreshSeconds', 15);
    if (secs > 0) this.relist = setInterval(() => this.refreshListing(), secs * 1000);
    this.updateTimers();
  }

  /** Lists again without dropping what is cached: new kernels appear, gone ones leave. */
  private refreshListing(): void {
    this.tree.relist();
    this.changed.fire(undefined);
  }

  private updateTimers(): void {
    const busy = this.tree.busyKernels().length > 0;
    if (busy && this.view.visible && !this.tick) {
      this.tick = setInterval(() => {
        const b = this.tree.busyKernels();
        if (b.length === 0 || !this.view.visible) {
          clearInterval(this.tick);
          this.tick = undefined;
          return;
        }
        this.tickAt = Date.now();
        for (const n of b) this.changed.fire(n);
      }, 1000);
    }
  }

  private stopTimers(): void {
    if (this.tick) clearInterval(this.tick);
    if (this.relist) clearInterval(this.relist);
    this.tick = this.relist = undefined;
  }

  // ------------------------------------------------------------ the active notebook

  /** Maps the active notebook to its kernel through the Jupyter extension's API, if it is there. */
  private mapActiveNotebook(): Promise<void> {
    this.mapping ??= this.mapNow().finally(() => (this.mapping = undefined));
    return this.mapping;
  }

  private async mapNow(): Promise<void> {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    if (!nb || !this.view.visible || !this.jupyter.installed()) return;
    const a = await this.jupyter.access(nb.uri);
    const jk = a.state === 'granted' ? a : undefined;
    const facts = notebookFacts(nb);
    const name = facts.fsPath ? facts.fsPath.split(/[\\/]/).pop()! : nb.uri.path;
    let message: string;
    let kernelId: string | undefined;
    if (!jk) {
      message = a.state === 'none' ? `${name}: the Jupyter extension has no kernel for it yet (run a cell).` : `${name}: ${a.state === 'refused' || a.state === 'unavailable' ? a.message : ''}.`;
    } else {
      this.watchStatus(facts.uri, jk.kernel);
      const kernels = this.tree.kernels().map((n) => n.info);
      const m = mapNotebook(facts, jk.facts, kernels, { hostPid: process.pid, ancestors: (pid) => procAncestors(pid) }, this.coincidences.kernelOf(facts.uri));
      kernelId = m.kernel?.id;
      message = m.kernel ? `${name} runs on kernel ${m.kernel.id} (${m.confidence}).` : `${name}: ${m.reason}.`;
      const line = `jupyter: ${name} → ${kernelId ?? '?'} (${m.confidence}: ${m.reason})`;
      if (line !== this.lastMapLog) this.state.log.info(line);
      this.lastMapLog = line;
    }
    this.view.message = message;
    // Redraw only the kernels whose label changes (a root refresh maps again).
    for (const n of this.tree.kernels()) {
      const want = n.info.id === kernelId ? name : n.notebook === name ? undefined : n.notebook;
      if (want !== n.notebook) {
        n.notebook = want;
        this.changed.fire(n);
      }
    }
    const node = kernelId ? this.tree.byId(kernelId) : undefined;
    const key = `${facts.uri}\u0000${kernelId ?? ''}`;
    if (node && key !== this.revealed) {
      this.revealed = key;
      await this.view.reveal(node, { select: true, focus: false, expand: false }).then(undefined, (e: Error) => this.state.log.debug(`reveal: ${e.message}`));
    }
  }

  /** Follows the API kernel's status: a notebook going idle is one side of a coincidence. */
  private watchStatus(uri: string, jk: JupyterKernel): void {
    if (this.watched?.uri === uri) return;
    this.watched?.sub.dispose();
    this.watched = undefined;
    try {
      const sub = jk.onDidChangeStatus((s) => {
        if (s !== 'idle') return;
        if (this.coincidences.notebookIdle(uri, Date.now())) void this.mapActiveNotebook();
      });
      this.watched = { uri, sub };
    } catch (e) {
      this.state.log.info(`jupyter: cannot follow the notebook kernel's status: ${(e as Error).message}`);
    }
  }
}
