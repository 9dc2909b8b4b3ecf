"""The hall mode: the director's laptop as the server for the phones in the hall.

Owns access (host and device checks), the first start, the start panel, the laptop's
settings and the backups (writer loop, restore, page). Its processes start from
`romme.hall`; docs/hall.md."""
