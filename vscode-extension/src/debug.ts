// The `dapscope` debug type: configuration defaults (`${file}`, adapter by
// language) and the DebugAdapterDescriptorFactory that asks the sidecar for a
// proxy (`dapscope/startProxy`) and hands its loopback address to VS Code.
// Pure helpers live in config.ts.

import * as vscode from 'vscode';
import { parseAddress, withDefaults } from './config';
import type { StartProxyResult } from './protocol';

export class ConfigurationProvider implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
    const lang = vscode.window.activeTextEditor?.document.languageId;
    if (!config.type && !config.request && !config.name && lang !== 'python' && lang !== 'go') {
      void vscode.window.showErrorMessage('dapscope: open a Python or Go file to debug it, or add a launch configuration of type "dapscope".');
      return undefined;
    }
    return withDefaults(config, lang) as vscode.DebugConfiguration;
  }

  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [
      { type: 'dapscope', request: 'launch', name: 'dapscope: Python file', adapter: 'debugpy', program: '${file}', console: 'internalConsole' },
    ];
  }
}

export interface ProxyStarter {
  startProxy(configuration: vscode.DebugConfiguration, vscodeSessionId: string): Promise<StartProxyResult>;
}

export class DescriptorFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private starter: ProxyStarter, private log: vscode.LogOutputChannel) {}

  async createDebugAdapterDescriptor(session: vscode.DebugSession): Promise<vscode.DebugAdapterDescriptor> {
    const cfg = session.configuration;
    // A debugpy child session (subProcessId + connect) goes through the
    // sidecar too: it dials debugpy's adapter, which waits for the child,
    // so the subprocess gets the same fast wake and smart values.
    const t0 = Date.now();
    const res = await this.starter.startProxy(cfg, session.id);
    const addr = parseAddress(res.address);
    this.log.info(`startProxy for "${session.name}" (${res.adapter}) → ${res.address} in ${Date.now() - t0} ms`);
    // A unix socket in a private directory when the sidecar can make one.
    return 'pipe' in addr ? new vscode.DebugAdapterNamedPipeServer(addr.pipe) : new vscode.DebugAdapterServer(addr.port, addr.host);
  }
}
