"""Browser tests (make test-browser). A package, so that its conftest is e2e.conftest and does not
shadow tests/conftest.py, which the other test modules import as ``conftest``."""
