"""The benchmarks, load tests and fault runs: one entry, ``python -m bench <sub-command>``
(``python -m bench --help`` lists them; bare ``python -m bench [--short ...]`` is the timing
table). Packages by what they measure:

* ``bench.timing``: one operation at a time, timed on a fresh database (the timing table,
  standings, exports, prerendered PDFs, archive, sheet save, rule-set change, database profile);
* ``bench.engines``: the pure engines without Django (rules, seating draw, ranking points);
* ``bench.load``: many clients at once against a real server (scorers, phones, the hall, readers);
* ``bench.faults``: faults tried for real (PostgreSQL restarts, full disks, the hall, live);
* ``bench.live``: live replication between a laptop and a server;
* ``bench.federation``: the federation's ranking, public list and submissions at scale;
* ``bench.leagues``: league play at scale (division tables, approvals, closing a season);
* ``bench.rigs``: what they share (the timing harness, data sets, servers, sheet forms).

Nothing in the app imports bench (an import contract in pyproject.toml checks it).
"""
