// Unit tests: the tracker bridge forwards lifecycle events of other debug
// types and runs the sidecar's DAP requests through session.customRequest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALLOWED_COMMANDS, Bridge, CDP_ASKS, CDP_RETRY_MS, NOT_FORWARDED, adapterKind, cdpAddress, childConfiguration } from '../src/bridge';
import type { BridgeEvent } from '../src/protocol';
import bridgeCommands from '../../editor/testdata/bridge_commands.json';

function fakeSession(type = 'debugpy', configuration?: Record<string, unknown>, parentSession?: { id: string; type: string }) {
  const calls: { command: string; args: unknown }[] = [];
  return {
    calls,
    session: {
      id: 's1',
      type,
      name: 'Python: current file',
      configuration,
      parentSession,
      customRequest: async (command: string, args?: unknown) => {
        calls.push({ command, args });
        if (command === 'evaluate') return { result: '{"name": "df"}', variablesReference: 0 };
        return { stackFrames: [{ id: 7, name: 'main', line: 3 }] };
      },
    },
  };
}

test('dapscope sessions are not bridged (they are proxied)', () => {
  const b = new Bridge(() => {});
  assert.equal(b.tracker({ ...fakeSession('dapscope').session }), undefined);
});

test('stop, continue, other events with their bodies, and terminate reach the sidecar', () => {
  const events: BridgeEvent[] = [];
  const b = new Bridge((e) => events.push(e));
  const { session } = fakeSession();
  const t = b.tracker(session)!;
  const stopped = { reason: 'breakpoint', threadId: 1, allThreadsStopped: true, hitBreakpointIds: [3] };
  t.onDidSendMessage({ type: 'event', event: 'stopped', body: stopped });
  t.onDidSendMessage({ type: 'response', command: 'threads', body: {} });
  t.onDidSendMessage({ type: 'event', event: 'output', body: { category: 'stdout', output: 'x\n' } });
  t.onDidSendMessage({ type: 'event', event: 'continued', body: { threadId: 1 } });
  t.onDidSendMessage({ type: 'event', event: 'exited', body: { exitCode: 3 } });
  t.onDidSendMessage({ type: 'event', event: 'terminated' });
  t.onExit();
  assert.deepEqual(events.map((e) => [e.kind, e.event]), [
    ['started', undefined],
    ['stopped', undefined],
    ['event', 'output'],
    ['continued', undefined],
    ['event', 'exited'],
    ['terminated', undefined],
  ]);
  assert.equal(events[1].threadId, 1);
  assert.equal(events[1].reason, 'breakpoint');
  assert.equal(events[1].adapter, 'debugpy');
  assert.deepEqual(events[1].body, stopped);
  assert.deepEqual(events[2].body, { category: 'stdout', output: 'x\n' });
  assert.deepEqual(events[4].body, { exitCode: 3 });
  assert.equal(b.has('s1'), false);
});

test("the editor's first stackTrace of a stop tells the sidecar the top frame, once per stop", () => {
  const events: BridgeEvent[] = [];
  const b = new Bridge((e) => events.push(e));
  const t = b.tracker(fakeSession('pwa-node', { __pendingTargetId: 'target-1' }).session)!;
  const frames = (id: number) => ({ stackFrames: [{ id, name: 'main', line: 3, source: { path: '/w/app.js' } }] });
  // → stackTrace before any stop: not a stop's frame
  t.onWillReceiveMessage({ type: 'request', seq: 1, command: 'stackTrace', arguments: { threadId: 0 } });
  t.onDidSendMessage({ type: 'response', request_seq: 1, command: 'stackTrace', success: true, body: frames(5) });
  // ← stopped, → stackTrace (levels 1), → stackTrace (startFrame 1), ← both responses
  t.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'breakpoint', threadId: 0 } });
  t.onWillReceiveMessage({ type: 'request', seq: 2, command: 'stackTrace', arguments: { threadId: 0, levels: 1 } });
  t.onWillReceiveMessage({ type: 'request', seq: 3, command: 'stackTrace', arguments: { threadId: 0, startFrame: 1, levels: 19 } });
  t.onDidSendMessage({ type: 'response', request_seq: 3, command: 'stackTrace', success: true, body: frames(9) });
  t.onDidSendMessage({ type: 'response', request_seq: 2, command: 'stackTrace', success: true, body: frames(0) });
  // a second stackTrace of the same stop changes nothing
  t.onWillReceiveMessage({ type: 'request', seq: 4, command: 'stackTrace', arguments: { threadId: 0 } });
  t.onDidSendMessage({ type: 'response', request_seq: 4, command: 'stackTrace', success: true, body: frames(0) });
  // → stackTrace, ← continued, ← its (late) response: no frame for a running thread
  t.onWillReceiveMessage({ type: 'request', seq: 5, command: 'stackTrace', arguments: { threadId: 0 } });
  t.onDidSendMessage({ type: 'event', event: 'continued', body: { threadId: 0 } });
  t.onDidSendMessage({ type: 'response', request_seq: 5, command: 'stackTrace', success: true, body: frames(8) });
  // the next stop: a new frame
  t.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'step', threadId: 0 } });
  t.onWillReceiveMessage({ type: 'request', seq: 6, command: 'stackTrace', arguments: { threadId: 0, startFrame: 0, levels: 1 } });
  t.onDidSendMessage({ type: 'response', request_seq: 6, command: 'stackTrace', success: true, body: frames(8) });
  const frameEvents = events.filter((e) => e.kind === 'frame').map((e) => [e.threadId, e.frameId, e.line, e.path]);
  assert.deepEqual(frameEvents, [[0, 0, 3, '/w/app.js'], [0, 8, 3, '/w/app.js']]);
  assert.deepEqual(events.map((e) => e.kind), ['started', 'stopped', 'frame', 'continued', 'stopped', 'frame']);
});

