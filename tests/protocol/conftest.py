"""The protocol's tests: the bots in ``bots/`` are programs the tests run, not tests."""

collect_ignore_glob = ["bots/*"]
