// dapscope JavaScript probe: heap — the heap watch (issue #37). An
// inspection must never make V8 abort the program out of memory: each
// entry point records the used heap when it starts (guard.js), and the
// probe's budget checks and its per-row loops (order.js) stop the call
// with INSPECTION_MEMORY once it has grown past its share. The inspector
// cannot do it from outside: while an evaluate runs in a paused program,
// Node's inspector answers no other message (Runtime.getHeapUsage and
// Runtime.terminateExecution wait for the evaluate's end), so the watch
// runs inside the call it bounds.

// v8.getHeapStatistics (Node 20.16+, loaded like util in core.js) for the heap
// watch; absent elsewhere (no watch).
let heapStats = null;
try {
  if (typeof process === 'object' && process && typeof process.getBuiltinModule === 'function') {
    const v8 = process.getBuiltinModule('node:v8');
    if (v8 && typeof v8.getHeapStatistics === 'function') heapStats = v8.getHeapStatistics;
  }
} catch (e) { heapStats = null; }

// HEAP is the heap watch of the call in progress (issue #37): an entry
// point (guard.js) sets cap when it starts: V8's used heap then, plus
// LIMITS.heap_share_pct per cent of the heap's headroom (its limit less
// what is used; the limit counts the young generation too, so the share is
// small) and at most LIMITS.heap_bytes; heapCheck, at every budget check
// and in the loops that build per-row data, ends the call with
// INSPECTION_MEMORY once more is used, before V8 would abort the program
// out of memory. What the call built is garbage then; the program goes on.
const HEAP = { cap: -1, start: 0, allowed: 0 };
function heapUsed() { return apply(heapStats, undefined, []).used_heap_size; }
function heapStart() {
  HEAP.cap = -1;
  if (heapStats === null) return;
  const s = apply(heapStats, undefined, []);
  HEAP.start = s.used_heap_size;
  HEAP.allowed = M.min(LIMITS.heap_bytes, (s.heap_size_limit - s.used_heap_size) * LIMITS.heap_share_pct / 100);
  HEAP.cap = HEAP.start + HEAP.allowed;
}
function heapCheck() {
  if (HEAP.cap < 0) return;
  const used = heapUsed();
  if (used <= HEAP.cap) return;
  HEAP.cap = -1; // the error itself allocates
  const mib = (b) => M.round(b / 1048576);
  throw new ProbeError('INSPECTION_MEMORY', 'the inspection was stopped before the program could run out of memory: its heap grew by ' +
    mib(used - HEAP.start) + ' MiB, over the ' + mib(HEAP.allowed) + ' MiB an inspection may take (' + LIMITS.heap_share_pct +
    '% of the heap\'s headroom, at most ' + mib(LIMITS.heap_bytes) + ' MiB)',
    'the session stays usable: inspect a part of the value (a path below it, fewer columns, no sort), or give the program a bigger heap (node --max-old-space-size)');
}
