"""Tests of the package romme-ledger: the wheel's contents, the command line, the doctor."""
