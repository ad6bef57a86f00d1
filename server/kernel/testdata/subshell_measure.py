# subshell_measure.py: does a silent call in an ipykernel 7 subshell (JEP 91)
# keep from queueing behind, or delaying, the user's cells? Run with the
# modern leg: .venv/bin/python server/kernel/testdata/subshell_measure.py
import time, statistics
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="python3")
kc.wait_for_ready(timeout=60)
def ctl(msg_type, content):
    msg = kc.session.msg(msg_type, content)
    kc.control_channel.send(msg)
    while True:
        r = kc.control_channel.get_msg(timeout=10)
        if r["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
            return r
r = ctl("create_subshell_request", {})
sid = r["content"].get("subshell_id")
print("subshell:", r["content"])
def send(code, subshell=None, silent=False, exprs=None):
    msg = kc.session.msg("execute_request", {"code": code, "silent": silent, "store_history": not silent,
        "user_expressions": exprs or {}, "allow_stdin": False, "stop_on_error": False})
    if subshell:
        msg["header"]["subshell_id"] = subshell
    kc.shell_channel.send(msg)
    return msg["header"]["msg_id"]
def wait(mid):
    while True:
        r = kc.shell_channel.get_msg(timeout=30)
        if r["parent_header"].get("msg_id") == mid:
            return r
# 50 names
wait(send("import numpy as np, pandas as pd\nfor i in range(50): globals()[f'v{i}'] = pd.DataFrame({'a': np.arange(200.0)}) if i%2 else list(range(i))"))
summ = "str({k: (type(v).__name__, getattr(v,'shape',None) or len(v)) for k,v in list(globals().items()) if k.startswith('v')})"
# 1) a silent evaluation while a 0.5 s user cell runs
for where in (None, sid):
    t0 = time.perf_counter(); u = send("import time; time.sleep(0.5)")
    time.sleep(0.05)
    t1 = time.perf_counter(); e = send("", where, True, {"v": "1+1"})
    # replies may come in any order
    got = {}
    while len(got) < 2:
        r = kc.shell_channel.get_msg(timeout=30); got[r["parent_header"]["msg_id"]] = time.perf_counter()
    print("evaluate during a 0.5 s cell,", "subshell" if where else "main shell", ": %.1f ms" % ((got[e]-t1)*1000))
# 2) user's trivial cells, each followed at once by a summary (main shell vs subshell), vs none
for mode in ("none", "main", "subshell"):
    ts = []
    for i in range(40):
        t0 = time.perf_counter(); mid = send("x = 1")
        # wait for this reply (summary replies of the previous loop may interleave)
        while True:
            r = kc.shell_channel.get_msg(timeout=30)
            if r["parent_header"]["msg_id"] == mid: break
        ts.append((time.perf_counter()-t0)*1000)
        if mode != "none":
            send("", sid if mode == "subshell" else None, True, {"s": summ})
    time.sleep(0.3)
    while True:
        try: kc.shell_channel.get_msg(timeout=0.2)
        except Exception: break
    print("cell x = 1 with summary on %-8s: median %.2f ms, p90 %.2f ms" % (mode, statistics.median(ts), sorted(ts)[int(len(ts)*0.9)]))
kc.stop_channels(); km.shutdown_kernel(now=True)
