// MCP for in-editor agents: registers the sidecar's loopback HTTP endpoint
// (with its bearer token) through vscode.lm.registerMcpServerDefinitionProvider
// when this VS Code has the API (1.101+), and builds the stdio configuration
// other agents can paste.

import * as vscode from 'vscode';

export function stdioMcpConfig(bin: string, workspace?: string): Record<string, unknown> {
  const args = ['mcp'];
  if (workspace) args.push('--workspace', workspace);
  return { servers: { dapscope: { type: 'stdio', command: bin, args } } };
}

interface McpApi {
  registerMcpServerDefinitionProvider?: (id: string, provider: unknown) => vscode.Disposable;
}

export function registerMcp(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, endpoint: () => Promise<{ url: string; token: string }>): boolean {
  const lm = (vscode as unknown as { lm?: McpApi }).lm;
  const HttpDef = (vscode as unknown as { McpHttpServerDefinition?: new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string) => unknown }).McpHttpServerDefinition;
  if (!lm?.registerMcpServerDefinitionProvider || !HttpDef) {
    log.info('this VS Code has no MCP server definition API; use "dapscope: Copy MCP Configuration" for other agents');
    return false;
  }
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    lm.registerMcpServerDefinitionProvider('dapscope.mcp', {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: async () => {
        try {
          const ep = await endpoint();
          log.info(`MCP server definition: ${ep.url}`);
          return [new HttpDef('dapscope', vscode.Uri.parse(ep.url), { Authorization: `Bearer ${ep.token}` }, context.extension.packageJSON.version)];
        } catch (e) {
          log.warn(`MCP endpoint unavailable: ${(e as Error).message}`);
          return [];
        }
      },
    }),
  );
  log.info('registered MCP server definition provider dapscope.mcp');
  return true;
}