test('noisy events stay in the editor: loadedSource, module, progress, telemetry output', () => {
  const events: BridgeEvent[] = [];
  const b = new Bridge((e) => events.push(e));
  const t = b.tracker(fakeSession().session)!;
  for (const event of NOT_FORWARDED) t.onDidSendMessage({ type: 'event', event, body: {} });
  t.onDidSendMessage({ type: 'event', event: 'output', body: { category: 'telemetry', output: 'x' } });
  t.onDidSendMessage({ type: 'event', event: 'thread', body: { reason: 'started', threadId: 2 } });
  t.onDidSendMessage({ type: 'event', event: 'breakpoint', body: { reason: 'changed', breakpoint: { id: 1, verified: true } } });
  assert.deepEqual(events.map((e) => e.event ?? e.kind), ['started', 'thread', 'breakpoint']);
  assert.ok(NOT_FORWARDED.has('loadedSource') && NOT_FORWARDED.has('module'));
});

test('DAP requests run through customRequest with the given arguments', async () => {
  const b = new Bridge(() => {});
  const { session, calls } = fakeSession();
  b.tracker(session);
  const args = { expression: 'x', frameId: 7, context: 'repl', format: { rawString: true } };
  const body = (await b.request({ vscodeSessionId: 's1', command: 'evaluate', arguments: args })) as { result: string };
  assert.equal(body.result, '{"name": "df"}');
  assert.deepEqual(calls, [{ command: 'evaluate', args }]);
});

test('unknown sessions, and commands that would fight the editor or end the session, are refused', async () => {
  const b = new Bridge(() => {});
  const { session, calls } = fakeSession();
  b.tracker(session);
  await assert.rejects(b.request({ vscodeSessionId: 'nope', command: 'evaluate' }), /no live debug session/);
  for (const command of ['setBreakpoints', 'setVariable', 'setExpression', 'disconnect', 'terminate', 'launch', 'attach', 'initialize', 'configurationDone', 'restart', 'goto']) {
    await assert.rejects(b.request({ vscodeSessionId: 's1', command }), /not allowed/, command);
  }
  assert.equal(calls.length, 0);
});

test("an agent's moves run on the editor's session: continue, steps, pause", async () => {
  const b = new Bridge(() => {});
  const { session, calls } = fakeSession();
  b.tracker(session);
  for (const command of ['continue', 'next', 'stepIn', 'stepOut', 'pause', 'exceptionInfo']) {
    await b.request({ vscodeSessionId: 's1', command, arguments: { threadId: 0 } });
  }
  assert.deepEqual(calls.map((c) => c.command), ['continue', 'next', 'stepIn', 'stepOut', 'pause', 'exceptionInfo']);
  assert.deepEqual(calls[0].args, { threadId: 0 });
});

test("the allowed commands are the sidecar's (editor/testdata/bridge_commands.json)", () => {
  assert.deepEqual([...ALLOWED_COMMANDS].sort(), [...(bridgeCommands as string[])].sort());
});

test('adapter kinds', () => {
  assert.equal(adapterKind('python'), 'debugpy');
  assert.equal(adapterKind('debugpy'), 'debugpy');
  assert.equal(adapterKind('go'), 'dlv');
  assert.equal(adapterKind('node'), 'node');
});

