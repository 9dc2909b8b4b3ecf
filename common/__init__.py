"""Domain-free helpers every app may import: form errors, hostile-input checks, upload limits,
history, the data folder, LAN addresses, money, the garbage-collector tuning and room on
the frame stack for every request (frame_stack).

Knows no app and no model; imports only Django and the standard library."""
