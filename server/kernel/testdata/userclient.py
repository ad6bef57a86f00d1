# userclient.py: the user's own notebook client in the kernel tests:
# jupyter_client's BlockingKernelClient on a connection file, driven by JSON
# lines on stdin. It runs cells as a notebook does and keeps every IOPub
# message that its own requests did not cause ("foreign"), so a test can
# check what another client made it see.
import json
import queue
import sys
import threading

from jupyter_client import BlockingKernelClient

kc = BlockingKernelClient(connection_file=sys.argv[1])
kc.load_connection_file()
kc.start_channels()
kc.wait_for_ready(timeout=60)
mine = kc.session.session
lock = threading.Lock()
foreign = []
by_parent = {}


def pump():
    while True:
        try:
            m = kc.get_iopub_msg(timeout=0.1)
        except queue.Empty:
            continue
        except Exception:
            return
        parent = m.get("parent_header") or {}
        with lock:
            if parent.get("session") == mine:
                by_parent.setdefault(parent.get("msg_id"), queue.Queue()).put(m)
            else:
                foreign.append({
                    "msg_type": m["msg_type"],
                    "content": m["content"],
                    "parent_session": parent.get("session", ""),
                    "parent_msg_type": parent.get("msg_type", ""),
                })


def outputs_of(msg_id):
    with lock:
        q = by_parent.setdefault(msg_id, queue.Queue())
    out = []
    while True:
        m = q.get(timeout=60)
        out.append({"msg_type": m["msg_type"], "content": m["content"]})
        if m["msg_type"] == "status" and m["content"].get("execution_state") == "idle":
            return out


def reply_of(msg_id):
    while True:
        r = kc.get_shell_msg(timeout=60)
        if r["parent_header"].get("msg_id") == msg_id:
            return r["content"]


threading.Thread(target=pump, daemon=True).start()
print(json.dumps({"ready": True, "session": mine}), flush=True)
pending = {}
for line in sys.stdin:
    cmd = json.loads(line)
    op = cmd["op"]
    if op == "execute":
        msg_id = kc.execute(cmd["code"], silent=cmd.get("silent", False))
        if cmd.get("wait", True):
            reply = reply_of(msg_id)
            res = {"reply": reply, "outputs": outputs_of(msg_id)}
        else:
            pending[msg_id] = True
            res = {"msg_id": msg_id}
    elif op == "wait":
        reply = reply_of(cmd["msg_id"])
        res = {"reply": reply, "outputs": outputs_of(cmd["msg_id"])}
    elif op == "foreign":
        with lock:
            res = {"foreign": foreign[:]}
            foreign.clear()
    elif op == "quit":
        break
    else:
        res = {"error": "unknown op " + op}
    print(json.dumps(res, default=str), flush=True)
kc.stop_channels()
