# dapscope wake patch for debugpy/pydevd -- INSTALL (version 1).
#
# Embedded in the dapscope binary (server/adapter/debugpy_wake.go) and exec()'d inside the
# debuggee, in a fresh namespace, by ONE DAP "evaluate" request at the first
# stop of a debugpy session.  When it finishes, the name RESULT holds a short
# status string, which the sidecar logs:
#     "installed v1"        the patch is now active
#     "already v1"          it was active before (idempotent)
#     "skipped: <reason>"   feature detection failed; nothing was changed
# It never raises: any unexpected error becomes "skipped: internal error: ...".
#
# Why: a thread stopped in debugpy <= 1.8.5 runs
#     while suspended: process_internal_commands(); time.sleep(0.01)
# so a request for that thread (evaluate, variables, step, goto...) waits up to
# 10 ms.  debugpy 1.8.6+ waits on a per-thread event itself and is skipped.
#
# What it does (only when the detected shape matches, see _detect):
#  (a) the global name `time` of the module that defines PyDB._do_wait_suspend
#      (pydevd.py) is replaced by a copy of the time module whose sleep(S), when
#      called directly from PyDB._do_wait_suspend with S equal to the loop's
#      constant (0.01), waits on a per-thread wake object (a raw lock used as a
#      binary semaphore) with the same timeout; the wake is consumed by the
#      wait.  Every other sleep goes to the real time.sleep.  Idle timing is
#      unchanged (the timeout is still the loop's constant).
#  (b) PyDB.post_internal_command is wrapped: after the original queues the
#      command, the wake of the target thread is set ('*' sets all of them).
#  (c) right after a woken wait, if the thread is no longer suspended (the
#      command was a step / set-next-statement), the next sleep is skipped
#      (at most once per wake, so the loop can never spin).
# The state (originals, wakes, counters, uninstall callable) lives in the
# pydevd module globals under __dapscope_wake__ (the only name it adds);
# debugpy_wake_uninstall.py calls state['uninstall']().
#
# Keep this file ASCII-only, free of pydevd's at-LINE-at marker (rewritten in
# expressions) and of Python-3.6+-only syntax (no f-strings) so that even an
# old interpreter returns "skipped: ..." instead of a SyntaxError.

VERSION = 1
MARK = '__dapscope_wake__'


def _find_sleep_pattern(code):
    """Return ([float consts of every `time.sleep(<float>)` in code], calls process_internal_commands?)."""
    import dis
    ins = [i for i in dis.get_instructions(code)
           if i.opname not in ('CACHE', 'EXTENDED_ARG', 'NOP', 'PRECALL', 'PUSH_NULL')]
    consts = []
    for k in range(len(ins) - 2):
        a, b, c = ins[k], ins[k + 1], ins[k + 2]
        if (a.opname == 'LOAD_GLOBAL' and a.argval == 'time'
                and b.opname in ('LOAD_ATTR', 'LOAD_METHOD') and b.argval == 'sleep'
                and c.opname == 'LOAD_CONST' and isinstance(c.argval, float)):
            consts.append(c.argval)
    has_process = 'process_internal_commands' in code.co_names
    return consts, has_process


def _detect(cls, g):
    """Return None if the pydevd shape is the one we patch, else a reason string."""
    import sys
    import types
    if getattr(sys, 'implementation', None) is None or sys.implementation.name != 'cpython':
        return 'not CPython'
    if not hasattr(sys, '_getframe'):
        return 'sys._getframe is unavailable'
    fn = cls.__dict__.get('_do_wait_suspend')
    if not isinstance(fn, types.FunctionType):
        return 'PyDB._do_wait_suspend is not a plain Python function'
    if fn.__globals__ is not g:
        return 'unexpected globals for PyDB._do_wait_suspend'
    if hasattr(cls, 'get_internal_queue_and_event'):
        # debugpy >= 1.8.6 (pydevd with sys.monitoring support): the wait loop
        # already blocks on a per-thread event that post_internal_command sets.
        return 'wait loop is already event driven (debugpy >= 1.8.6)'
    try:
        consts, has_process = _find_sleep_pattern(fn.__code__)
    except Exception as e:  # dis failed on this interpreter
        return 'cannot disassemble _do_wait_suspend: %r' % (e,)
    if not has_process:
        return '_do_wait_suspend does not call process_internal_commands'
    if len(consts) != 1:
        return '_do_wait_suspend has %d time.sleep(<float>) calls, expected 1' % len(consts)
    if consts[0] <= 0 or consts[0] > 0.1:
        return 'unexpected wait-loop sleep %r' % (consts[0],)

    real_time = g.get('time')
    if not isinstance(real_time, types.ModuleType) or getattr(real_time, '__name__', None) != 'time':
        return 'pydevd global `time` is not the time module (%r)' % (type(real_time),)
    real_sleep = getattr(real_time, 'sleep', None)
    if type(real_sleep).__name__ != 'builtin_function_or_method' or \
            getattr(real_sleep, '__module__', None) != 'time':
        return 'time.sleep is monkey-patched (gevent/eventlet?)'
    consts_mod = sys.modules.get('_pydevd_bundle.pydevd_constants')
    if consts_mod is not None and getattr(consts_mod, 'SUPPORT_GEVENT', False):
        return 'pydevd runs with GEVENT_SUPPORT'

    post = cls.__dict__.get('post_internal_command')
    if not isinstance(post, types.FunctionType):
        return 'PyDB.post_internal_command is not a plain Python function (already wrapped?)'
    pc = post.__code__
    if pc.co_argcount != 3 or pc.co_varnames[:3] != ('self', 'int_cmd', 'thread_id'):
        return 'unexpected post_internal_command signature %r' % (pc.co_varnames[:pc.co_argcount],)
    if 'put' not in pc.co_names:
        return 'post_internal_command does not queue.put'

    thr = g.get('threading')
    if thr is None or not hasattr(thr, 'current_thread'):
        return 'pydevd global `threading` missing'
    if not callable(g.get('get_current_thread_id')):
        return 'pydevd global get_current_thread_id missing'
    return None


