"""What the registry tells the apps above it, which it may not import (imports point down).

``public_names_changed`` is sent inside the write's transaction when a name that public
results show changed: ``player_ids`` and ``club_ids`` (sets of ids). Tournaments raises the
results version of every event that shows them, so no cached public page keeps an old name.
"""

from django.dispatch import Signal

# Names shown on public standings: a player's name and number, a club's name and short name.
PUBLIC_PLAYER_FIELDS = frozenset({"given_name", "family_name", "player_number"})
PUBLIC_CLUB_FIELDS = frozenset({"name", "short_name"})

public_names_changed = Signal()
