"""The score sheet page as a browser fills it: the version the page was loaded at and a whole
sheet of random, valid hands as the form posts it (the scorers of bench.load, bench.faults
and the live rig all send these)."""

from __future__ import annotations

import random
import re


def sheet_version(html: str) -> int:
    match = re.search(r'name="expected_version" value="(\d+)"', html)
    if not match:
        raise RuntimeError("no expected_version on the sheet page")
    return int(match.group(1))


def sheet_post(ruleset, size: int, rounds: int, rng: random.Random, version: int) -> dict:
    from rules import random_hand

    data = {"first_dealer": "0", "expected_version": str(version), "action": "submit"}
    for n in range(1, rounds * size + 1):
        hand = random_hand(ruleset, size, rng, dealer=(n - 1) % size)
        for k, seat in enumerate(hand.seats, start=1):
            data[f"cell-{n}-{k}"] = "0" if hand.winner == k - 1 else str(seat.hand_points)
            if seat.melded is not None:
                data[f"melded-{n}-{k}"] = str(seat.melded)
        if hand.is_hand_romme:
            data[f"romme-{n}"] = "1"
    return data
