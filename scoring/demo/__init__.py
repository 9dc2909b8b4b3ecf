"""Demo data: valid random results scored by the rules engine, and the seed of `make run`."""
