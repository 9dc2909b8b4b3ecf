"""Domain-free helpers every app may import: form errors, hostile-input checks, upload limits,
history, the data folder, LAN addresses, money and the garbage-collector tuning.

Knows no app and no model; imports only Django and the standard library."""
