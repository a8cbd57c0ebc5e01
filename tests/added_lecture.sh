#!/usr/bin/env bash
# A lecture added as docs/instructors.md says ("Adding a lecture": folders only, then the documented
# commands) leaves `make test` green: a clone of this commit gets tests/fixtures/lecture_fixture as
# lecture9 (the docs' example name), released and selfchecked with make, then runs make test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/course"
cd "$work/course"
cp -r tests/fixtures/lecture_fixture/solutions/lecture_fixture solutions/lecture9
cp -r tests/fixtures/lecture_fixture/suites/lecture_fixture autograder/suites/lecture9
make setup
make release ASSIGNMENT=lecture9
make selfcheck ASSIGNMENT=lecture9
make test
echo "added-lecture: lecture9 beside lecture8, make test passed"
