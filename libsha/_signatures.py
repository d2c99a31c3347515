"""The native library's C signatures, as libsha/include's headers declare them: the one place that
knows them (tests/library/test_native_api.py holds the table to the headers)."""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_char_p, c_int, c_size_t, c_uint, c_uint32, c_uint64, c_void_p

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

# name: (restype, argtypes), as in libsha/include/libsha.h
SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "libsha_version": (c_char_p, []),
    "libsha_build_type": (c_char_p, []),
    "libsha_autodetect": (c_char_p, [c_uint]),
    "libsha_implementation": (c_char_p, []),
    "libsha_implementation_at": (c_char_p, [c_size_t, POINTER(c_int)]),
    "libsha_implementation_needs": (c_char_p, [c_size_t, POINTER(c_uint), POINTER(c_uint), POINTER(c_uint)]),
    "libsha_implementation_for": (c_char_p, [c_uint, c_uint, c_uint]),
    "libsha_select": (c_int, [c_char_p]),
    "libsha_cpu_features": (c_uint, []),
    "libsha_cpu_feature_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_cpu_tuning": (c_uint, []),
    "libsha_cpu_tuning_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_cpu_model": (c_char_p, []),
    "libsha_cpu_model_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_x86_decide": (c_int, [c_void_p, POINTER(c_uint), POINTER(c_uint), POINTER(c_char_p)]),
    "libsha_config_error": (c_char_p, []),
    "libsha_config_check": (c_int, [c_char_p, c_char_p, c_size_t]),
    "libsha_sha256_ctx_size": (c_size_t, []),
    "libsha_sha256_init": (None, [c_void_p]),
    "libsha_sha256_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_final": (c_int, [c_void_p, c_void_p]),
    "libsha_sha256_wipe": (None, [c_void_p]),
    "libsha_sha256_update_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_final_many": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_lanes": (c_size_t, []),
    "libsha_sha256": (c_int, [c_void_p, c_size_t, c_void_p]),
    "libsha_sha256d64": (None, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p]),
    "libsha_hmac_sha256_ctx_size": (c_size_t, []),
    "libsha_hmac_sha256_init": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_final": (c_int, [c_void_p, c_void_p]),
    "libsha_hmac_sha256_wipe": (None, [c_void_p]),
    "libsha_hmac_sha256_update_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t]),
    "libsha_merkle_root": (c_int, [c_void_p, c_void_p, c_size_t, POINTER(c_int)]),
    "libsha_pbkdf2_hmac_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t, c_uint64]),
    "libsha_pbkdf2_hmac_sha256_many": (c_int, [c_void_p, c_size_t, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t,
                                               c_uint64]),
    "libsha_hkdf_sha256_extract": (c_int, [c_void_p, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_hkdf_sha256_expand": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_hkdf_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_sha256_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint]),
    "libsha_sha256_batch": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_uint]),
    "libsha_sha256_export": (c_int, [c_void_p, c_void_p]),
    "libsha_sha256_import": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_export": (c_int, [c_void_p, c_void_p]),
    "libsha_hmac_sha256_import": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_midstate": (c_int, [c_void_p, c_void_p, POINTER(c_uint64)]),
    "libsha_sha256_init_midstate": (c_int, [c_void_p, c_void_p, c_uint64]),
    "libsha_hex": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_file": (c_int, [c_char_p, c_void_p, POINTER(c_int)]),
    "libsha_sha256_files": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_void_p]),
    "libsha_bep52_tree": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_bep52_tree_of_leaves": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_bep52_layer_nodes": (c_uint64, [c_uint64, c_uint64]),
    "libsha_fsverity_tree_size": (c_uint64, [c_uint64, c_uint32]),
    "libsha_fsverity_leaves": (c_int, [c_void_p, c_void_p, c_size_t, c_uint32, c_void_p, c_size_t]),
    "libsha_fsverity_tree_of_leaves": (c_int, [c_void_p, c_void_p, c_void_p, c_uint64, c_uint32, c_void_p, c_size_t]),
    "libsha_fsverity_tree": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint32, c_void_p, c_size_t]),
    "libsha_fsverity_descriptor": (c_int, [c_void_p, c_void_p, c_void_p, c_uint64, c_uint32, c_void_p, c_size_t]),
    "libsha_dmverity_tree_size": (c_uint64, [c_uint64, c_uint32]),
    "libsha_dmverity_leaves": (c_int, [c_void_p, c_void_p, c_size_t, c_uint32, c_void_p, c_size_t, c_int]),
    "libsha_dmverity_tree_of_leaves": (c_int, [c_void_p, c_void_p, c_void_p, c_uint64, c_uint32, c_void_p, c_size_t,
                                               c_int]),
    "libsha_dmverity_tree": (c_int, [c_void_p, c_void_p, c_void_p, c_uint64, c_uint32, c_uint32, c_void_p, c_size_t,
                                     c_int]),
    "libsha_dmverity_superblock": (c_int, [c_void_p, c_void_p, c_uint64, c_uint32, c_uint32, c_void_p, c_size_t,
                                           c_int]),
    "libsha_sha256_64": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_ssz_merkleize": (c_int, [c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_ssz_mix_in_length": (c_int, [c_void_p, c_void_p, c_uint64]),
    "libsha_rfc6962_leaf_hashes": (c_int, [c_void_p, c_void_p]),
    "libsha_rfc6962_root": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_commp_ctx_size": (c_size_t, []),
    "libsha_commp_init": (None, [c_void_p]),
    "libsha_commp_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_commp_final": (c_int, [c_void_p, c_void_p, c_void_p]),
    "libsha_commp": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_log_init": (None, [c_void_p]),
    "libsha_rfc6962_log_append": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_log_root": (c_int, [c_void_p, c_void_p]),
    "libsha_rfc6962_tree_nodes": (c_size_t, [c_size_t]),
    "libsha_rfc6962_tree": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_inclusion_proof": (c_int, [c_void_p, POINTER(c_size_t), c_void_p, c_size_t, c_uint64, c_uint64]),
    "libsha_rfc6962_consistency_proof": (c_int, [c_void_p, POINTER(c_size_t), c_void_p, c_size_t, c_uint64,
                                                 c_uint64]),
    "libsha_rfc6962_verify_inclusion": (c_int, [c_void_p, c_uint64, c_uint64, c_void_p, c_size_t, c_void_p]),
    "libsha_rfc6962_verify_consistency": (c_int, [c_uint64, c_uint64, c_void_p, c_size_t, c_void_p, c_void_p]),
}


def declare(cdll: ctypes.CDLL, signatures: dict[str, tuple[Any, list[Any]]],
            names: Iterable[str] | None = None) -> None:
    """Sets restype and argtypes on cdll's functions: those of `names`, or every one in signatures."""
    for name in signatures if names is None else names:
        restype, argtypes = signatures[name]
        function = getattr(cdll, name)  # AttributeError: not (this version of) libsha
        function.restype = restype
        function.argtypes = argtypes
