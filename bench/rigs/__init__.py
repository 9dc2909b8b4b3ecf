"""The rigs room: what every bench package shares and imports, never the other way round: the
timing harness and its fresh database (harness), the data sets (datasets), servers started as
production or the hall mode runs them and a browser-like client (serving, production), and the
score sheet's form as a browser posts it (sheet_form)."""
