"""``warcouncil serve``: the board page and the referee service over HTTP
(FastAPI under uvicorn, the optional extra ``warcouncil[serve]``; imported
only by the verb). app.py answers the requests, pool.py runs their work in
a bounded pool of worker processes, work.py is what a worker does.
"""

from __future__ import annotations


def run(group, host: str = "127.0.0.1", port: int = 8000, workers: int | None = None, queue: int = 64,
        timeout: float = 30.0, memory: int = 1 << 30) -> None:
    """Serve the verbs of ``group`` (the command line's click group, given by
    the ``serve`` verb as ``batch.run`` is given it) until interrupted."""
    import uvicorn

    from .app import make_app

    app = make_app(group, workers, queue, timeout, memory)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
