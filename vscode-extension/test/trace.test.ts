// Unit tests: the DAP trace keeps short messages whole and cuts long ones
// (a probe's source, a big answer) with the count of what was left out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TRACE_CHARS, traceText } from '../src/trace';

test('a short message is traced whole', () => {
  const m = { seq: 1, type: 'request', command: 'threads' };
  assert.equal(traceText(m), JSON.stringify(m));
});

test('a long message is cut, saying how much is left out', () => {
  const m = { seq: 2, type: 'request', command: 'evaluate', arguments: { expression: 'x'.repeat(50_000) } };
  const full = JSON.stringify(m);
  const line = traceText(m);
  assert.ok(line.startsWith(full.slice(0, TRACE_CHARS)));
  assert.ok(line.endsWith(`… (${full.length - TRACE_CHARS} more characters)`), line.slice(-60));
  assert.ok(line.length < TRACE_CHARS + 40);
});
