# Every target sets up .venv itself when it is missing: a fresh clone needs only make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup test demo lab solved release selfcheck bench gradescope clean test-browser

# nbgrader runs helpers (alembic) from PATH: use the venv's.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# pytest exits 5 when it collects no tests: report it as the failure it is.
test: $(STAMP)
	@$(PY) -m pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests; failing." >&2; fi; \
	exit $$status

# Browser tests (tests/e2e): the student path in JupyterLab and a feedback page, in Chromium via
# Playwright. Installs the e2e extra into .venv and, when missing, Debian's chromium
# (.ci/install-chromium; apt-get as root). Screenshots and logs: test-artifacts/browser/.
E2E_STAMP := $(VENV)/.installed-e2e
$(E2E_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[e2e]"
	touch $(E2E_STAMP)

test-browser: setup $(E2E_STAMP)
	@.ci/install-chromium
	$(PY) -m pytest -m e2e tests/e2e -p no:cacheprovider --output=test-artifacts/browser/playwright \
		--screenshot=only-on-failure --tracing=retain-on-failure

# Release the course into a scratch course root, grade three example submissions (demo-out/).
demo: $(STAMP)
	$(PY) -m autograder demo --out demo-out

# Students: JupyterLab on the released notebooks.
lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=course $(if $(filter 0,$(shell id -u)),--allow-root,)

# Self-study: the solved notebooks, executed, with their plots, as HTML in solved-out/.
solved: $(STAMP)
	$(VENV)/bin/jupyter nbconvert --to html --execute --output-dir solved-out solutions/lecture8/*.ipynb

# Instructors: regenerate course/ (the student release) from solutions/ with nbgrader.
release: $(STAMP)
	$(VENV)/bin/nbgrader generate_assignment lecture8 --force

# Instructors: the hidden suites against the solutions, the stubs and the mistake fixtures.
selfcheck: $(STAMP)
	$(PY) -m autograder selfcheck lecture8

# The Gradescope autograder zip (dist/gradescope-autograder.zip).
gradescope: $(STAMP)
	$(PY) -m autograder gradescope-zip

bench: $(STAMP)
	$(PY) bench/bench_mlp.py
	$(PY) bench/bench_small_ops.py
	$(PY) bench/bench_grader.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
