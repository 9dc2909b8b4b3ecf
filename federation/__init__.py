"""The federation above the clubs (issue 27): one Django app, `federation`, in rooms by
concern, each with its models, services, selectors, forms, views and urls side by side.

- `associations`: associations, clubs' affiliations, roles, permissions, navigation, history
- `rankings`: rankings, the ranking status and review of event versions, the computation,
  snapshots and their rows
- `lists`: the members' ranking list and player card, their tables and prints
- `championships`: championships and their qualification list (pages and print)
- `public`: the public pages and JSON, cached per snapshot
- `submissions`: events from other installations (client, endpoint, checks, worker,
  matching, club tokens)
- `demo`: the demo federation of `make run`

Rooms import downwards only (pyproject.toml, [tool.importlinter]): associations is the
ground floor, rankings stands on it, lists, public and submissions on rankings, championships
on lists; `federation.models` gathers every room's models for Django."""
