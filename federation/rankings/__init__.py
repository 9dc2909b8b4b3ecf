"""Rankings of an association: their settings, an event's ranking status (request, grant,
submission, review and approval of its versions), reading an event into what a ranking
counts, computing the list into snapshots with their rows, and reading those snapshots."""
