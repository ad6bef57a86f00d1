# A stand-in for a Jupyter kernel's namespace, for Go tests that run the
# probe outside a kernel: an IPython InteractiveShell runs the cells of a
# JSON list (argv[1]) as a notebook does (history, In/Out, _N, _iN), then
# evaluates one expression per stdin line as ipykernel's user_expressions
# does (eval in the user namespace) and answers one JSON line:
# {"result": str} or {"error": str}. {"names": true} answers the sorted
# names of the namespace, {"module": NAME} whether sys.modules holds NAME.
import json
import os
import sys

from IPython.core.interactiveshell import InteractiveShell

real_stdout = sys.stdout
sys.stdout = open(os.devnull, "w")  # the cells' Out[n] echo
shell = InteractiveShell.instance()
for cell in json.loads(sys.argv[1]):
    r = shell.run_cell(cell, store_history=True)
    if not r.success:
        raise SystemExit("cell failed: %r" % (cell,))
sys.stdout = real_stdout
for line in sys.stdin:
    req = json.loads(line)
    try:
        if isinstance(req, dict) and req.get("names"):
            out = {"result": json.dumps(sorted(shell.user_ns))}
        elif isinstance(req, dict) and "module" in req:
            out = {"result": json.dumps(req["module"] in sys.modules)}
        else:
            v = eval(req, shell.user_global_ns, shell.user_ns)
            out = {"result": v if isinstance(v, str) else repr(v)}
    except Exception as e:
        out = {"error": "%s: %s" % (type(e).__name__, e)}
    real_stdout.write(json.dumps(out) + "\n")
    real_stdout.flush()
