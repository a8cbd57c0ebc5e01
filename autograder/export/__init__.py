"""What grading writes for people: grades.csv, results.json and feedback pages (``report``), the
nbgrader gradebook and exchange, Canvas / Moodle CSVs, the class insights and the originality
report."""
