"""Notebooks run in real Jupyter kernels, for the tests.

jupyter_client gives a kernel free TCP ports by binding to port 0 and releasing them; a kernel
that another test process starts at the same moment can take one before this one binds it, and
the kernel dies at start ("Address already in use", seen once in make test-slow on two cores).
The kernel is then started again on new ports; a notebook's own errors are never retried.
"""
from nbclient import NotebookClient

START_ATTEMPTS = 3


def start_kernel(client: NotebookClient) -> None:
    """Start ``client``'s kernel and wait until it answers, again on new ports if it died at start."""
    for attempt in range(1, START_ATTEMPTS + 1):
        client.km = client.create_kernel_manager()
        client.start_new_kernel()
        try:
            client.start_new_kernel_client()  # on failure nbclient shuts the kernel down
            return
        except RuntimeError:  # "Kernel died before replying to kernel_info"
            if attempt == START_ATTEMPTS:
                raise


def run_notebook(nb, cwd=None, *, allow_errors: bool = False, timeout: int = 600):
    """Execute ``nb`` in place in a python3 kernel working in ``cwd``; returns it."""
    resources = {"metadata": {"path": str(cwd)}} if cwd is not None else {}
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors, resources=resources)
    start_kernel(client)
    return client.execute()
