"""What both sides of live results read (docs/live.md): the protocol, the contract of the
batch and its answers (`protocol`), and the event archive cut into parts, fingerprinted
and put back together (`parts`). Imports neither `live.laptop` nor `live.server`."""