def _find_pydevd():
    """Return (PyDB class, its module globals) or raise LookupError(reason)."""
    import sys
    mod = sys.modules.get('pydevd')
    if mod is None:
        raise LookupError('pydevd is not loaded')
    dbg = None
    getter = getattr(mod, 'get_global_debugger', None)
    if callable(getter):
        dbg = getter()
    cls = type(dbg) if dbg is not None else getattr(mod, 'PyDB', None)
    if cls is None or not isinstance(cls, type):
        raise LookupError('PyDB class not found')
    fn = getattr(cls, '_do_wait_suspend', None)
    g = getattr(fn, '__globals__', None)
    if not isinstance(g, dict):
        raise LookupError('PyDB._do_wait_suspend has no globals')
    return cls, g


def _make_state(cls, g):
    import os
    import sys
    import types
    import functools

    fn = cls.__dict__['_do_wait_suspend']
    wait_code = fn.__code__
    wait_secs = _find_sleep_pattern(wait_code)[0][0]
    real_time = g['time']
    orig_post = cls.__dict__['post_internal_command']
    thread_mod = g.get('thread')  # pydevd's saved (un-monkey-patched) _thread
    if not hasattr(thread_mod, 'allocate_lock'):
        import _thread as thread_mod
    allocate_lock = thread_mod.allocate_lock

    class Wake(object):
        # Binary semaphore on one raw lock: locked = no pending wake.  set() from
        # any thread releases it (a second set() finds it released: no-op); the
        # sleeper's lock.acquire(True, timeout) both consumes the wake and
        # re-arms it atomically, so no wake can be lost between wait and clear.
        # One C call per idle iteration, measured as cheap as time.sleep (an
        # Event.wait costs a Condition, a fresh lock and Python frames per call).
        __slots__ = ('lock', 'woken')

        def __init__(self):
            self.lock = allocate_lock()
            self.lock.acquire()
            self.woken = False

        def set(self):
            try:
                self.lock.release()
            except RuntimeError:  # already released: a wake is pending
                pass

    current_thread = g['threading'].current_thread
    get_current_thread_id = g['get_current_thread_id']
    getframe = sys._getframe
    events = {}  # pydevd thread id -> Wake
    stats = {'waits': 0, 'woken': 0, 'wakes': 0, 'wake_all': 0, 'fast_exit': 0}
    # Fast exit: the loop is `while state == SUSPEND: process_internal_commands();
    # sleep()`, so a command that resumes the thread (step, set next statement)
    # would still be followed by one full sleep.  Right after a woken wait, if the
    # thread's state is no longer STATE_SUSPEND, that one sleep is skipped (the
    # loop then re-checks the state under its lock and exits).  At most one skip
    # per wake, so it can never spin.
    state_suspend = g.get('STATE_SUSPEND')
    if not (isinstance(state_suspend, int) and 'pydev_state' in wait_code.co_names
            and 'STATE_SUSPEND' in wait_code.co_names):
        state_suspend = None
    PRUNE_AT = [64]

    def _event_for(tid):
        ev = events.get(tid)
        if ev is None:
            ev = events.setdefault(tid, Wake())
            if len(events) > PRUNE_AT[0]:
                _prune()
        return ev

    def _prune():
        # Drop events of threads that no longer exist (rare: only when the
        # table grows past PRUNE_AT).
        try:
            alive = set()
            for t in g['threading'].enumerate():
                tid = getattr(t, '__pydevd_id__', None)  # read only: no side effect
                if tid is not None:
                    alive.add(tid)
            for tid in list(events):
                if tid not in alive:
                    events.pop(tid, None)
            PRUNE_AT[0] = max(64, 2 * len(events))
        except Exception:
            pass

    # Thread -> pydevd id without calling Python code: threading._active[get_ident()]
    # and the id pydevd caches on the thread object.  While a thread is suspended
    # every Python-level call it makes goes through pydevd's trace function, so
    # the idle path of sleep() below makes no Python calls at all (only C
    # builtins); the fallback is pydevd's own get_current_thread_id.
    active = getattr(g['threading'], '_active', None)
    get_ident = getattr(thread_mod, 'get_ident', None)
    if not (isinstance(active, dict) and callable(get_ident)):
        active = {}
        get_ident = int

    def sleep(secs):
        if secs == wait_secs:
            try:
                caller = getframe(1).f_code
            except Exception:
                caller = None
            if caller is wait_code:
                t = active.get(get_ident())
                tid = getattr(t, '__pydevd_id__', None)
                if tid is None:
                    try:
                        t = current_thread()
                        tid = get_current_thread_id(t)
                    except Exception:
                        tid = None
                if tid is not None:
                    ev = events.get(tid)
                    if ev is None:
                        ev = _event_for(tid)
                    if ev.woken:
                        ev.woken = False
                        if state_suspend is not None:
                            info = getattr(t, 'additional_info', None)
                            if getattr(info, 'pydev_state', state_suspend) != state_suspend:
                                stats['fast_exit'] += 1
                                return None
                    stats['waits'] += 1
                    if ev.lock.acquire(True, secs):  # woken (and re-armed)
                        stats['woken'] += 1
                        ev.woken = True
                    return None
        return real_time.sleep(secs)

    try:
        sleep.__doc__ = real_time.sleep.__doc__
    except Exception:
        pass

    def _wake(thread_id):
        try:
            if thread_id == '*':
                stats['wake_all'] += 1
                for ev in list(events.values()):
                    ev.set()
                return
            if thread_id.startswith('__frame__'):  # same mapping as get_internal_queue
                thread_id = thread_id[thread_id.rfind('|') + 1:]
            stats['wakes'] += 1
            _event_for(thread_id).set()
        except Exception:
            pass

    @functools.wraps(orig_post)
    def post_internal_command(self, int_cmd, thread_id):
        try:
            return orig_post(self, int_cmd, thread_id)
        finally:
            _wake(thread_id)

    post_internal_command._dapscope_wake = VERSION

    proxy = types.ModuleType(real_time.__name__, real_time.__doc__)
    proxy.__dict__.update(real_time.__dict__)
    proxy.sleep = sleep
    proxy.__getattr__ = lambda name: getattr(real_time, name)  # PEP 562 fallback
    proxy._dapscope_wake_real = real_time

    state = {'version': VERSION, 'status': 'installing', 'stats': stats,
             'events': events, 'wait_secs': wait_secs, 'pid': os.getpid(),
             'fast_exit': state_suspend is not None}

    def is_intact():
        return g.get('time') is proxy and cls.__dict__.get('post_internal_command') is post_internal_command

    def uninstall():
        notes = []
        try:
            if g.get('time') is proxy:
                g['time'] = real_time
            else:
                notes.append('pydevd.time was replaced by someone else; left as is')
            if cls.__dict__.get('post_internal_command') is post_internal_command:
                setattr(cls, 'post_internal_command', orig_post)
            else:
                notes.append('PyDB.post_internal_command was replaced by someone else; left as is')
            for ev in list(events.values()):  # let sleepers return promptly
                ev.set()
            events.clear()
            if g.get(MARK) is state:
                del g[MARK]
            state['status'] = 'uninstalled'
        except Exception as e:
            notes.append('error: %r' % (e,))
        return 'uninstalled v%d' % VERSION + (' (partial: %s)' % '; '.join(notes) if notes else '')

    def activate():
        g['time'] = proxy
        setattr(cls, 'post_internal_command', post_internal_command)
        if hasattr(os, 'register_at_fork'):
            # A forked child keeps the patch (same module/class objects) but
            # starts with fresh wake objects (no parent thread state).  A fork
            # hook cannot be unregistered: after an uninstall it clears a dead,
            # empty dict (one tiny closure per install in that process).
            os.register_at_fork(after_in_child=events.clear)
        state['status'] = 'installed'

    state['is_intact'] = is_intact
    state['uninstall'] = uninstall
    state['activate'] = activate
    return state


