"""Hidden test suites, one package per assignment (see autograder.suite)."""
