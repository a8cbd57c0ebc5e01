# Every target sets up .venv itself when it is missing: a fresh clone needs only make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup test test-slow demo lab solved release selfcheck bench gradescope clean test-browser numpy-floor test-added-lecture

# nbgrader runs helpers (alembic) from PATH: use the venv's.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

# ASSIGNMENT=lecture8 limits release/selfcheck/solved/gradescope to one assignment; by default
# they run for every assignment: a folder in both solutions/ and autograder/suites/, as
# autograder/course.py's Course.assignments() has it.
folders_in = $(notdir $(patsubst %/,%,$(wildcard $(1)/*/)))
ASSIGNMENTS = $(or $(ASSIGNMENT),$(sort $(filter $(call folders_in,solutions),$(filter-out _% .%,$(call folders_in,autograder/suites)))))

# The course's Jupyter kernel (the notebooks select it): this venv's Python, registered in the venv.
KERNEL   := $(VENV)/share/jupyter/kernels/needle-course/kernel.json
# nbgrader's exchange: course-local unless NBGRADER_EXCHANGE names a shared one (nbgrader_config.py).
EXCHANGE := $(or $(NBGRADER_EXCHANGE),$(CURDIR)/nbgrader/exchange)

# .venv, the needle-course kernel, and nbgrader's exchange (mode 1777, as nbgrader requires).
setup: $(STAMP) $(KERNEL)
	@if [ -z "$$(find '$(EXCHANGE)' -maxdepth 0 -perm -1777 2>/dev/null)" ]; then \
	  if mkdir -p '$(EXCHANGE)' && chmod 1777 '$(EXCHANGE)'; then echo "nbgrader exchange: $(EXCHANGE)"; \
	  else echo "make setup: cannot make nbgrader's exchange $(EXCHANGE) (mode 1777); as its owner or root run: mkdir -p '$(EXCHANGE)' && chmod 1777 '$(EXCHANGE)'" >&2; exit 1; fi; \
	fi

$(STAMP): pyproject.toml
	@echo "Setting up $(VENV): pip shows its progress (several minutes the first time: it downloads and installs JupyterLab, nbgrader, the test tools and their dependencies)."
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e ".[dev]"
	touch $(STAMP)

# numpy's BLAS on one thread, as the grader runs it: the course's matrices are small, and threads
# that wait on each other took a 20-seed experiment of 07 from 8 s to 75 s on a busy machine.
# Rewritten when this file changes, so an existing .venv gets the setting too.
$(KERNEL): $(STAMP) Makefile
	$(PY) -m ipykernel install --sys-prefix --name needle-course --display-name "Python 3 (needle-course)" --env OPENBLAS_NUM_THREADS 1 --env OMP_NUM_THREADS 1

# The suite but for its slow end-to-end parts (make test-slow), on every core (pytest-xdist), then
# the few tests that fork the test process itself (marked forks) serially: a pytest-xdist worker is
# threaded, and a child forked from it can hang on a lock another thread held.
# $(call PYTEST,args): run pytest, remembering a failure in $$status; exit 5 is "collected no
# tests", a failure too.
PYTEST = $(PY) -m pytest $(1) || { s=$$?; [ $$s -ne 5 ] || echo "make: pytest $(1) collected no tests; failing." >&2; status=$$s; }
# the serial phase of the tests marked forks: none selected is fine
PYTEST_FORKS = $(PY) -m pytest $(1) || { s=$$?; [ $$s -eq 5 ] || status=$$s; }

test: setup
	@status=0; \
	$(call PYTEST,-n auto -m "not slow and not forks"); \
	$(call PYTEST_FORKS,-m "not slow and forks"); \
	exit $$status

# The slow end-to-end parts (marked slow; .ci/run runs them after make test): every notebook executed
# (solved with its hidden tests, released up to its first stub), nbgrader's own route against the
# grader, nbgrader's exchange, the course pipeline (deadlines, regrades, gradebook) and Gradescope.
test-slow: setup
	@status=0; \
	$(call PYTEST,-n auto -m "slow and not forks" -p no:cacheprovider); \
	$(call PYTEST_FORKS,-m "slow and forks" -p no:cacheprovider); \
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

# Release lecture8 into a scratch course root, grade three example submissions (demo-out/).
demo: setup
	$(PY) -m autograder demo --out demo-out --assignment $(or $(ASSIGNMENT),lecture8)

# Students: JupyterLab on course/ (the released notebooks), opened at course/lecture8/
# (ASSIGNMENT=... another), with the course's kernel and nbgrader's student side
# (deploy/jupyterhub/student/: the Assignments panel on this course's exchange, fetching into and
# submitting from course/, no formgrader), as the student repository's make lab. Ctrl-C stops it.
# NO_BROWSER=1: print the URL, open no browser.
LAB_FLAGS = $(if $(filter-out 0,$(NO_BROWSER)),--no-browser,) $(if $(filter 0,$(shell id -u)),--allow-root,)
lab: setup
	@NBGRADER_EXCHANGE='$(EXCHANGE)' JUPYTER_CONFIG_PATH='$(CURDIR)/deploy/jupyterhub/student' \
	  $(PY) deploy/student-repo/foreground.py $(VENV)/bin/jupyter lab --ServerApp.root_dir='$(CURDIR)/course' \
	  --ServerApp.default_url=/lab/tree/$(or $(ASSIGNMENT),lecture8) $(LAB_FLAGS)

# Instructors: JupyterLab on the repository root (solutions/, formgrader, the course's kernel), with
# the venv on PATH (formgrader runs alembic from it). A gradebook.db that a formgrader started
# without alembic on PATH left without its alembic_version table is stamped first, as nbgrader
# stamps a new one. NO_BROWSER=1 as for lab.
define GRADEBOOK_STAMP
import sqlite3
db = sqlite3.connect("gradebook.db")
tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
if tables and "alembic_version" not in tables:
    from nbgrader.api import get_alembic_version
    version = get_alembic_version()
    db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
    db.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (version,))
    db.commit()
    print(f"gradebook.db had no alembic_version table (made without alembic on PATH): stamped {version}")
endef
export GRADEBOOK_STAMP

.PHONY: instructor-lab test-hub
instructor-lab: setup
	@test ! -f gradebook.db || $(PY) -c "$$GRADEBOOK_STAMP"
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(CURDIR) $(LAB_FLAGS)

# The class on JupyterHub (deploy/jupyterhub/), end to end on 127.0.0.1: tests/e2e/test_hub.py.
# Installs the hub extra and, when not on PATH, configurable-http-proxy from npm into CHP_DIR.
HUB_STAMP := $(VENV)/.installed-hub
CHP_DIR   ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/needle-course/configurable-http-proxy
$(HUB_STAMP): $(STAMP)
	$(PY) -m pip install -e ".[hub]"
	touch $(HUB_STAMP)

test-hub: $(HUB_STAMP) setup
	@command -v configurable-http-proxy >/dev/null || test -x '$(CHP_DIR)/node_modules/.bin/configurable-http-proxy' || { \
	  command -v npm >/dev/null || { echo "make test-hub: configurable-http-proxy comes from npm: install Node.js 20+ and npm" >&2; exit 1; }; \
	  echo "installing configurable-http-proxy from npm into $(CHP_DIR)"; \
	  npm install --prefix '$(CHP_DIR)' --no-audit --no-fund --loglevel=error configurable-http-proxy@5; }
	PATH='$(CHP_DIR)/node_modules/.bin':"$$PATH" $(PY) -m pytest -m hub tests/e2e/test_hub_config.py tests/e2e/test_hub.py -p no:cacheprovider

# Grading on Dask (--scheduler): tests/test_cluster.py, and tests/e2e/test_cluster_e2e.py with a real
# `dask scheduler` and two `dask worker`s on 127.0.0.1 (one killed mid-run). Installs the cluster extra.
CLUSTER_STAMP := $(VENV)/.installed-cluster
$(CLUSTER_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e ".[cluster]"
	touch $(CLUSTER_STAMP)

.PHONY: test-cluster
test-cluster: setup $(CLUSTER_STAMP)
	$(PY) -m pytest -m cluster tests/test_cluster.py tests/e2e/test_cluster_e2e.py -p no:cacheprovider

# Self-study: the solved notebooks, executed, with their plots, as HTML in solved-out/<assignment>/.
solved: setup
	@for a in $(ASSIGNMENTS); do \
	  $(VENV)/bin/jupyter nbconvert --to html --execute --output-dir solved-out/$$a solutions/$$a/*.ipynb || exit 1; \
	done

# Instructors: regenerate course/<assignment>/ (the student release) from solutions/ with nbgrader.
release: $(STAMP)
	@for a in $(ASSIGNMENTS); do $(PY) -m autograder tasks $$a && $(VENV)/bin/nbgrader generate_assignment $$a --force || exit 1; done

# Instructors: the hidden suites against the solutions, the stubs and the mistake fixtures.
selfcheck: $(STAMP)
	@for a in $(ASSIGNMENTS); do $(PY) -m autograder selfcheck $$a || exit 1; done

# The Gradescope autograder zip of each assignment (dist/gradescope-autograder-<assignment>.zip).
gradescope: $(STAMP)
	@for a in $(ASSIGNMENTS); do $(PY) -m autograder gradescope-zip --assignment $$a || exit 1; done

# Benchmarks: ratios measured side by side in one run (the table in docs/benchmarks.md).
bench: setup
	$(PY) bench/bench_mlp.py
	$(PY) bench/bench_small_ops.py
	$(PY) bench/bench_memory.py
	$(PY) bench/bench_viz.py
	$(PY) bench/bench_grader.py
	$(PY) bench/bench_grader_phases.py --repeat 1
	$(PY) bench/bench_originality.py

# needle's tests against the lowest numpy pyproject.toml allows (a throwaway venv; needs PyPI).
numpy-floor:
	tests/numpy_floor.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

# The students' repository (dist/student-repo, or STUDENT_REPO=DIR): course/, needle/ and coursekit/ as they
# are here (no __pycache__), the Assignments panel's config as jupyter-config/, and the Makefile,
# README, pyproject.toml and .gitignore of deploy/student-repo/. No solutions, suites or grader.
# A folder is replaced only when empty or built by this target before (.student-repo marks it).
STUDENT_REPO ?= dist/student-repo
.PHONY: student-repo
student-repo:
	@if [ -e '$(STUDENT_REPO)' ] && [ -n "$$(ls -A '$(STUDENT_REPO)')" ] && [ ! -e '$(STUDENT_REPO)/.student-repo' ]; then \
	  echo "make student-repo: $(STUDENT_REPO) holds other files; choose an empty or new folder with STUDENT_REPO=DIR" >&2; exit 1; fi
	rm -rf '$(STUDENT_REPO)' && mkdir -p '$(STUDENT_REPO)'
	tar -cf - --exclude=__pycache__ --exclude=.ipynb_checkpoints course needle coursekit | tar -xf - -C '$(STUDENT_REPO)'
	mkdir '$(STUDENT_REPO)/jupyter-config' && tar -cf - --exclude=__pycache__ -C deploy/jupyterhub/student . | tar -xf - -C '$(STUDENT_REPO)/jupyter-config'
	cp deploy/student-repo/Makefile deploy/student-repo/README.md deploy/student-repo/pyproject.toml deploy/student-repo/foreground.py '$(STUDENT_REPO)/'
	cp deploy/student-repo/gitignore '$(STUDENT_REPO)/.gitignore'
	touch '$(STUDENT_REPO)/.student-repo'
	@echo "student repository: $(STUDENT_REPO) (publish it, e.g. git init there; give students this, never this repository)"

# Self-study in a browser tab (docs/self-study.md): make lite builds the JupyterLite site lite/site/
# (the released notebooks, needle and coursekit, numpy, matplotlib and Pyodide itself, served by any static host)
# with lite/build.py in a venv of its own, lite/.venv (the lite extra; JupyterLite's kernel extension
# would log errors in the course's JupyterLab); downloads are cached in lite/.cache/. make test-lite
# serves the site on 127.0.0.1 and runs notebook 01 in Chromium with every other host blocked
# (tests/e2e/test_lite.py; screenshots, timings and sizes in test-artifacts/lite/).
LITE_VENV  := lite/.venv
LITE_STAMP := $(LITE_VENV)/.installed
.PHONY: lite test-lite
$(LITE_STAMP): pyproject.toml
	test -x $(LITE_VENV)/bin/python || $(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip install --quiet -e ".[lite]"
	touch $(LITE_STAMP)

lite: $(LITE_STAMP)
	$(LITE_VENV)/bin/python lite/build.py

test-lite: lite $(E2E_STAMP)
	@.ci/install-chromium
	$(PY) -m pytest -m "e2e or lite" tests/e2e/test_lite.py -p no:cacheprovider -rP \
		--output=test-artifacts/lite/playwright --screenshot=only-on-failure --tracing=retain-on-failure

# The student repository set up as a student would (its own make setup from PyPI, minutes):
# tests/test_student_repo.py with the slow test enabled. .ci/run runs it after make test.
.PHONY: test-student-repo
# A second lecture added as docs/instructors.md says, in a clone of HEAD: make test stays green
# (a clone's own make setup, release, selfcheck and make test: about 15 minutes).
test-added-lecture:
	bash tests/added_lecture.sh

test-student-repo: setup
	NEEDLE_TEST_STUDENT_SETUP=1 $(PY) -m pytest -q tests/test_student_repo.py -p no:cacheprovider
