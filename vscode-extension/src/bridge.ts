// The bridge for sessions of other debug types (e.g. the Python extension's
// `debugpy`): a DebugAdapterTracker reports their events to the sidecar (the
// lifecycle, and every other DAP event with its body, so MCP agents see the
// session as the sidecar's own), and the sidecar's DAP requests (smart
// inspect, agents) come back as `dapscope/dapRequest` and run through
// `session.customRequest`. VS Code's JavaScript debugger
// (js-debug) splits a run into a launcher parent and a child per target: only
// the child, which owns the thread, is bridged. Written against small
// interfaces so the logic is unit-tested without VS Code.

import { isJsDebugType, parseAdapterKind } from './adapter';
import type { BridgeEvent, CdpAddress, DapRequestParams } from './protocol';

export interface BridgeSession {
  id: string;
  type: string;
  name: string;
  configuration?: { subProcessId?: unknown; __pendingTargetId?: unknown; [k: string]: unknown };
  parentSession?: { id: string; type: string };
  customRequest(command: string, args?: unknown): Thenable<unknown>;
}

/**
 * Maps a VS Code debug type (or a configuration's `adapter`) to the sidecar's
 * adapter kind: js-debug's types (`node`, `pwa-node`, `chrome`, …) are `node`;
 * unknown types pass through.
 */
export function adapterKind(debugType: string): string {
  if (isJsDebugType(debugType)) return 'node';
  return parseAdapterKind(debugType) ?? debugType;
}

/**
 * Whether a js-debug session is a concrete target (a child holding the
 * thread). js-debug's parent session only launches or attaches: it answers
 * `threads` with an empty list and never stops. Its children carry
 * `__pendingTargetId` in their configuration (js-debug's own test,
 * `isConcreteSession`) and a parent session.
 */
export function isJsDebugTarget(session: Pick<BridgeSession, 'configuration'>): boolean {
  return session.configuration?.__pendingTargetId !== undefined;
}

/**
 * Commands the sidecar may send through the bridge (the same list as the
 * sidecar's, session.BridgeCommands): reading the paused program, and moving
 * it as the debug toolbar does (an MCP agent's continue, step, pause; VS Code
 * follows from the adapter's own events). Never setBreakpoints (VS Code owns
 * the session's breakpoints), setVariable/setExpression (its views would
 * not show the change), nor anything that starts or ends the session.
 */
export const ALLOWED_COMMANDS: ReadonlySet<string> = new Set([
  'threads', 'stackTrace', 'scopes', 'variables', 'evaluate', 'source', 'exceptionInfo',
  'continue', 'next', 'stepIn', 'stepOut', 'pause',
]);

/**
 * DAP events the tracker does not forward: many per session and of no use
 * to the sidecar (js-debug's loadedSource for every script, debugpy's module
 * for every import), or the start-up handshake the sidecar never takes part in.
 */
export const NOT_FORWARDED: ReadonlySet<string> = new Set([
  'loadedSource', 'module', 'progressStart', 'progressUpdate', 'progressEnd', 'initialized', 'capabilities', 'invalidated', 'memory',
]);

/**
 * Evaluate contexts the bridge passes on. `clipboard` is how the JavaScript
 * probe gets a value untruncated from js-debug (1.117: budget unlimited,
 * the value serialized as code: a string comes back as a JSON string literal,
 * e.g. `"{\"a\":1}"`, or as a backtick template when it holds a newline).
 * Anything else (or none) is refused before it reaches the debugger.
 */
const EVALUATE_CONTEXTS = new Set(['watch', 'repl', 'hover', 'clipboard', 'variables']);

/**
 * CodeLLDB's (debug type `lldb`) own evaluate context that runs an LLDB
 * command in the request's frame and answers its output, in every console
 * mode: the lldb probe's calls (inspect/probe_lldb.go). Passed on to
 * CodeLLDB sessions only.
 */
export const CODELLDB_COMMAND_CONTEXT = '_command';

/** How many times the bridge asks js-debug for a session's CDP proxy (at the start, then at stops). */
export const CDP_ASKS = 8;

/** The first wait before asking js-debug again for a CDP proxy (then doubled: 0.2 s … 12.8 s). */
export const CDP_RETRY_MS = 200;

/** The bridge's part of a session's tracker. */
export interface BridgeTracker {
  onWillReceiveMessage(m: unknown): void;
  onDidSendMessage(m: unknown): void;
  onExit(): void;
  onWillStopSession(): void;
}

