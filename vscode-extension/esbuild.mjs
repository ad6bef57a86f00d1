// Builds the extension bundle (dist/extension.js, Node/CommonJS, `vscode`
// external), the webview script (dist/webview.js, browser IIFE), and with
// --tests the unit tests (dist-test/*.test.js) for Node's test runner.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

const tests = process.argv.includes('--tests');
const common = { bundle: true, sourcemap: true, logLevel: 'warning', target: 'es2022' };

await esbuild.build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] });
await esbuild.build({ ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' });
if (tests) {
  const entries = readdirSync('test').filter((f) => f.endsWith('.test.ts')).map((f) => `test/${f}`);
  await esbuild.build({ ...common, entryPoints: entries, outdir: 'dist-test', platform: 'node', format: 'esm', outExtension: { '.js': '.mjs' }, external: ['vscode', 'playwright-core'], packages: 'external' });
}
