// Packages the extension with the sidecar: one VSIX per VS Code platform
// target (`vsce package --target`), each carrying only its own
// bin/dapscope[.exe], built from the Go module at the repository root with
// GOOS/GOARCH and cgo off (one static binary per target). The working tree
// is built, or the committed HEAD when the working tree does not build
// (others may be mid-change in a shared tree).
//
//   node scripts/package.mjs             this machine's target: $DAPSCOPE_VSIX, else dapscope-<target>.vsix here
//   node scripts/package.mjs --dist DIR  every target's VSIX, a plain archive of each binary
//                                        (.tar.gz; .zip for Windows) and SHA256SUMS, in DIR
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

/** VS Code's platform targets and Go's names for them. */
const TARGETS = {
  'linux-x64': ['linux', 'amd64'],
  'linux-arm64': ['linux', 'arm64'],
  'darwin-x64': ['darwin', 'amd64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'win32-x64': ['windows', 'amd64'],
};

const ext = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(ext, '..');
const version = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8')).version;
const vsce = join(root, 'node_modules', '.bin', 'vsce');
const exeOf = (target) => (target.startsWith('win32') ? 'dapscope.exe' : 'dapscope');

/** The directory the sidecar is built from: the working tree, else HEAD. */
let source = root;
let scratch;

function goBuild(target, out) {
  const [goos, goarch] = TARGETS[target];
  const env = { ...process.env, GOOS: goos, GOARCH: goarch, CGO_ENABLED: '0' };
  const build = (dir) => execFileSync('go', ['build', '-trimpath', '-o', out, '.'], { cwd: dir, stdio: 'inherit', env });
  try {
    build(source);
  } catch (e) {
    if (source !== root || !existsSync(join(root, '.git'))) throw e;
    console.warn('package: the working tree does not build; building the sidecar from the committed HEAD instead');
    scratch = mkdtempSync(join(tmpdir(), 'dapscope-src-'));
    execFileSync('sh', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${scratch}"`], { stdio: 'inherit' });
    source = scratch;
    build(source);
  }
  if (!existsSync(out) || statSync(out).size === 0) throw new Error(`sidecar binary for ${target} missing`);
}

/** Builds target's sidecar into bin/ (nothing else there) and packages the VSIX. */
function packageTarget(target, vsix) {
  const bin = join(ext, 'bin');
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  const exe = join(bin, exeOf(target));
  goBuild(target, exe);
  execFileSync(vsce, ['package', '--no-dependencies', '--target', target, '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: ext, stdio: 'inherit' });
  console.log(`packaged ${vsix}`);
  return exe;
}

/** A zip of one file (deflated), as Windows users expect an archive. */
function zipOne(zipPath, name, data) {
  const comp = deflateRawSync(data);
  const crc = crc32(data);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); // local file header
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(0x21, 12); // 1980-01-01: a fixed date
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(comp.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); // central directory header
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt16LE(0x21, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(comp.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBuf.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); // end of central directory
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12);
  end.writeUInt32LE(local.length + nameBuf.length + comp.length, 16);
  writeFileSync(zipPath, Buffer.concat([local, nameBuf, comp, central, nameBuf, end]));
}

/** Every target's VSIX, each binary's archive, and SHA256SUMS of them all. */
function dist(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const target of Object.keys(TARGETS)) {
    const exe = packageTarget(target, join(dir, `dapscope-${version}-${target}.vsix`));
    const stem = join(dir, `dapscope-${version}-${target}`);
    if (target.startsWith('win32')) {
      zipOne(`${stem}.zip`, basename(exe), readFileSync(exe));
    } else {
      execFileSync('tar', ['-czf', `${stem}.tar.gz`, '--owner=0', '--group=0', '--mode=0755', '-C', dirname(exe), basename(exe)], { stdio: 'inherit' });
    }
  }
  rmSync(join(ext, 'bin'), { recursive: true, force: true });
  const sums = readdirSync(dir)
    .sort()
    .map((f) => `${createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')}  ${f}\n`);
  writeFileSync(join(dir, 'SHA256SUMS'), sums.join(''));
  console.log(`dist: ${sums.length} files and SHA256SUMS in ${dir}`);
}

try {
  const i = process.argv.indexOf('--dist');
  if (i >= 0) {
    if (!process.argv[i + 1]) throw new Error('--dist needs a directory');
    dist(resolve(process.argv[i + 1]));
  } else {
    const target = `${process.platform}-${process.arch}`;
    if (!TARGETS[target]) throw new Error(`no sidecar target for ${target} (${Object.keys(TARGETS).join(', ')})`);
    packageTarget(target, process.env.DAPSCOPE_VSIX ?? join(ext, `dapscope-${target}.vsix`));
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
