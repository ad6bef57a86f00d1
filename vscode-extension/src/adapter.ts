// The adapter kinds behind dapscope and their aliases, in one place (the Go
// side's twin is adapter.ParseKind): a `dapscope` configuration's `adapter`
// and another debug type's id both go through parseAdapterKind. VS Code's
// own JavaScript debugger (js-debug) has its debug types here too.

/** The real debug adapters dapscope drives. Add a kind here and in ALIASES. */
export const ADAPTER_KINDS = ['debugpy', 'dlv', 'node', 'lldb'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

/** Every accepted spelling (lower case) → its kind (the Go side's aliases). */
const ALIASES: Readonly<Record<string, AdapterKind>> = {
  debugpy: 'debugpy',
  python: 'debugpy',
  dlv: 'dlv',
  delve: 'dlv',
  go: 'dlv',
  node: 'node',
  nodejs: 'node',
  js: 'node',
  // LLVM's lldb-dap (the LLVM extension's debug type `lldb-dap`) and
  // CodeLLDB's debug type `lldb`: the sidecar's lldb probe inspects both
  lldb: 'lldb',
  'lldb-dap': 'lldb',
  rust: 'lldb',
  c: 'lldb',
  cpp: 'lldb',
  'c++': 'lldb',
};

/**
 * The debug types of js-debug (ms-vscode.js-debug, built into VS Code): their
 * sessions run JavaScript on V8, which dapscope's JavaScript probe inspects,
 * so the sidecar treats them as adapter kind `node`. Lower case.
 */
export const JS_DEBUG_TYPES: ReadonlySet<string> = new Set([
  'node',
  'pwa-node',
  'node-terminal',
  'chrome',
  'pwa-chrome',
  'msedge',
  'pwa-msedge',
  'extensionhost',
  'pwa-extensionhost',
]);

/** Whether `debugType` is one of js-debug's debug types (case-insensitive). */
export function isJsDebugType(debugType: unknown): boolean {
  return typeof debugType === 'string' && JS_DEBUG_TYPES.has(debugType.trim().toLowerCase());
}

/** The adapter kind `name` means (case-insensitive, aliases resolved), or undefined when it is none. */
export function parseAdapterKind(name: unknown): AdapterKind | undefined {
  if (typeof name !== 'string') return undefined;
  return ALIASES[name.trim().toLowerCase()];
}

/** Languages whose files get dapscope's hover (and start the sidecar when opened). */
export const HOVER_LANGUAGES: readonly string[] = ['python', 'go', 'javascript', 'typescript', 'javascriptreact', 'typescriptreact', 'rust', 'c', 'cpp'];
