"""A signal while the main process waits for its workers is acted on between two slices of the wait, outside the
executor's locks: no traceback from concurrent.futures' management thread ("release unlocked lock"), one
Interrupted, workers gone."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_SCRIPT = textwrap.dedent("""
    import os, signal, sys, threading, time
    from rsb_sim.interrupt import Interrupted, stop_on_signals
    from rsb_sim.workers import worker_pool

    def tiny(i):
        return i * i

    delay = float(sys.argv[1])
    main = threading.main_thread().ident
    threading.Timer(delay, lambda: signal.pthread_kill(main, signal.SIGINT)).start()
    with stop_on_signals():
        try:
            with worker_pool(2) as pool:
                while True:  # results arriving as fast as the workers make them: the management thread is busy
                    futures = [pool.submit(tiny, i) for i in range(200)]
                    for f in pool.as_completed(futures):
                        pool.result(f)
        except Interrupted as exc:
            print("interrupted", exc.signum, flush=True)
""")


@pytest.mark.parametrize("delay", [0.3, 0.45, 0.6, 0.75, 0.9, 1.1])
def test_sigint_while_waiting_for_workers_is_one_clean_stop(delay):
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(delay)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert proc.stdout.strip() == "interrupted 2", (proc.stdout, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr and "unlocked lock" not in proc.stderr, proc.stderr[-2000:]


def test_a_signal_during_a_wait_is_raised_outside_concurrent_futures(monkeypatch):
    """The signal arrives inside the executor's wait; Interrupted is raised by rsb's own code once the wait's slice
    is over, not from a frame of threading or concurrent.futures (where it could leave a lock half-released)."""
    import concurrent.futures as cf
    import os
    import signal
    import traceback

    from rsb_sim import workers
    from rsb_sim.interrupt import Interrupted, stop_on_signals

    real = cf.wait
    sent = []

    def wait_with_a_signal(*args, **kwargs):
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # delivered now, in the middle of the wait
        return real(*args, **kwargs)

    monkeypatch.setattr(workers.cf, "wait", wait_with_a_signal)
    with stop_on_signals():
        with pytest.raises(Interrupted) as info:
            with workers.worker_pool(1) as pool:
                pool.result(pool.submit(sum, [1, 2]))
    frames = [f.filename for f in traceback.extract_tb(info.value.__traceback__)]
    assert not any("concurrent" in f or f.endswith("threading.py") for f in frames), frames
