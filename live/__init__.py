"""Live results from the hall (docs/live.md): one Django app, label "live", in three rooms.

- `live.laptop`: the sending side (the director's laptop in the hall): the outbox, the
  sender and its HTTP, the resume after a restart, the status line, the pairing page.
- `live.server`: the receiving side (a club's or the federation's server): the endpoint,
  the apply, the tokens, the owner's guard, the hand-over and the hand-back, their pages.
- `live.shared`: what both sides read: the protocol and the event cut into parts.

The sides never import each other (an import-linter contract). What stays here is what
Django expects of an app (models, admin, apps, migrations, commands, template tags), the
URLs of both sides in one namespace, and the one receiver that serves both sides
(`live.receivers`: the laptop's outbox and the server's owner guard, one query).
"""
