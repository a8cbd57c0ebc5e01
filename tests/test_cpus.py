"""`grade --jobs` defaults to the CPUs the grader may use: its affinity and its cgroup's CPU
quota (v2's cpu.max, v1's cfs quota and period), the smaller, at least 1 (issue 46, item 5)."""

from autograder.cpus import cgroup_quota, default_jobs, quota_from_cfs, quota_from_cpu_max, usable_cpus


def test_cgroup_v2_cpu_max_is_read_as_cpus():
    assert quota_from_cpu_max("200000 100000\n") == 2.0
    assert quota_from_cpu_max("150000 100000") == 1.5
    assert quota_from_cpu_max("max 100000\n") is None  # no quota
    assert quota_from_cpu_max("") is None and quota_from_cpu_max("garbage here") is None


def test_cgroup_v1_quota_and_period_are_read_as_cpus():
    assert quota_from_cfs("200000\n", "100000\n") == 2.0
    assert quota_from_cfs("-1\n", "100000\n") is None  # no quota
    assert quota_from_cfs("x", "100000") is None


def test_the_smaller_of_affinity_and_quota_and_at_least_one():
    assert usable_cpus(64, 2.0) == 2  # deploy/jupyterhub's instructor server on a many-core host
    assert usable_cpus(2, 8.0) == 2  # an affinity narrower than the quota
    assert usable_cpus(64, None) == 64
    assert usable_cpus(8, 1.5) == 1 and usable_cpus(8, 0.5) == 1


def test_the_quota_is_found_in_the_process_own_cgroup(tmp_path):
    own = tmp_path / "user.slice" / "grader"
    own.mkdir(parents=True)
    (own / "cpu.max").write_text("200000 100000\n")
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cgroup_quota(tmp_path, "0::/user.slice/grader\n") == 2.0
    (tmp_path / "cpu.max").write_text("100000 100000\n")  # the namespace's root is tighter
    assert cgroup_quota(tmp_path, "0::/user.slice/grader\n") == 1.0


def test_a_v1_hierarchy_and_none_at_all(tmp_path):
    assert cgroup_quota(tmp_path, "") is None
    v1 = tmp_path / "cpu,cpuacct"
    v1.mkdir()
    (v1 / "cpu.cfs_quota_us").write_text("300000\n")
    (v1 / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_quota(tmp_path, "4:cpu,cpuacct:/\n") == 3.0


def test_the_default_is_within_this_process_affinity():
    import os

    assert 1 <= default_jobs() <= len(os.sched_getaffinity(0))
