"""Events from other installations (issue 27, point 4): the sending client, the endpoint and
its checks, the worker's task, matching arriving players to the register, club tokens, and
the officer's pages."""
