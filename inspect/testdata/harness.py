# A stand-in for debugpy's evaluate, for Go tests that run the probe outside
# a debugger: runs a fixture program (argv[1]) without its main(), calls its
# build() to get the frame's locals, then evaluates one expression per stdin
# line exactly as pydevd does (merged globals+locals, globals() = the module
# globals) and answers one JSON line: {"result": str} or {"error": str}.
import json
import os
import runpy
import sys

os.environ["DAPSCOPE_FIXTURE_NO_MAIN"] = "1"
real_stdout = sys.stdout
sys.stdout = sys.stderr
G = runpy.run_path(sys.argv[1], run_name="__main__")
L = G["build"]()
sys.stdout = real_stdout
merged = dict(G)
merged.update(L)
merged["globals"] = lambda: G
for line in sys.stdin:
    expr = json.loads(line)
    try:
        v = eval(expr, merged)
        out = {"result": v if isinstance(v, str) else repr(v)}
    except Exception as e:
        out = {"error": "%s: %s" % (type(e).__name__, e)}
    real_stdout.write(json.dumps(out) + "\n")
    real_stdout.flush()
