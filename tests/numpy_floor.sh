#!/usr/bin/env bash
# needle's own tests against the LOWEST numpy that pyproject.toml allows (make test runs them
# against the newest). numpy's promotion rules changed in 2.0 (NEP 50), and needle promises the
# same dtypes on both. Runs in a throwaway venv; needs PyPI. Extra arguments go to pytest.
#   tests/numpy_floor.sh            # PYTHON=python3.11 tests/numpy_floor.sh to pick the interpreter
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

floor=$("$PYTHON" -c '
import re, tomllib
deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
(spec,) = [d for d in deps if re.match(r"numpy\b", d)]
print(re.fullmatch(r"numpy\s*>=\s*([0-9.]+)", spec).group(1))
')
dev=$("$PYTHON" -c '
import re, tomllib
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["grader"]
print(" ".join(d for d in extras if re.match(r"(pytest|hypothesis)\b", d)))
')

venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
"$PYTHON" -m venv "$venv"
# shellcheck disable=SC2086  # $dev is a list of requirement specifiers
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "numpy==$floor" $dev
echo "numpy_floor: numpy $("$venv/bin/python" -c 'import numpy; print(numpy.__version__)') (pyproject.toml: numpy>=$floor)"

# needle from this checkout (the current directory comes first on sys.path); no conftest, whose
# course fixtures need the autograder's dependencies, not needle's.
"$venv/bin/python" -m pytest --noconftest -p no:cacheprovider -q \
    tests/test_ops.py tests/test_autograd.py tests/test_properties.py tests/test_nn.py \
    tests/test_optim.py tests/test_tuple_ops.py tests/test_init.py tests/test_lecture_claims.py \
    tests/test_numerics.py tests/test_scalars.py tests/test_data.py "$@"
