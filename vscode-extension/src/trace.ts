// The DAP trace (`dapscope.trace.dap`): one line per message, cut to a
// readable length.

/** Characters of a DAP message kept in the trace. */
export const TRACE_CHARS = 2000;

/** A DAP message as one trace line, cut at TRACE_CHARS with the number of characters left out. */
export function traceText(m: unknown): string {
  const text = JSON.stringify(m) ?? String(m);
  return text.length <= TRACE_CHARS ? text : `${text.slice(0, TRACE_CHARS)}… (${text.length - TRACE_CHARS} more characters)`;
}
