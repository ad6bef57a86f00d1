# wrongparent.py: a hostile kernel for the tests: a real ipykernel whose
# replies (shell and control) name a parent msg_id that no client sent,
# correctly signed. Its IOPub status messages are left as they are.
import uuid

from ipykernel.kernelapp import IPKernelApp
from jupyter_client.session import Session, extract_header

_send = Session.send


def send(self, stream, msg_or_type, content=None, parent=None, *args, **kwargs):
    if isinstance(msg_or_type, str) and msg_or_type.endswith("_reply") and parent:
        header = dict(extract_header(parent))
        header["msg_id"] = "not-yours-" + uuid.uuid4().hex
        parent = header
    return _send(self, stream, msg_or_type, content, parent, *args, **kwargs)


Session.send = send

if __name__ == "__main__":
    IPKernelApp.launch_instance()
