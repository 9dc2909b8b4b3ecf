"""Live replication between a laptop in the hall and a server: the live bench (``python -m bench
live``: measure, setup, report) and the two real installations with a TCP proxy between them
that the live faults and tests/live drive (rig, proxy)."""
