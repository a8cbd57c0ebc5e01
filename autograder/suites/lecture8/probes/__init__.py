"""Probes: run inside the sandbox on the student's namespace; no expected values here."""