export class Bridge {
  private sessions = new Map<string, BridgeSession>();

  constructor(
    private notify: (ev: BridgeEvent) => void,
    private log: (msg: string) => void = () => {},
    /** js-debug's extension.js-debug.requestCDPProxy for a session id (none: no CDP shortcut). */
    private requestCdp?: (sessionId: string) => Thenable<unknown>,
  ) {}

  /**
   * Whether a session goes through the bridge: every debug type but dapscope
   * (proxied instead, debugpy subprocess children included); of js-debug's
   * sessions only the children that are concrete targets.
   */
  static bridged(debugType: string, configuration?: { __pendingTargetId?: unknown }): boolean {
    if (isJsDebugType(debugType)) return isJsDebugTarget({ configuration });
    return debugType !== 'dapscope';
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** A tracker for one session: forwards lifecycle events; returns undefined when not bridged. */
  tracker(session: BridgeSession): BridgeTracker | undefined {
    if (!Bridge.bridged(session.type, session.configuration)) return undefined;
    this.sessions.set(session.id, session);
    const adapter = adapterKind(session.type === 'dapscope' ? String(session.configuration?.adapter ?? 'debugpy') : session.type);
    const base = { vscodeSessionId: session.id, debugType: session.type, name: session.name, adapter };
    this.notify({ ...base, kind: 'started' });
    let ended = false;
    // A js-debug target: ask for its CDP proxy, through which the sidecar
    // runs the probe's evaluates in the top frame without the workbench.
    // js-debug knows the session only some time after it has started, so
    // an empty answer is asked again after CDP_RETRY_MS, doubling, and at
    // each stop, CDP_ASKS times in all.
    let cdpAsks = adapter === 'node' && this.requestCdp ? CDP_ASKS : 0;
    let cdpPending = false;
    let cdpDelay = CDP_RETRY_MS;
    let cdpTimer: ReturnType<typeof setTimeout> | undefined;
    const askCdp = () => {
      if (cdpTimer !== undefined) clearTimeout(cdpTimer);
      cdpTimer = undefined;
      if (cdpAsks <= 0 || cdpPending || ended) return;
      cdpAsks--;
      cdpPending = true;
      Promise.resolve()
        .then(() => this.requestCdp!(session.id))
        .then(
          (addr) => {
            const cdp = cdpAddress(addr);
            if (cdp) {
              cdpAsks = 0;
              if (!ended) this.notify({ ...base, kind: 'cdp', cdp });
            } else if (cdpAsks === 0) {
              this.log(`bridge: js-debug gave no CDP proxy for ${session.name}`);
            } else if (!ended) {
              cdpTimer = setTimeout(askCdp, cdpDelay);
              cdpDelay *= 2;
            }
          },
          (e) => {
            cdpAsks = 0; // no such command: js-debug is not there
            this.log(`bridge: no CDP proxy for ${session.name}: ${e instanceof Error ? e.message : String(e)}`);
          },
        )
        .finally(() => (cdpPending = false));
    };
    askCdp();
    // The editor's own first stackTrace of each stop tells the sidecar the
    // stopped thread's top frame (kind `frame`), which saves it one request
    // through customRequest per inspection (hundreds of ms in VS Code).
    let stops = 0;
    let frameSent = true; // nothing before the first stop
    const stackRequests = new Map<number, { threadId?: number; stop: number }>();
    const end = (body?: Record<string, unknown>) => {
      if (ended) return;
      ended = true;
      if (cdpTimer !== undefined) clearTimeout(cdpTimer);
      this.sessions.delete(session.id);
      this.notify(body ? { ...base, kind: 'terminated', body } : { ...base, kind: 'terminated' });
    };
    return {
      onWillReceiveMessage: (m: unknown) => {
        const req = m as { type?: string; command?: string; seq?: number; arguments?: { threadId?: unknown; startFrame?: unknown } };
        if (req?.type !== 'request' || req.command !== 'stackTrace' || typeof req.seq !== 'number' || frameSent) return;
        if ((req.arguments?.startFrame ?? 0) !== 0) return;
        if (stackRequests.size > 64) stackRequests.clear();
        stackRequests.set(req.seq, { threadId: typeof req.arguments?.threadId === 'number' ? req.arguments.threadId : undefined, stop: stops });
      },
      onDidSendMessage: (m: unknown) => {
        const msg = m as { type?: string; event?: string; command?: string; request_seq?: number; success?: boolean; body?: Record<string, unknown> };
        if (msg?.type === 'response' && msg.command === 'stackTrace' && typeof msg.request_seq === 'number') {
          const req = stackRequests.get(msg.request_seq);
          stackRequests.delete(msg.request_seq);
          const f0 = (msg.body?.stackFrames as Array<{ id?: unknown; line?: unknown; source?: { path?: unknown } }> | undefined)?.[0];
          const top = f0?.id;
          if (req && req.stop === stops && !frameSent && msg.success && typeof top === 'number' && req.threadId !== undefined) {
            frameSent = true;
            const line = typeof f0?.line === 'number' ? f0.line : undefined;
            const path = typeof f0?.source?.path === 'string' ? f0.source.path : undefined;
            this.notify({ ...base, kind: 'frame', threadId: req.threadId, frameId: top, ...(line !== undefined ? { line } : {}), ...(path !== undefined ? { path } : {}) });
          }
          return;
        }
        if (msg?.type !== 'event' || typeof msg.event !== 'string') return;
        const body = msg.body ?? {};
        switch (msg.event) {
          case 'stopped':
            stops++;
            frameSent = false;
            askCdp();
            this.notify({
              ...base,
              kind: 'stopped',
              threadId: typeof body.threadId === 'number' ? body.threadId : undefined,
              reason: typeof body.reason === 'string' ? body.reason : undefined,
              allThreadsStopped: body.allThreadsStopped === true,
              body,
            });
            break;
          case 'continued':
            stops++;
            frameSent = true; // no frame until the next stop
            this.notify({ ...base, kind: 'continued', threadId: typeof body.threadId === 'number' ? body.threadId : undefined, body });
            break;
          case 'terminated':
            end(body);
            break;
          default:
            if (!NOT_FORWARDED.has(msg.event) && !(msg.event === 'output' && body.category === 'telemetry')) {
              this.notify({ ...base, kind: 'event', event: msg.event, body });
            }
        }
      },
      onExit: () => end(),
      onWillStopSession: () => end(),
    };
  }

  /** Runs one DAP request from the sidecar on the bridged session. */
  async request(p: DapRequestParams): Promise<unknown> {
    const s = this.sessions.get(p.vscodeSessionId);
    if (!s) throw new Error(`dapscope bridge: no live debug session ${p.vscodeSessionId}`);
    if (!ALLOWED_COMMANDS.has(p.command)) throw new Error(`dapscope bridge: command ${p.command} is not allowed`);
    if (p.command === 'evaluate') {
      const ctx = (p.arguments as { context?: unknown } | undefined)?.context;
      const codeLldbCommand = ctx === CODELLDB_COMMAND_CONTEXT && s.type === 'lldb';
      if (ctx !== undefined && !EVALUATE_CONTEXTS.has(String(ctx)) && !codeLldbCommand) throw new Error(`dapscope bridge: evaluate context ${String(ctx)} is not allowed`);
    }
    const t0 = Date.now();
    const body = await s.customRequest(p.command, p.arguments);
    this.log(`bridge ${p.command} on ${s.type} session took ${Date.now() - t0} ms`);
    return body ?? {};
  }
}

/** A CDP proxy address as js-debug returns it, or undefined when it is not one. */
export function cdpAddress(v: unknown): CdpAddress | undefined {
  const a = v as { host?: unknown; port?: unknown; path?: unknown } | undefined;
  if (!a || typeof a.host !== 'string' || typeof a.port !== 'number' || !Number.isInteger(a.port) || a.port <= 0 || a.port > 65535) return undefined;
  return typeof a.path === 'string' ? { host: a.host, port: a.port, path: a.path } : { host: a.host, port: a.port };
}

/**
 * The child configuration for debugpy's `debugpyAttach` event (debugpy < 1.8
 * announces subprocesses this way instead of a startDebugging request): the
 * body is already an attach configuration with `connect` and `subProcessId`.
 */
export function childConfiguration(body: Record<string, unknown>, parentType: string): Record<string, unknown> | undefined {
  const connect = body.connect as { port?: unknown } | undefined;
  if (body.subProcessId === undefined || typeof connect?.port !== 'number') return undefined;
  return { ...body, type: parentType, request: 'attach', name: String(body.name ?? `Subprocess ${body.subProcessId}`) };
}
