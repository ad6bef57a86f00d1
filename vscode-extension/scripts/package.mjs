// Packages the extension as a .vsix with the sidecar for linux-x64: builds
// bin/dapscope from the Go module at the repository root, then runs vsce.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ext = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(ext, '..');
const bin = join(ext, 'bin', 'dapscope');
execFileSync('go', ['build', '-trimpath', '-o', bin, '.'], { cwd: root, stdio: 'inherit', env: { ...process.env, GOOS: 'linux', GOARCH: 'amd64', CGO_ENABLED: '0' } });
if (!existsSync(bin) || statSync(bin).size === 0) throw new Error('sidecar binary missing');
const out = process.env.DAPSCOPE_VSIX ?? join(ext, 'dapscope-linux-x64.vsix');
const vsce = join(root, 'node_modules', '.bin', 'vsce');
execFileSync(vsce, ['package', '--no-dependencies', '--target', 'linux-x64', '--allow-missing-repository', '--skip-license', '-o', out], { cwd: ext, stdio: 'inherit' });
console.log(`packaged ${out}`);