test('dapscope sessions, debugpy subprocess children included, are proxied, not bridged', () => {
  const events: BridgeEvent[] = [];
  const b = new Bridge((e) => events.push(e));
  const child = { ...fakeSession('dapscope').session, id: 'c1', configuration: { subProcessId: 42, adapter: 'debugpy' } };
  assert.equal(b.tracker(child), undefined);
  assert.equal(b.tracker({ ...fakeSession('dapscope').session, id: 'p1', configuration: {} }), undefined);
  assert.equal(events.length, 0);
  assert.ok(b.tracker({ ...fakeSession('debugpy').session, id: 'd1', configuration: {} }));
  assert.equal(events[0].adapter, 'debugpy');
});

test('debugpyAttach becomes an attach configuration of the parent type', () => {
  const body = { type: 'dapscope', request: 'attach', name: 'Subprocess 42', subProcessId: 42, connect: { host: '127.0.0.1', port: 5679 }, program: '/x.py' };
  const c = childConfiguration(body, 'dapscope')!;
  assert.equal(c.type, 'dapscope');
  assert.equal(c.request, 'attach');
  assert.equal(c.subProcessId, 42);
  assert.deepEqual(c.connect, { host: '127.0.0.1', port: 5679 });
  assert.equal(childConfiguration({ name: 'x' }, 'dapscope'), undefined);
});

test("js-debug: only the child session (the target with the thread) is bridged, as adapter node", async () => {
  const events: BridgeEvent[] = [];
  const b = new Bridge((e) => events.push(e));
  // What js-debug 1.117 starts for a plain `"type": "node"` launch: a parent
  // of type pwa-node that only launches (threads: []), then a child per
  // target with __pendingTargetId and the parent session.
  const parent = { ...fakeSession('pwa-node', { type: 'pwa-node', request: 'launch', program: '/w/records.js' }).session, id: 'p1' };
  assert.equal(b.tracker(parent), undefined);
  const { session, calls } = fakeSession('pwa-node', { type: 'pwa-node', request: 'launch', __pendingTargetId: 'T1' }, { id: 'p1', type: 'pwa-node' });
  const child = { ...session, id: 'c1', name: 'records.js [1234]' };
  const t = b.tracker(child)!;
  assert.ok(t);
  // js-debug's one thread has id 0: it must reach the sidecar as 0, not be dropped.
  t.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'breakpoint', threadId: 0, allThreadsStopped: false } });
  assert.deepEqual(events.map((e) => [e.vscodeSessionId, e.kind, e.adapter, e.debugType]), [
    ['c1', 'started', 'node', 'pwa-node'],
    ['c1', 'stopped', 'node', 'pwa-node'],
  ]);
  assert.equal(events[1].threadId, 0);
  // The JavaScript probe reads values untruncated with context clipboard.
  const args = { expression: 'records', frameId: 0, context: 'clipboard' };
  await b.request({ vscodeSessionId: 'c1', command: 'evaluate', arguments: args });
  assert.deepEqual(calls, [{ command: 'evaluate', args }]);
  await assert.rejects(b.request({ vscodeSessionId: 'p1', command: 'evaluate', arguments: args }), /no live debug session/);
});

test('chrome and extension host children are bridged too; other types are unchanged', () => {
  const b = new Bridge(() => {});
  assert.ok(b.tracker({ ...fakeSession('pwa-chrome', { __pendingTargetId: 'page' }).session, id: 'ch' }));
  assert.equal(b.tracker({ ...fakeSession('chrome', { request: 'launch' }).session, id: 'chp' }), undefined);
  assert.equal(b.tracker({ ...fakeSession('pwa-extensionHost', { request: 'launch' }).session, id: 'eh' }), undefined);
  assert.ok(b.tracker({ ...fakeSession('python', {}).session, id: 'py' }));
  assert.equal(Bridge.bridged('node-terminal', {}), false);
  assert.equal(Bridge.bridged('node-terminal', { __pendingTargetId: 'x' }), true);
});

