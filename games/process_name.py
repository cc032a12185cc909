"""This process's name in the socket records (``TableSocket.process``) and in its heartbeat row
(``WebProcess``, games/web_process/liveness.py): host, pid and a random part, as a pid is reused after a restart.
A module of its own, so presence (which writes the records) and liveness (which sweeps them) both
read it without importing each other."""
import os
import secrets
import socket

PROCESS = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
