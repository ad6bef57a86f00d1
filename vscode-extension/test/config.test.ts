// Unit tests: dapscope launch defaults and proxy address parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapterFor, parseAddress, withDefaults } from '../src/config';

test('F5 with no launch.json debugs the current file', () => {
  const c = withDefaults({}, 'python');
  assert.equal(c.type, 'dapscope');
  assert.equal(c.request, 'launch');
  assert.equal(c.program, '${file}');
  assert.equal(c.adapter, 'debugpy');
  assert.equal(c.console, 'internalConsole');
});

test('Go programs use Delve in debug mode', () => {
  const c = withDefaults({ type: 'dapscope', request: 'launch', name: 'g', program: 'cmd/x/main.go' });
  assert.equal(c.adapter, 'dlv');
  assert.equal(c.mode, 'debug');
  assert.equal(adapterFor({}, 'go'), 'dlv');
  assert.equal(adapterFor({ adapter: 'python' }, 'go'), 'debugpy');
});

test('Rust, C and C++ use lldb-dap on a binary, never the source file', () => {
  const c = withDefaults({}, 'rust');
  assert.equal(c.adapter, 'lldb');
  assert.equal(c.program, undefined);
  const b = withDefaults({ type: 'dapscope', request: 'launch', name: 'r', adapter: 'lldb', program: '${workspaceFolder}/target/debug/prices' });
  assert.equal(b.program, '${workspaceFolder}/target/debug/prices');
  assert.equal(withDefaults({}, 'cpp').adapter, 'lldb');
});

test('explicit fields are kept; attach gets no program', () => {
  const c = withDefaults({ type: 'dapscope', request: 'launch', name: 'm', module: 'pkg.mod', console: 'integratedTerminal' });
  assert.equal(c.program, undefined);
  assert.equal(c.console, 'integratedTerminal');
  const a = withDefaults({ type: 'dapscope', request: 'attach', name: 'a', connect: { port: 5678 } });
  assert.equal(a.program, undefined);
});

test('addresses', () => {
  assert.deepEqual(parseAddress('127.0.0.1:4711'), { host: '127.0.0.1', port: 4711 });
  assert.deepEqual(parseAddress('[::1]:80'), { host: '::1', port: 80 });
  assert.deepEqual(parseAddress('unix:/tmp/dapscope-1/dap.sock'), { pipe: '/tmp/dapscope-1/dap.sock' });
  assert.throws(() => parseAddress('unix:relative.sock'));
  // Windows: the sidecar's named pipe, local only.
  assert.deepEqual(parseAddress('pipe:\\\\.\\pipe\\dapscope-0a1b'), { pipe: '\\\\.\\pipe\\dapscope-0a1b' });
  assert.throws(() => parseAddress('pipe:\\\\server\\pipe\\x'), /bad proxy pipe/);
  assert.throws(() => parseAddress('pipe:\\\\.\\pipe\\a\\b'), /bad proxy pipe/);
  assert.throws(() => parseAddress('nope'), /bad proxy address/);
});
