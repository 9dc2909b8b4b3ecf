"""A table's score sheets and everything read from them: sheets, standings, exports, the event
archive and the demo data.

Owns the models Sheet, SheetVersion, Hand, HandSeat (`scoring.models`); asks `rules` for every
check and every point; builds on `tournaments` and `clubs`."""
