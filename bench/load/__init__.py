"""Many clients at once against a real server (``python -m bench load``, ``python -m bench
readers``): scorers at their desks (sheets), the phones of the table links (phones), the laptop
in the hall with its display and spectators (hall, hall_watchers), and readers of the public
standings beside scorers (readers, read_clients, scorers, server_cpu). What the runs share (the
fresh database, the worker killer) is in shared."""
