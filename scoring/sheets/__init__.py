"""A table's score sheet: entry on the desktop and on phones at the table, the checks through the
rules engine, confirmation, disputes, rule-set changes.

`services` are the writes (through `storage`, which stores a sheet's hands and versions),
`selectors` the reads, `policy` who may do what in which status. Whole events are copied in
bulk by the archive's load and live results' apply, not through here."""
