"""wheels.toml gives cibuildwheel exactly the intended build identifiers (printing them needs no containers), and
the GitHub workflow that runs it is valid, builds the same platforms, each on a runner of its CPU or under QEMU."""

import subprocess
import sys

import pytest

from support.paths import ROOT

PYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314", "cp314t"]
INTENDED = {
    "linux": [f"{py}-{libc}_{arch}" for libc in ("manylinux", "musllinux") for arch in ("x86_64", "aarch64", "ppc64le", "s390x", "riscv64")
              for py in PYTHONS],
    "macos": [f"{py}-macosx_{arch}" for arch in ("x86_64", "arm64") for py in PYTHONS],
    "windows": [f"{py}-win_{arch}" for arch in ("amd64", "arm64") for py in PYTHONS],
}

pytestmark = [pytest.mark.skipif(not (ROOT / "wheels.toml").exists(), reason="needs the source checkout"),
              pytest.mark.tooling]


@pytest.mark.parametrize("platform", sorted(INTENDED))
def test_build_identifiers(platform, tmp_path):
    pytest.importorskip("cibuildwheel", reason="cibuildwheel is in the test extras")
    result = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform,
                             "--config-file", str(ROOT / "wheels.toml"), str(ROOT)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.split()) == sorted(INTENDED[platform])


WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
# The CPU of each GitHub-hosted runner the workflow may use: a wheel is built where it is tested, on a
# runner of its CPU or, for the CPUs GitHub has none of, on an x86-64 runner under QEMU.
EMULATED = {"ppc64le", "s390x", "riscv64"}
RUNNER_ARCH = {"ubuntu-24.04": "x86_64", "ubuntu-24.04-arm": "aarch64", "macos-15-intel": "x86_64", "macos-15": "arm64",
               "windows-2025": "AMD64", "windows-11-arm": "ARM64"}


def wheels_toml():
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11 or later")
    return tomllib.loads((ROOT / "wheels.toml").read_text())["tool"]["cibuildwheel"]


def workflow_matrix():
    yaml = pytest.importorskip("yaml", reason="pyyaml is in the release extra (part of the test extras)")
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["wheels"]["strategy"]["matrix"]["include"]


def test_the_workflow_builds_exactly_the_platforms_of_wheels_toml_each_on_its_own_cpu():
    config = wheels_toml()
    intended = {(platform, arch) for platform in ("linux", "macos", "windows") for arch in config[platform]["archs"]}
    matrix = workflow_matrix()
    assert {(job["platform"], job["arch"]) for job in matrix} == intended
    assert len(matrix) == len(intended)
    for job in matrix:
        if job["arch"] in EMULATED:
            assert job.get("qemu") is True and RUNNER_ARCH.get(job["runner"]) == "x86_64", job
        else:
            assert RUNNER_ARCH.get(job["runner"]) == job["arch"] and "qemu" not in job, f"{job}: not a runner of that CPU"
    yaml = pytest.importorskip("yaml")
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["wheels"]["steps"]
    assert [s.get("if") for s in steps if "setup-qemu-action" in s.get("uses", "")] == ["matrix.qemu"]


def test_the_emulated_wheels_run_the_binding_tests_without_numpy():
    (override,) = [o for o in wheels_toml()["overrides"] if "s390x" in o["select"]]
    assert set(override["select"].split()) == {f"*-*linux_{arch}" for arch in EMULATED}
    assert "numpy" not in override["test-requires"] and '-m "binding and ' in override["test-command"][-1]


def test_every_wheel_build_requires_every_kernel_family():
    assert wheels_toml()["config-settings"] == {"cmake.define.LIBSHA_REQUIRE_ALL_KERNELS": "ON"}


def check_jsonschema(path):
    pytest.importorskip("check_jsonschema", reason="check-jsonschema is in the release extra (part of the test extras)")
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(path)],
                          capture_output=True, text=True)


def test_the_workflow_is_valid_for_github(tmp_path):
    result = check_jsonschema(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr
    # The schema does catch mistakes: a job without runs-on, a misspelt key.
    broken = tmp_path / "wheels.yml"
    broken.write_text(WORKFLOW.read_text().replace("    runs-on: ${{ matrix.runner }}\n", "    run-on: ${{ matrix.runner }}\n"))
    result = check_jsonschema(broken)
    assert result.returncode != 0 and "run-on" in result.stdout + result.stderr, result.stdout


def test_the_workflow_builds_each_versions_wheel_then_abi3_then_py3_for_every_python():
    # Each CPython's own wheel first (and 3.13t's with cibuildwheel 3), then the abi3 one (LIBSHA_ABI3,
    # for later versions), then py3-none for the rest: a py3-none wheel built first would be reused
    # for 3.11+ and the accelerator never built.
    yaml = pytest.importorskip("yaml", reason="pyyaml is in the release extra (part of the test extras)")
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["wheels"]["steps"]
    passes = [step["env"] for step in steps if "cibuildwheel" in step.get("run", "") and "CIBW_BUILD" in step.get("env", {})]
    selectors = [env["CIBW_BUILD"].split() for env in passes]
    assert selectors == [["cp311-*", "cp312-*", "cp313-*", "cp314-*", "cp314t-*"], ["cp313t-*"], ["cp311-*"],
                         ["cp39-*", "cp310-*"]]
    assert passes[1]["CIBW_ENABLE"] == "cpython-freethreading" and passes[2]["LIBSHA_ABI3"] == "1"
    assert "LIBSHA_ABI3" not in passes[0] and "LIBSHA_ABI3" not in passes[3]
    assert {s.removesuffix("-*") for selectors_ in selectors for s in selectors_} == set(PYTHONS) | {"cp313t"}
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'if.env.LIBSHA_ABI3 = true' in pyproject and 'wheel.py-api = "cp311"' in pyproject
    assert 'cmake.define.LIBSHA_ACCEL_VERSION_SPECIFIC = "ON"' in pyproject
