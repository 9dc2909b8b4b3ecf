"""The laptop's side of live results (docs/live.md): what the director's laptop in the
hall does to send its event to a server. The outbox numbers every change in its own
transaction (`outbox`), the task worker sends the changed parts (`sender`, over `transport`,
which the federation's submit client uses too), a restarted worker sends what waits
(`resume`); the director sees one status line (`status`) and pairs the event with a server
on "Live veröffentlichen" (`services`, `views`, `urls`). Imports `live.shared`, never
`live.server`."""
