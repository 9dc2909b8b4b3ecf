"""Championships qualified for from a ranking: places per region, title holders, wildcards,
the qualification list with its explanation, its pages and its print."""
