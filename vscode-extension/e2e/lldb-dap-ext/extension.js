// Test only (dapscope's e2e): the debug type `lldb-dap` as LLVM's own VS
// Code extension contributes it — VS Code starts the lldb-dap binary over
// stdio (a DebugAdapterExecutable) and hands it each launch configuration
// as it is (program, args, cwd, env, stopOnEntry, initCommands…). The
// binary is the setting `lldb-dap.executable-path`, else `lldb-dap` on
// PATH. VS Code itself talks to lldb-dap; dapscope reaches the session
// only through its bridge (a debug adapter tracker and customRequest),
// exactly as with the real extension.
'use strict';
const vscode = require('vscode');

function activate(context) {
  const out = vscode.window.createOutputChannel('lldb-dap (e2e)');
  context.subscriptions.push(
    out,
    vscode.debug.registerDebugAdapterDescriptorFactory('lldb-dap', {
      createDebugAdapterDescriptor(session) {
        const configured = vscode.workspace.getConfiguration('lldb-dap').get('executable-path');
        const exe = typeof configured === 'string' && configured !== '' ? configured : 'lldb-dap';
        out.appendLine(`${session.name}: starting ${exe}`);
        return new vscode.DebugAdapterExecutable(exe, []);
      },
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
