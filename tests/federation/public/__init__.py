"""Tests of federation.public: the public pages and the JSON."""
