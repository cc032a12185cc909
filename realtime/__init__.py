"""The socket transport the whole site shares: sending on commit, the table hub, the channel layers,
each socket's guard, limit, outbox and order (README.md, "Architecture map")."""
