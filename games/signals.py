"""What other apps (ratings, tournaments, moderation) may react to, without games knowing about
them. (What they add to the table socket itself, commands and per-socket state: games/socket_hooks.py.)"""
from django.dispatch import Signal

# Sent inside the transaction that finishes a match, with ``match`` (games.models.Match, already
# saved with its ranks) and ``table``. Receivers run in that transaction: anything that must not run
# twice or before the commit belongs in ``transaction.on_commit`` or an idempotent task.
match_finished = Signal()

# Sent (with ``live``, a games.loading.Live, and ``user``, the socket's user, maybe anonymous)
# while a socket's snapshot is built: each receiver returns a dict of extra top-level keys for it,
# or None. Read-only.
snapshot_extras = Signal()

# Sent (with ``user``, maybe anonymous) while a socket's snapshot is built: each receiver returns
# the ids of the players whose chat lines that user is not shown (moderation: those he muted), or
# None. Read-only. (Lines said later are dropped by the socket: games/socket_hooks.py ``hides``.)
chat_hidden = Signal()

# Sent inside the transaction in which a bot takes over a player's seat (4-player games), with
# ``match``, ``seat`` (index) and ``deal`` (games.models.Deal in play, or None): the seat's moves
# from then on are the bot's (the post-match analysis leaves them out).
seat_taken_over = Signal()

# What a process measures of itself (ops/ counts them for Prometheus); sent outside any transaction,
# so a receiver never delays a commit. ``move_committed``: a move committed, with ``game`` and ``by``
# ("person" or "bot"). ``move_answered``: a person's move over a table socket, from the frame's
# receipt until its commit's messages were handed on, with ``seconds``. ``refused``: a socket
# answered an error, with its ``code``. ``bot_thought``: a searching bot chose, with ``level``,
# ``seconds`` (thinking) and ``late`` (seconds its search started after the move was due).
move_committed = Signal()
move_answered = Signal()
refused = Signal()
bot_thought = Signal()
