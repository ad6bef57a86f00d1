# echokernel.py: a real non-Python kernel for the tests: ipykernel's
# wrapper-kernel API (the one bash_kernel and other language kernels are
# built on) with language "echo". It echoes cells and, like most non-Python
# kernels, evaluates no user_expressions.
from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel


class EchoKernel(Kernel):
    implementation = "echo"
    implementation_version = "1.0"
    language = "echo"
    language_version = "1.0"
    language_info = {"name": "echo", "mimetype": "text/plain", "file_extension": ".txt"}
    banner = "Echo kernel"

    def do_execute(self, code, silent, store_history=True, user_expressions=None, allow_stdin=False):
        if not silent:
            self.send_response(self.iopub_socket, "stream", {"name": "stdout", "text": code})
        return {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}


if __name__ == "__main__":
    IPKernelApp.launch_instance(kernel_class=EchoKernel)
