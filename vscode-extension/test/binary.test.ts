// Unit tests: the extension picks the sidecar built for its platform, tells
// a package for another platform apart by the binary's own header, falls
// back to PATH, and explains a missing one with what to install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryTarget, findOnPath, resolveSidecar, TARGETS, type Host } from '../src/binary';

/** The first bytes of a binary for target. */
function header(target: string): Uint8Array {
  const b = new Uint8Array(256);
  const dv = new DataView(b.buffer);
  const [os, arch] = target.split('-');
  if (os === 'linux') {
    b.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    dv.setUint16(18, arch === 'x64' ? 0x3e : 0xb7, true);
  } else if (os === 'darwin') {
    dv.setUint32(0, 0xfeedfacf, true);
    dv.setUint32(4, arch === 'x64' ? 0x01000007 : 0x0100000c, true);
  } else {
    b.set([0x4d, 0x5a]);
    dv.setUint32(0x3c, 0x80, true);
    dv.setUint32(0x80, 0x00004550, true);
    dv.setUint16(0x84, arch === 'x64' ? 0x8664 : 0xaa64, true);
  }
  return b;
}

function fakeHost(platform: string, arch: string, files: Record<string, string | Uint8Array>, PATH = ''): Host {
  return {
    platform,
    arch,
    env: { PATH },
    exists: (p) => p in files,
    head: (p) => {
      const f = files[p];
      return typeof f === 'string' ? header(f) : f;
    },
  };
}

test('each shipped binary format is recognised', () => {
  for (const t of TARGETS) assert.equal(binaryTarget(header(t)), t);
  assert.equal(binaryTarget(header('win32-arm64')), 'win32-arm64');
  assert.equal(binaryTarget(new TextEncoder().encode('#!/bin/sh\necho hi\n')), undefined);
  assert.equal(binaryTarget(new Uint8Array()), undefined);
  assert.equal(binaryTarget(new Uint8Array([0x4d, 0x5a])), undefined); // MZ cut short
});

test('the bundled binary of each platform is picked', () => {
  const cases: [string, string, string, string][] = [
    ['linux', 'x64', '/ext', '/ext/bin/dapscope'],
    ['linux', 'arm64', '/ext', '/ext/bin/dapscope'],
    ['darwin', 'x64', '/ext', '/ext/bin/dapscope'],
    ['darwin', 'arm64', '/ext', '/ext/bin/dapscope'],
    ['win32', 'x64', 'C:\\Users\\me\\.vscode\\extensions\\dapscope', 'C:\\Users\\me\\.vscode\\extensions\\dapscope\\bin\\dapscope.exe'],
  ];
  for (const [platform, arch, ext, bin] of cases) {
    const r = resolveSidecar('', ext, fakeHost(platform, arch, { [bin]: `${platform}-${arch}` }));
    assert.deepEqual(r, { path: bin, source: 'bundled' }, `${platform}-${arch}`);
  }
});

test('a package for several platforms: bin/<target>/ first', () => {
  const files = { '/ext/bin/darwin-arm64/dapscope': 'darwin-arm64', '/ext/bin/linux-x64/dapscope': 'linux-x64' };
  assert.deepEqual(resolveSidecar(undefined, '/ext', fakeHost('darwin', 'arm64', files)), { path: '/ext/bin/darwin-arm64/dapscope', source: 'bundled' });
  assert.deepEqual(resolveSidecar(undefined, '/ext', fakeHost('linux', 'x64', files)), { path: '/ext/bin/linux-x64/dapscope', source: 'bundled' });
});

test("another platform's binary is not run; PATH is the fallback", () => {
  const files: Record<string, string> = { '/ext/bin/dapscope': 'linux-x64' };
  const r = resolveSidecar(undefined, '/ext', fakeHost('darwin', 'arm64', files));
  assert.ok('error' in r);
  assert.match(r.error, /carries the sidecar for linux-x64, but VS Code runs on darwin-arm64/);
  assert.match(r.error, /dapscope-<version>-darwin-arm64\.vsix/);
  assert.match(r.error, /dapscope\.path/);
  files['/usr/local/bin/dapscope'] = 'darwin-arm64';
  assert.deepEqual(resolveSidecar(undefined, '/ext', fakeHost('darwin', 'arm64', files, '/usr/bin:/usr/local/bin')), { path: '/usr/local/bin/dapscope', source: 'PATH' });
});

test('a missing sidecar is explained per platform', () => {
  const win = resolveSidecar('', 'C:\\ext', fakeHost('win32', 'x64', {}, 'C:\\Windows;C:\\tools'));
  assert.ok('error' in win);
  assert.match(win.error, /no bin\/dapscope\.exe and dapscope\.exe is not on PATH/);
  assert.match(win.error, /package for win32-x64/);
  const arm = resolveSidecar('', 'C:\\ext', fakeHost('win32', 'arm64', {}));
  assert.ok('error' in arm);
  assert.match(arm.error, /no sidecar for win32-arm64 \(dapscope ships for linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64\)/);
});

test('the dapscope.path setting wins, and must exist', () => {
  const files = { '/opt/dapscope': 'linux-x64', '/ext/bin/dapscope': 'linux-x64' };
  assert.deepEqual(resolveSidecar('/opt/dapscope', '/ext', fakeHost('linux', 'x64', files)), { path: '/opt/dapscope', source: 'setting' });
  const r = resolveSidecar('/opt/none', '/ext', fakeHost('linux', 'x64', files));
  assert.ok('error' in r);
  assert.match(r.error, /"dapscope\.path" is "\/opt\/none", which is not a file/);
});

test('PATH is searched with the platform\'s separator', () => {
  const host = fakeHost('win32', 'x64', { 'C:\\Go Tools\\dapscope.exe': 'win32-x64' }, 'C:\\Windows;"C:\\Go Tools"');
  assert.equal(findOnPath('dapscope.exe', host), 'C:\\Go Tools\\dapscope.exe');
  assert.equal(findOnPath('dapscope', fakeHost('linux', 'x64', {}, '/usr/bin:/bin')), undefined);
});
