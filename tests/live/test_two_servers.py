"""Two real installations (issue 28): the laptop in hall mode (`python -m romme.hall`, SQLite,
its task worker) sends its event to gunicorn on PostgreSQL through a TCP proxy on
127.0.0.1; the network is cut in the middle of a batch while the director goes on
confirming, and the server converges to the laptop's event once it is back, archives equal
field by field. The rig is the fault run's (bench/live/rig.py, bench/live/proxy.py).

Runs in both passes of CI (the server's database is on 127.0.0.1:5432 either way: its own
``test_live_two_<pid>``, created and dropped). Without PostgreSQL it is skipped, except in
CI, where it must run."""

from __future__ import annotations

import os
import threading
import time

import pytest

from bench.live import rig
from bench.live.proxy import Proxy

PROXY, SERVER, LAPTOP = 8725, 8726, 8727
POSTGRES = "postgres://postgres@127.0.0.1:5432"


def _postgres() -> bool:
    import psycopg

    try:
        psycopg.connect(f"{POSTGRES}/postgres", connect_timeout=3).close()
    except psycopg.OperationalError:
        return False
    return True


@pytest.fixture
def two(tmp_path):
    if not _postgres():
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL on 127.0.0.1:5432 is needed for the two-server test")
        pytest.skip("PostgreSQL on 127.0.0.1:5432 not reachable")
    db = f"{POSTGRES}/test_live_two_{os.getpid()}"
    folder = tmp_path / "laptop"
    log = open(tmp_path / "processes.log", "wb")  # noqa: SIM115 - closed below
    proxy, processes, seeded = Proxy(PROXY, SERVER), {}, {}

    def laptop():  # seeded and started while the server is prepared
        seeded.update(rig.seed_laptop(folder, 24))
        processes["laptop"] = rig.start_laptop(folder, LAPTOP, log)

    seeding = threading.Thread(target=laptop)
    try:
        seeding.start()
        _club, token = rig.prepare_server(db)
        processes["server"] = rig.start_server(db, SERVER, log)
        seeding.join()
        assert "laptop" in processes, "the laptop did not start"
        proxy.start()
        yield folder, db, seeded, token, proxy
    finally:
        seeding.join()
        proxy.stop()
        rig.stop(processes.get("laptop"), group=True)
        rig.stop(processes.get("server"))
        log.close()
        rig.drop_db(db)
        text = (tmp_path / "processes.log").read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]


def test_the_server_converges_to_the_laptop_through_a_network_cut(two):
    folder, db, seed, token, proxy = two
    event = seed["event"]
    director = rig.Director(f"http://127.0.0.1:{LAPTOP}", seed)
    assert director.pair(f"http://127.0.0.1:{PROXY}", token) == 302
    assert director.play() and director.play()
    assert rig.wait_converged(folder, db, event, 30) is not None, rig.state(folder, db, event)

    # The network goes in the middle of the next batch; the director goes on.
    cut = proxy.cut_next_batch()
    assert director.play()
    assert cut.wait(20) and not proxy.up
    assert director.play() and director.play()  # (the third corrects a confirmed sheet)
    time.sleep(1.0)
    last, acked, held = rig.state(folder, db, event)
    assert last > acked == held  # changes wait, none lost on either side
    pages = director.look()
    assert [p.status for p in pages] == [200, 200]
    assert all("warten" in p.text for p in pages), [p.text for p in pages]

    proxy.start()
    assert rig.wait_converged(folder, db, event, 40) is not None, rig.state(folder, db, event)
    differences, mine, theirs = rig.compare_archives(folder, db, event)
    assert differences == [] and mine == theirs > 0
    assert director.corrections == 1
    assert all(200 <= p.status < 400 for p in director.pages), director.pages
    answered = [d for d in proxy.deliveries if d.status == 200]
    assert [d.last_seq for d in answered] == sorted(d.last_seq for d in answered)
    assert [d.how for d in proxy.deliveries].count("cut mid-body") == 1
