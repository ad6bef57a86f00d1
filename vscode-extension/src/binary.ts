// Which sidecar binary this VS Code runs: the `dapscope.path` setting, else
// the one bundled for this platform (bin/<target>/ in a package for several
// platforms, bin/ in a platform's own package, checked by the binary's own
// header so a package for another platform is told apart), else `dapscope`
// on PATH; and when none can run here, a message that says why and what to
// do. Pure (no vscode): the platform, the files and PATH come in, so the
// tests give every platform.

import * as path from 'path';

/** The platforms dapscope ships for (`vsce package --target`). */
export const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'] as const;

/** The sidecar's file name on a platform. */
export function exeName(platform: string): string {
  return platform === 'win32' ? 'dapscope.exe' : 'dapscope';
}

/**
 * The target a binary was built for, from its first bytes (ELF, Mach-O,
 * PE), or undefined when they say nothing known (too short, a script, a
 * universal Mach-O).
 */
export function binaryTarget(head: Uint8Array): string | undefined {
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const u16 = (o: number) => (o + 2 <= head.length ? dv.getUint16(o, true) : -1);
  const u32 = (o: number) => (o + 4 <= head.length ? dv.getUint32(o, true) : -1);
  if (head.length >= 20 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) {
    const machine = u16(18); // ELF e_machine
    return machine === 0x3e ? 'linux-x64' : machine === 0xb7 ? 'linux-arm64' : `linux-machine-${machine}`;
  }
  if (u32(0) === 0xfeedfacf) {
    const cpu = u32(4); // Mach-O 64 cputype
    return cpu === 0x01000007 ? 'darwin-x64' : cpu === 0x0100000c ? 'darwin-arm64' : `darwin-cpu-${cpu}`;
  }
  if (head[0] === 0x4d && head[1] === 0x5a) {
    const pe = u32(0x3c); // "MZ", then the PE header's offset
    if (pe > 0 && u32(pe) === 0x00004550) {
      const machine = u16(pe + 4);
      return machine === 0x8664 ? 'win32-x64' : machine === 0xaa64 ? 'win32-arm64' : `win32-machine-${machine}`;
    }
  }
  return undefined;
}

/** What resolveSidecar may know of the machine it runs on. */
export interface Host {
  platform: string; // process.platform
  arch: string; // process.arch
  exists(p: string): boolean; // a file (not a directory) is there
  head(p: string): Uint8Array | undefined; // its first bytes
  env: Record<string, string | undefined>;
}

export type Sidecar = { path: string; source: 'setting' | 'bundled' | 'PATH' } | { error: string };

/** The first file named name in the directories of PATH. */
export function findOnPath(name: string, host: Host): string | undefined {
  const p = host.platform === 'win32' ? path.win32 : path.posix;
  const list = host.env.PATH ?? host.env.Path ?? '';
  for (const dir of list.split(p.delimiter)) {
    if (!dir) continue;
    const f = p.join(dir.replace(/^"(.*)"$/, '$1'), name);
    if (host.exists(f)) return f;
  }
  return undefined;
}

/** The sidecar to run, or why there is none. */
export function resolveSidecar(configured: string | undefined, extPath: string, host: Host): Sidecar {
  const p = host.platform === 'win32' ? path.win32 : path.posix;
  const target = `${host.platform}-${host.arch}`;
  const exe = exeName(host.platform);
  if (configured) {
    if (!host.exists(configured)) return { error: `dapscope: the setting "dapscope.path" is ${JSON.stringify(configured)}, which is not a file. Point it at a dapscope binary for ${target}, or clear it to use the bundled one.` };
    return { path: configured, source: 'setting' };
  }
  let other: string | undefined;
  for (const f of [p.join(extPath, 'bin', target, exe), p.join(extPath, 'bin', exe)]) {
    if (!host.exists(f)) continue;
    const built = binaryTarget(host.head(f) ?? new Uint8Array());
    if (built === undefined || built === target) return { path: f, source: 'bundled' };
    other = built;
  }
  const onPath = findOnPath(exe, host);
  if (onPath) return { path: onPath, source: 'PATH' };
  const known = (TARGETS as readonly string[]).includes(target);
  const build = `or build it (go build -o ${exe} . in a clone of github.com/dapscope/dapscope) and set "dapscope.path" to it`;
  if (other) {
    return {
      error:
        `dapscope: this extension package carries the sidecar for ${other}, but VS Code runs on ${target}. ` +
        (known ? `Install the dapscope package for ${target} (from the Marketplace, or code --install-extension dapscope-<version>-${target}.vsix), ` : '') +
        `${build}.`,
    };
  }
  if (!known) return { error: `dapscope: there is no sidecar for ${target} (dapscope ships for ${TARGETS.join(', ')}). Put ${exe} on PATH, ${build}.` };
  return { error: `dapscope: no sidecar found: this package has no bin/${exe} and ${exe} is not on PATH. Install the dapscope package for ${target}, ${build}.` };
}
