"""The server's side of live results (docs/live.md): what a club's or the federation's
server does with a laptop's event. The endpoint (`api`) checks the token (`tokens`) and the
numbers, the apply lays the parts over the server's copy (`apply`, `apply_rows`,
`apply_errors`); while the laptop owns the event the owner's guard refuses every other write
and a director can take it over (`services`), or give it back to a laptop (`handback`); the
club's tokens, the take-over and the hand-back have their pages (`views`, `handback_views`,
`urls`). Imports `live.shared`, never `live.laptop`."""
