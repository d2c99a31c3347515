"""libsha's Conan 2 recipe: the C shared library from this checkout (or a release's source archive), built
with its own CMake. `conan create packaging/conan` builds it and runs test_package (tests/packaging/test_conan.py
does so offline). A shared library only: its CPU dispatch picks the kernels at run time, whatever the
profile's flags (docs/c-api.md, "For packagers")."""

import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir

# Where the sources are, from this file: packaging/conan/ in the checkout.
SOURCE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
SOURCES = ("CMakeLists.txt", "LICENSE", "cmake/*", "libsha/include/*", "libsha/src/*")


class LibshaConan(ConanFile):
    name = "libsha"
    description = "Fast portable SHA-256: a C shared library with run-time CPU dispatch"
    license = "MIT"
    topics = ("sha256", "hash", "hmac", "merkle", "simd")
    package_type = "shared-library"
    settings = "os", "arch", "compiler", "build_type"

    def set_version(self):
        # The version is written once, in CMakeLists.txt's project().
        text = load(self, os.path.join(self.recipe_folder, SOURCE_ROOT, "CMakeLists.txt"))
        self.version = re.search(r"^project\(libsha VERSION (\d+\.\d+\.\d+)", text, re.M)[1]

    def export_sources(self):
        for pattern in SOURCES:
            copy(self, pattern, os.path.join(self.recipe_folder, SOURCE_ROOT), self.export_sources_folder)

    def configure(self):
        # C alone: no C++ standard library to match.
        self.settings.rm_safe("compiler.libcxx")
        self.settings.rm_safe("compiler.cppstd")

    def layout(self):
        cmake_layout(self)

    def generate(self):
        toolchain = CMakeToolchain(self)
        # Every kernel family of the target, or the build fails: a package never ships `standard` alone
        # where the CPU has faster instructions.
        toolchain.cache_variables["LIBSHA_REQUIRE_ALL_KERNELS"] = True
        toolchain.generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        CMake(self).install()
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))

    def package_info(self):
        # The names libsha's own CMake package and pkg-config file give.
        self.cpp_info.libs = ["sha"]
        self.cpp_info.set_property("cmake_file_name", "libsha")
        self.cpp_info.set_property("cmake_target_name", "libsha::libsha")
        self.cpp_info.set_property("pkg_config_name", "libsha")
