"""Worker processes end with the process that started them, however that one ends.

A worker waiting on a queue never sees its end of file when the parent dies (it holds a write
end of that queue itself), so each worker watches its parent. On Linux the kernel sends it
SIGTERM when the parent dies (prctl's parent-death signal). That signal fires when the *thread*
that started the worker ends: the match's pool and the app both start their workers from the
main thread, which lasts as long as the process. Everywhere, a thread in the worker also looks
twice a second: on POSIX an orphan is handed to another parent, so its parent's pid changes; on
Windows multiprocessing's handle on the parent process says when it has ended.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.process import BaseProcess

# The signals that ask a process to end (Ctrl+C aside): the match and the app end cleanly on them.
END_SIGNALS = (signal.SIGTERM,) if sys.platform == "win32" else (signal.SIGTERM, signal.SIGHUP)
PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
POLL_SECONDS = 0.5
ORPHANED = 1  # the worker's exit status when it ends because its parent has


def end_with_parent() -> None:
    """Call first thing in a worker process: it then ends when its parent does."""
    parent_pid = os.getppid()
    for signum in END_SIGNALS:  # a forked worker has its parent's handlers: they are not its own
        signal.signal(signum, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl here: the watching thread is enough
            pass
    watch = threading.Thread(
        target=_watch,
        args=(parent_pid, multiprocessing.parent_process()),
        daemon=True,
        name="parent watch",
    )
    watch.start()


def _watch(parent_pid: int, parent: BaseProcess | None) -> None:
    while os.getppid() == parent_pid and (parent is None or parent.is_alive()):
        time.sleep(POLL_SECONDS)
    os._exit(ORPHANED)


def abandon(executor: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel the work not started and end the workers busy with the rest
    (the pool's workers must be this process's only children), rather than wait for it, as
    `shutdown` does: what Ctrl+C, a time limit or enough results ask of a long job."""
    processes = multiprocessing.active_children()
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
