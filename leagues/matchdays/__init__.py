"""Match days: the host club's event, the captains' line-ups, the day's result computed from the
stored totals, submitted and approved by the officer."""
