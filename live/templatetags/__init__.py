"""Template tags of live results: the laptop's status line and the server's received-copy banner."""