test('evaluate contexts: the DAP ones pass, anything else is refused', async () => {
  const b = new Bridge(() => {});
  const { session, calls } = fakeSession();
  b.tracker(session);
  for (const context of ['watch', 'repl', 'hover', 'clipboard', 'variables', undefined]) {
    await b.request({ vscodeSessionId: 's1', command: 'evaluate', arguments: { expression: 'x', context } });
  }
  await assert.rejects(b.request({ vscodeSessionId: 's1', command: 'evaluate', arguments: { expression: 'x', context: 'inject' } }), /context inject is not allowed/);
  // CodeLLDB's command context is for CodeLLDB sessions only.
  await assert.rejects(b.request({ vscodeSessionId: 's1', command: 'evaluate', arguments: { expression: 'x', context: '_command' } }), /context _command is not allowed/);
  assert.equal(calls.length, 6);
  const codelldb = fakeSession('lldb', {});
  b.tracker({ ...codelldb.session, id: 'cl' });
  await b.request({ vscodeSessionId: 'cl', command: 'evaluate', arguments: { expression: 'dapscope_probe_x e30=', frameId: 1001, context: '_command' } });
  assert.deepEqual(codelldb.calls.map((c) => (c.args as { context?: string }).context), ['_command']);
});

test("js-debug targets: the bridge asks for the session's CDP proxy and reports its address (kind cdp)", async () => {
  const events: BridgeEvent[] = [];
  const logs: string[] = [];
  const asked: string[] = [];
  const answers: Record<string, unknown> = {
    s1: { host: '127.0.0.1', port: 40123, path: '/secret' },
  };
  const b = new Bridge((e) => events.push(e), (m) => logs.push(m), async (id) => {
    asked.push(id);
    if (id === 'boom') throw new Error('command not found');
    return answers[id];
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const asks = (id: string) => asked.filter((x) => x === id).length;
  const cdpOf = (id: string) => events.filter((e) => e.kind === 'cdp' && e.vscodeSessionId === id).map((e) => e.cdp);
  const js = (id: string) => b.tracker({ ...fakeSession('pwa-node', { __pendingTargetId: id }).session, id })!;
  const s1 = js('s1');
  await sleep(20);
  assert.deepEqual(cdpOf('s1'), [{ host: '127.0.0.1', port: 40123, path: '/secret' }]);
  assert.equal(asks('s1'), 1);
  // not js-debug: not asked
  b.tracker({ ...fakeSession('debugpy').session, id: 'py' });
  assert.equal(asks('py'), 0);
  // js-debug does not know the session yet at its start: asked again after CDP_RETRY_MS
  const late = js('late');
  await sleep(20);
  answers.late = { host: '127.0.0.1', port: 5555 };
  for (let i = 0; i < 100 && cdpOf('late').length === 0; i++) await sleep(20);
  assert.deepEqual(cdpOf('late'), [{ host: '127.0.0.1', port: 5555 }]);
  assert.equal(asks('late'), 2);
  // a stop asks at once, without waiting for the timer
  const stopped = js('stopped');
  await sleep(20);
  answers.stopped = { host: '127.0.0.1', port: 6666 };
  stopped.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'breakpoint', threadId: 0 } });
  await sleep(20);
  assert.equal(asks('stopped'), 2, 'asked at the start and at the stop');
  assert.deepEqual(cdpOf('stopped'), [{ host: '127.0.0.1', port: 6666 }]);
  // no proxy yet: asked again and again until the session ends, then never
  const none = js('none');
  await sleep(CDP_RETRY_MS * 3 + 150);
  assert.ok(asks('none') >= 2, `asked ${asks('none')} times`);
  none.onExit();
  const after = asks('none');
  await sleep(CDP_RETRY_MS * 4);
  assert.equal(asks('none'), after, 'asked after the session ended');
  // a failing command (no js-debug): asked once, logged
  js('boom');
  // a session that ended before the answer: nothing reported
  answers.gone = { host: '127.0.0.1', port: 1234 };
  js('gone').onExit();
  await sleep(20);
  assert.equal(asks('boom'), 1);
  assert.deepEqual(cdpOf('gone'), []);
  assert.ok(logs.some((m) => m.startsWith('bridge: no CDP proxy for')), logs.join('\n'));
  assert.ok(!logs.some((m) => m.includes('secret')), 'the proxy path is a secret');
  for (const t of [s1, late, stopped]) t.onExit();
  assert.ok(CDP_ASKS >= 3);
});

test('CDP proxy addresses', () => {
  assert.deepEqual(cdpAddress({ host: '127.0.0.1', port: 1, path: '/p' }), { host: '127.0.0.1', port: 1, path: '/p' });
  assert.deepEqual(cdpAddress({ host: 'localhost', port: 65535 }), { host: 'localhost', port: 65535 });
  for (const v of [undefined, null, 'ws://x', {}, { host: 'h' }, { host: 'h', port: 0 }, { host: 'h', port: 70000 }, { host: 'h', port: 1.5 }, { host: 1, port: 1 }]) {
    assert.equal(cdpAddress(v), undefined, JSON.stringify(v));
  }
});
