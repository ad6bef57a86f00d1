# dapscope wake patch for debugpy/pydevd -- UNINSTALL (any version).
#
# Embedded in the dapscope binary (server/adapter/debugpy_wake.go) and exec()'d in the debuggee
# by ONE DAP "evaluate" request, like debugpy_wake_install.py, when a session
# detaches from a debuggee that keeps running (attach).
# It does not need to know what the installed version changed: the install left
# its own undo callable in pydevd's module globals (__dapscope_wake__).
# RESULT: "uninstalled vN", "uninstalled vN (partial: ...)", "not installed",
# or "error: ..." -- never raises.

def _uninstall():
    import sys
    mod = sys.modules.get('pydevd')
    if mod is None:
        return 'not installed'
    gs = [vars(mod)]
    try:
        dbg = mod.get_global_debugger()
        g2 = type(dbg)._do_wait_suspend.__globals__ if dbg is not None else None
        if isinstance(g2, dict) and g2 is not gs[0]:
            gs.append(g2)
    except Exception:
        pass
    for g in gs:
        st = g.get('__dapscope_wake__')
        if st is not None:
            return st['uninstall']()
    return 'not installed'


try:
    RESULT = _uninstall()
except Exception as _e:
    RESULT = 'error: %r' % (_e,)
