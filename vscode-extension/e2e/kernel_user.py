"""The notebook user of the kernel e2e scenario (scenario-kernel.mjs): a
jupyter_client BlockingKernelClient on the e2e kernel, driven line by line
on stdin, answering one JSON line per command on stdout:

  run CODE_JSON   a visible cell, as a notebook runs it (history, In[n]);
                  waits for its reply: {"status", "execution_count"}
  start CODE_JSON the same without waiting (a long cell): {"msg_id"}
  wait            waits for the reply of the last started cell
  state           the kernel as the user can see it, asked silently:
                  execution count, len(In), the history's length, the
                  user's names; and every IOPub message seen so far whose
                  request is not this client's, by type
  quit            closes the client (the kernel stays; run.sh stops it)

An IOPub thread records from the start what other clients caused: dapscope
must cause nothing but status messages.
"""
import json
import sys
import threading

from jupyter_client import BlockingKernelClient

STATE = {
    "count": "get_ipython().execution_count",
    "in_len": "len(In)",
    "history": "len(list(get_ipython().history_manager.get_range(output=False)))",
    "names": "sorted(k for k in globals() if not k.startswith('_') and k not in "
    "('In', 'Out', 'get_ipython', 'exit', 'quit'))",
}


def main():
    kc = BlockingKernelClient(connection_file=sys.argv[1])
    kc.load_connection_file()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    foreign = {}
    lock = threading.Lock()
    stop = threading.Event()

    def iopub():
        while not stop.is_set():
            try:
                msg = kc.get_iopub_msg(timeout=0.2)
            except Exception:
                continue
            parent = msg.get("parent_header") or {}
            if parent.get("session") and parent.get("session") != kc.session.session:
                with lock:
                    t = msg["header"]["msg_type"]
                    foreign[t] = foreign.get(t, 0) + 1

    th = threading.Thread(target=iopub, daemon=True)
    th.start()
    last = None

    def reply(msg_id, timeout=120):
        while True:
            r = kc.get_shell_msg(timeout=timeout)
            if r["parent_header"].get("msg_id") == msg_id:
                return r["content"]

    for line in sys.stdin:
        cmd, _, arg = line.strip().partition(" ")
        if cmd == "run":
            c = reply(kc.execute(json.loads(arg), store_history=True))
            out = {"status": c["status"], "execution_count": c.get("execution_count"), "error": c.get("evalue")}
        elif cmd == "start":
            last = kc.execute(json.loads(arg), store_history=True)
            out = {"msg_id": last}
        elif cmd == "wait":
            c = reply(last)
            out = {"status": c["status"], "execution_count": c.get("execution_count")}
        elif cmd == "state":
            c = reply(kc.execute("", silent=True, store_history=False, user_expressions=STATE))
            vals = {}
            for k, v in c["user_expressions"].items():
                vals[k] = v["data"]["text/plain"] if v.get("status") == "ok" else "error: " + v.get("evalue", "")
            with lock:
                out = {"state": vals, "foreign": dict(foreign)}
        elif cmd == "quit":
            break
        else:
            out = {"error": "unknown command " + cmd}
        print(json.dumps(out), flush=True)
    stop.set()
    th.join(2)
    kc.stop_channels()


if __name__ == "__main__":
    main()
