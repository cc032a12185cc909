"""A web process's own life, beside the sockets it serves: its heartbeat (liveness), its drain on
SIGTERM (shutdown), its scheduled full garbage collection (collector), the watch on its event loop
(loop_watch). Operations that the table's code needs (a socket's close asks ``shutdown``, the sweep
asks ``liveness``), so they sit in games, below ``ops`` (docs/ARCHITECTURE.md, "Where pages and
operations live")."""
