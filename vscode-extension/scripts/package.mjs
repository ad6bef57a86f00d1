// Packages the extension as a .vsix with the sidecar for linux-x64: builds
// bin/dapscope from the Go module at the repository root (falling back to the
// committed HEAD when the working tree does not build, e.g. while others are
// mid-change in a shared tree), then runs vsce.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(ext, '..');
const bin = join(ext, 'bin', 'dapscope');
const env = { ...process.env, GOOS: 'linux', GOARCH: 'amd64', CGO_ENABLED: '0' };
const build = (dir) => execFileSync('go', ['build', '-trimpath', '-o', bin, '.'], { cwd: dir, stdio: 'inherit', env });
try {
  build(root);
} catch (e) {
  if (!existsSync(join(root, '.git'))) throw e;
  console.warn('package: the working tree does not build; building the sidecar from the committed HEAD instead');
  const tmp = mkdtempSync(join(tmpdir(), 'dapscope-src-'));
  try {
    execFileSync('sh', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${tmp}"`], { stdio: 'inherit' });
    build(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
if (!existsSync(bin) || statSync(bin).size === 0) throw new Error('sidecar binary missing');
const out = process.env.DAPSCOPE_VSIX ?? join(ext, 'dapscope-linux-x64.vsix');
const vsce = join(root, 'node_modules', '.bin', 'vsce');
execFileSync(vsce, ['package', '--no-dependencies', '--target', 'linux-x64', '--allow-missing-repository', '--skip-license', '-o', out], { cwd: ext, stdio: 'inherit' });
console.log(`packaged ${out}`);
