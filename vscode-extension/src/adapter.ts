// The adapter kinds behind dapscope and their aliases, in one place (the Go
// side's twin is adapter.ParseKind): a `dapscope` configuration's `adapter`
// and another debug type's id both go through parseAdapterKind.

/** The real debug adapters dapscope drives. Add a kind here (e.g. 'node') and in ALIASES. */
export const ADAPTER_KINDS = ['debugpy', 'dlv'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

/** Every accepted spelling (lower case) → its kind. */
const ALIASES: Readonly<Record<string, AdapterKind>> = {
  debugpy: 'debugpy',
  python: 'debugpy',
  dlv: 'dlv',
  delve: 'dlv',
  go: 'dlv',
};

/** The adapter kind `name` means (case-insensitive, aliases resolved), or undefined when it is none. */
export function parseAdapterKind(name: unknown): AdapterKind | undefined {
  if (typeof name !== 'string') return undefined;
  return ALIASES[name.trim().toLowerCase()];
}
