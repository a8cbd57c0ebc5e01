"""Hidden suites for lecture 8, "Neural Network Library Implementation"."""
