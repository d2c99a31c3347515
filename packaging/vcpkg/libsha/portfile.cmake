# libsha's vcpkg port. tools/release.py fills in the version, the repository and the release archive's
# SHA-512, and the GitHub release carries the result (libsha-X.Y.Z-vcpkg-port.tar.gz) for a registry.
# A shared library only: its CPU dispatch picks the kernels at run time, whatever the triplet's flags.
vcpkg_check_linkage(ONLY_DYNAMIC_LIBRARY)
vcpkg_download_distfile(ARCHIVE
    URLS "https://github.com/@REPOSITORY@/releases/download/v${VERSION}/libsha-${VERSION}.tar.gz"
    FILENAME "libsha-${VERSION}.tar.gz"
    SHA512 @SHA512@
)
vcpkg_extract_source_archive(SOURCE_PATH ARCHIVE "${ARCHIVE}")
# Every kernel family of the target, or the build fails (docs/c-api.md, "For packagers").
vcpkg_cmake_configure(SOURCE_PATH "${SOURCE_PATH}" OPTIONS -DLIBSHA_REQUIRE_ALL_KERNELS=ON)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH lib/cmake/libsha)
vcpkg_fixup_pkgconfig()
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
