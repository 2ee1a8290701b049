"""Background work reports back on the UI thread, in order for a SerialQueue."""

from __future__ import annotations

import threading

from app.gui.background import SerialQueue, run_in_background


def test_the_function_runs_off_the_ui_thread_and_the_result_comes_back_on_it(qtbot):
    ui = threading.get_ident()
    seen = {}

    def work():
        seen["worker"] = threading.get_ident()
        return 42

    def done(value):
        seen["value"], seen["callback"] = value, threading.get_ident()

    run_in_background(work, done)
    qtbot.waitUntil(lambda: "value" in seen, timeout=5000)
    assert seen["value"] == 42
    assert seen["worker"] != ui and seen["callback"] == ui


def test_an_exception_reaches_on_error_with_its_details(qtbot):
    errors = []

    def boom():
        raise OSError("disk gone")

    run_in_background(boom, lambda _v: None, errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    assert isinstance(errors[0], OSError) and "disk gone" in errors[0].details


def test_a_serial_queue_runs_calls_one_at_a_time_in_order(qtbot):
    queue = SerialQueue()
    order, running = [], []

    def job(n):
        def fn():
            running.append(n)
            assert len(running) == 1, "two jobs ran at once"
            order.append(n)
            running.remove(n)
            return n
        return fn

    results = []
    for n in range(8):
        queue.submit(job(n), results.append)
    qtbot.waitUntil(lambda: len(results) == 8 and queue.idle, timeout=5000)
    assert order == list(range(8)) and results == list(range(8))


def test_a_job_that_ends_after_its_carrier_is_gone_says_nothing(qtbot, capsys):
    """At quit the application takes the signal carriers with it while a pool thread may
    still be finishing: the job ends quietly, with no traceback on the person's terminal."""
    import shiboken6

    from app.gui.background import _Job

    job = _Job(lambda: 42)
    shiboken6.delete(job.carrier)
    job.run()  # raised "Signal source has been deleted" from the pool thread before
    assert "Traceback" not in capsys.readouterr().err
