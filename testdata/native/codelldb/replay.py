# replay.py: CodeLLDB's evaluate dispatch, replayed in the lldb of Debian's
# lldb-19 (CodeLLDB itself is in no registry the test machines reach).
# It follows CodeLLDB's handle_evaluate and handle_execute_command
# (src/codelldb/src/debug_session/variables.rs of CodeLLDB 1.12.2): frame ids are
# handles from 1000; "repl" in the default console mode ("commands") runs
# the text as an LLDB command and answers an empty result, its output going
# to the Debug Console; "_command" runs a command and answers its output;
# any other context evaluates an expression. A command's result tees its
# output into the console (CodeLLDB sets the console pipe as the result's
# immediate output file): here a file, which the test reads.
#
# Run: DAPSCOPE_REPLAY_BIN=… DAPSCOPE_REPLAY_SOURCE=… DAPSCOPE_REPLAY_LINE=…
# DAPSCOPE_REPLAY_CONSOLE=… lldb-19 -b -o 'command script import replay.py'.
# It prints READY once the program is stopped at the line, then answers one
# JSON evaluate request per stdin line with one JSON line on stdout.
import json
import os

import lldb


def _write(obj):
    os.write(1, (json.dumps(obj) + '\n').encode())


def _lines():
    buf = b''
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return
        buf += chunk
        while b'\n' in buf:
            line, buf = buf.split(b'\n', 1)
            yield line


def _command(debugger, console, text, frame, return_output):
    result = lldb.SBCommandReturnObject()
    result.SetImmediateOutputFile(console)
    interp = debugger.GetCommandInterpreter()
    interp.HandleCommand(text, lldb.SBExecutionContext(frame), result, False)
    if result.Succeeded():
        return {'result': (result.GetOutput() or '').rstrip() if return_output else ''}
    return {'error': (result.GetError() or '').rstrip()}


def _evaluate(frame, text):
    v = frame.EvaluateExpression(text)
    if not v.GetError().Success():
        return {'error': v.GetError().GetCString() or 'error'}
    return {'result': v.GetSummary() or v.GetValue() or '', 'type': v.GetDisplayTypeName() or ''}


def __lldb_init_module(debugger, internal_dict):
    debugger.SetAsync(False)
    target = debugger.CreateTarget(os.environ['DAPSCOPE_REPLAY_BIN'])
    target.BreakpointCreateByLocation(os.environ['DAPSCOPE_REPLAY_SOURCE'], int(os.environ['DAPSCOPE_REPLAY_LINE']))
    info = lldb.SBLaunchInfo([])
    info.AddOpenFileAction(1, os.devnull, False, True)
    err = lldb.SBError()
    process = target.Launch(info, err)
    if not err.Success() or process.GetState() != lldb.eStateStopped:
        _write({'fatal': 'not stopped: %s' % err})
        return
    thread = process.GetSelectedThread()
    handles = {1000 + i: thread.GetFrameAtIndex(i) for i in range(thread.GetNumFrames())}
    console = open(os.environ['DAPSCOPE_REPLAY_CONSOLE'], 'w')
    _write({'ready': True})
    for line in _lines():
        req = json.loads(line)
        text, ctx = req.get('expression', ''), req.get('context')
        frame = handles.get(req.get('frameId'))
        if frame is None:
            _write({'error': 'Invalid frameId'})
        elif ctx == 'repl':  # console mode "commands"
            _write(_evaluate(frame, text[1:]) if text.startswith('?') else _command(debugger, console, text, frame, False))
        elif ctx == '_command':
            _write(_command(debugger, console, text, frame, True))
        else:
            _write(_evaluate(frame, text))
        console.flush()
    process.Kill()
