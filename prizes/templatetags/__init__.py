"""Template filters for money and prizes."""
