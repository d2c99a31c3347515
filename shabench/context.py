"""What a run was measured on: the header of every table and the JSON `context`."""

import datetime
import os
import platform
import ssl
import subprocess
import sys

import libsha

OPTIMISED_BUILDS = ("Release", "RelWithDebInfo", "MinSizeRel")


def cpu_model():
    """The CPU's marketing name, as the OS reports it."""
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
                for line in f:
                    key, _, value = line.partition(":")
                    if key.strip() in ("model name", "Hardware", "Model"):
                        return value.strip()
        except OSError:
            pass
    if sys.platform == "darwin":
        try:
            return subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True,
                                  text=True, timeout=5).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "unknown"


def collect(options):
    return {
        "cpu": cpu_model(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "features": libsha.dispatch.cpu_features(),
        "libsha_version": libsha.library_version(),
        "build_type": libsha.dispatch.build_type(),
        "implementation": libsha.dispatch.implementation(),
        "binding": libsha.dispatch.binding(),
        "binding_build": libsha.dispatch.binding(build=True),
        "gil": getattr(sys, "_is_gil_enabled", lambda: True)(),
        "python": platform.python_version(),
        "openssl": ssl.OPENSSL_VERSION,
        "platform": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "options": options,
    }


def warnings(context):
    notes = []
    if context["build_type"] not in OPTIMISED_BUILDS:
        notes.append(f"Warning: libsha is a '{context['build_type']}' build: timings are not representative.")
    return notes


# What each path of the binding is, as the header says it (libsha.dispatch.binding()).
BINDINGS = {"accelerated": "Python calls through the accelerator's C methods",
            "ctypes": "Python calls through ctypes"}


def _binding_words(context):
    """The path, and the accelerator's build where one runs: '... C methods, build cp313t'."""
    words = BINDINGS.get(context["binding"], context["binding"])
    build = context.get("binding_build", "")  # (absent from reports saved before it was recorded)
    if build.startswith("accelerated ("):
        words += f", build {build[len('accelerated ('):-1]}"
    return words


def header_lines(context):
    features = ", ".join(context["features"]) or "none that libsha uses"
    return [
        f"CPU: {context['cpu']} ({context['machine']}, {context['cpu_count']} logical); features: {features}",
        f"libsha {context['libsha_version']} ({context['build_type']} build), Python {context['python']}"
        f"{'' if context.get('gil', True) else ' free-threaded, the GIL off'} ({_binding_words(context)}),"
        f" {context['openssl']}",
        *warnings(context),
        f"Using the '{context['implementation']}' SHA256 implementation",
    ]
