"""Entry point for `python -m app` and for the frozen app (build.spec starts here)."""

import sys

if __name__ == "__main__":
    # Documents are read in a worker process (app/core/documents/worker.py), started with
    # multiprocessing's spawn: in the frozen app that worker is this very program, told so
    # by its arguments, and freeze_support() runs it and exits before anything else does.
    # Unfrozen, freeze_support() does nothing, and multiprocessing is not worth importing
    # for it (`harness-desk engines` counts every millisecond over bare Python).
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()

    from app.cli import main

    sys.exit(main())
