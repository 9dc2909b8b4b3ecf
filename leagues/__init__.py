"""League play (Ligaspielbetrieb): an association's league seasons with divisions in
levels, the clubs' teams and rosters, match days hosted by clubs (each a tournaments.Event
of the host club), their approved results, the division tables, the end of the season with
promotion and relegation, and the public league pages.

The rules themselves (day result, ranking chains, table, proposal) are pure Python in
`rules.leagues`; this app stores, checks permissions and shows."""