def _install():
    import sys
    if sys.version_info < (3, 7):
        return 'skipped: python %d.%d < 3.7' % tuple(sys.version_info[:2])
    try:
        cls, g = _find_pydevd()
    except LookupError as e:
        return 'skipped: %s' % (e,)
    for _ in range(3):
        st = g.get(MARK)
        if st is not None:
            if st.get('version') == VERSION and st.get('status') in ('installing', 'installed'):
                if st.get('status') == 'installing' or st['is_intact']():
                    return 'already v%d' % VERSION
            # Other version, or partially undone by someone: remove and redo.
            try:
                st['uninstall']()
            except Exception:
                pass
            if g.get(MARK) is st:
                del g[MARK]
            continue
        reason = _detect(cls, g)
        if reason:
            return 'skipped: ' + reason
        state = _make_state(cls, g)
        if g.setdefault(MARK, state) is not state:
            continue  # lost a race with a concurrent install: re-check
        try:
            state['activate']()
        except Exception as e:
            state['uninstall']()
            return 'skipped: activation failed: %r' % (e,)
        return 'installed v%d' % VERSION
    return 'skipped: could not claim install marker'


try:
    RESULT = _install()
except Exception as _e:  # never surface an error to the user
    RESULT = 'skipped: internal error: %r' % (_e,)
