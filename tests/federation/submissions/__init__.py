"""Tests of federation.submissions: endpoint, worker task, hostile archives, matching, the
sending command and the archive upload."""
