// Unit tests: the one parser of adapter kinds (aliases, case), used by the
// launch defaults (config.ts) and the bridge (bridge.ts) alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTER_KINDS, isJsDebugType, parseAdapterKind } from '../src/adapter';
import { adapterKind } from '../src/bridge';
import { adapterFor } from '../src/config';

test('kinds and aliases', () => {
  assert.deepEqual([...ADAPTER_KINDS], ['debugpy', 'dlv', 'node', 'lldb']);
  for (const k of ADAPTER_KINDS) assert.equal(parseAdapterKind(k), k);
  assert.equal(parseAdapterKind('python'), 'debugpy');
  assert.equal(parseAdapterKind('go'), 'dlv');
  assert.equal(parseAdapterKind('delve'), 'dlv');
  assert.equal(parseAdapterKind(' Delve '), 'dlv');
  assert.equal(parseAdapterKind('DEBUGPY'), 'debugpy');
  assert.equal(parseAdapterKind('nodejs'), 'node');
  assert.equal(parseAdapterKind('JS'), 'node');
  for (const a of ['lldb', 'lldb-dap', 'LLDB-DAP', 'rust', 'c', 'cpp', 'C++']) assert.equal(parseAdapterKind(a), 'lldb', a);
});

test('anything else is no kind', () => {
  for (const v of ['', 'pwa-node', 'chrome', 'codelldb', undefined, null, 3, {}]) assert.equal(parseAdapterKind(v), undefined, String(v));
});

test('config and bridge agree on every alias', () => {
  for (const name of ['debugpy', 'python', 'dlv', 'go', 'delve', 'Go', 'node', 'nodejs']) {
    assert.equal(adapterFor({ adapter: name }), parseAdapterKind(name), name);
    assert.equal(adapterKind(name), parseAdapterKind(name), name);
  }
  // Unknown debug types pass through the bridge; the launch defaults fall back by language.
  for (const name of ['lldb', 'lldb-dap', 'rust']) {
    assert.equal(adapterFor({ adapter: name }), 'lldb', name);
    assert.equal(adapterKind(name), 'lldb', name);
  }
  // Editor sessions of LLVM's lldb-dap extension and of CodeLLDB are bridged as lldb.
  assert.equal(adapterKind('lldb-dap'), 'lldb');
  assert.equal(adapterKind('lldb'), 'lldb');
  assert.equal(adapterKind('cppdbg'), 'cppdbg');
  assert.equal(adapterFor({ adapter: 'gdb' }, 'go'), 'dlv');
  for (const lang of ['rust', 'c', 'cpp']) assert.equal(adapterFor({}, lang), 'lldb', lang);
  assert.equal(adapterFor({ program: '/w/app.mjs' }), 'node');
});

test("js-debug's debug types are the node kind on the bridge, not in dapscope configurations", () => {
  for (const t of ['node', 'pwa-node', 'node-terminal', 'chrome', 'pwa-chrome', 'msedge', 'extensionHost', 'pwa-extensionHost']) {
    assert.ok(isJsDebugType(t), t);
    assert.equal(adapterKind(t), 'node', t);
  }
  for (const t of ['python', 'go', 'dapscope', 'lldb', undefined]) assert.equal(isJsDebugType(t), false, String(t));
  // A dapscope configuration cannot name a browser: it launches programs.
  assert.equal(adapterFor({ adapter: 'chrome', program: '/w/x.py' }), 'debugpy');
});
