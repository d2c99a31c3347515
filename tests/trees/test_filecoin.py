"""libsha.filecoin against @web3-storage/data-segment (Piece.fromPayload, the version
tools/build_js_peers.sh pins) and the reference: commP, the padded size and both piece CIDs at every
boundary of fr32 group, padded size, the C library's slice and the binding's part, random sizes
(seed printed); the C stream fed in random pieces; threads; files; bad input."""

import ctypes

import pytest

from libsha import _native, filecoin
from libsha.reference import filecoin as reference
from support import js_peers as peer
from support.trees import sha256

pytestmark = pytest.mark.core

P = filecoin.PART_BYTES
SLICE_BYTES = 127 * 1024 // 4  # the C library's slice of 1,024 leaves, in payload bytes


def sizes(rng):
    out = [65, 66, 126, 127, 128, 200, 254, 255, 508, 509, 127 * 8 + 1]
    out += [SLICE_BYTES + d for d in (-128, -1, 0, 1, 127)] + [2 * SLICE_BYTES + 5, 3 * SLICE_BYTES]
    out += [P + d for d in (-1, 0, 1, 64, 65, 127, 128)] + [2 * P, 2 * P + 1, 3 * P - 7, 4 * P + 100]
    return out + [rng.randrange(65, 5 * P) for _ in range(4)]


def test_a_known_commitment():
    made = filecoin.piece_commitment(bytes(i % 256 for i in range(200)))  # data-segment's answer, kept
    assert made.commp.hex() == "5788146918017291a2c0f697064e672fa10257de1f211678796d1352b7175430"
    assert (made.padded_size, made.payload_size) == (256, 200)
    assert made.cid_v1 == "baga6ea4seaqfpcaunemac4urulapnfygjzts7iick7pb6iiwpb4w2e2sw4lvima"
    assert made.cid_v2 == "bafkzcibcgybvpcaunemac4urulapnfygjzts7iick7pb6iiwpb4w2e2sw4lvima"
    assert made.cid_v1.bytes[:6] == b"\x01\x81\xe2\x03\x92\x20"  # CIDv1, fil-commitment-unsealed, trunc254


def test_against_data_segment_and_the_reference(tmp_path, rng):
    chosen = sizes(rng)
    paths, ours = [], []
    for number, size in enumerate(chosen):
        data = rng.randbytes(size)
        path = tmp_path / f"p{number}"
        path.write_bytes(data)
        paths.append(path)
        made = filecoin.piece_commitment(data)
        if size <= 3 * SLICE_BYTES or size in (P, P + 1):  # (the reference's fr32 is pure Python: the rest by the peer)
            assert (made.commp, made.padded_size) == reference.piece_commitment(data, sha256), size
        assert made.cid_v1 == reference.cid_v1(made.commp) and made.cid_v2 == reference.cid_v2(made.commp, size)
        assert filecoin.piece_commitment(data, threads=2) == made == filecoin.file_piece_commitment(path)
        assert filecoin.file_piece_commitment(path, threads=2) == made, size
        ours.append(made)
    why = peer.unavailable(peer.DATA_SEGMENT)
    if why:
        pytest.skip(why)
    for size, made, theirs in zip(chosen, ours, peer.data_segment_commitments(paths)):
        assert (made.commp, made.padded_size, made.cid_v1, made.cid_v2) == theirs, size


def test_the_reference_on_its_own_sha256():
    data = bytes(range(256)) * 2
    assert reference.piece_commitment(data) == reference.piece_commitment(data, sha256)


def test_the_c_stream_fed_in_random_pieces(rng):
    lib = _native.lib()
    for size in (65, 127 * 3 + 1, SLICE_BYTES + 1, 3 * SLICE_BYTES + 200, rng.randrange(65, 4 * SLICE_BYTES)):
        data = rng.randbytes(size)
        ctx = ctypes.create_string_buffer(lib.libsha_commp_ctx_size())
        lib.libsha_commp_init(ctx)
        at = 0
        while at < size:
            step = rng.choice((1, 126, 127, 128, rng.randrange(1, 3 * SLICE_BYTES)))
            piece = data[at : at + step]
            assert lib.libsha_commp_update(ctx, piece, len(piece)) == 0
            at += len(piece)
        out, padded = ctypes.create_string_buffer(32), ctypes.c_uint64()
        assert lib.libsha_commp_final(ctx, out, ctypes.byref(padded)) == 0
        assert (out.raw, padded.value) == reference.piece_commitment(data, sha256), size
        assert lib.libsha_commp_final(ctx, out, None) == -2  # finalised: LIBSHA_ERR_STATE
        assert lib.libsha_commp_update(ctx, b"x", 1) == -2


def test_the_c_calls_refuse_what_they_must():
    lib = _native.lib()
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_commp(out, None, bytes(64), 64) == -6  # under 65 bytes: LIBSHA_ERR_ARGUMENT
    assert lib.libsha_commp(None, None, bytes(65), 65) == -1
    assert lib.libsha_commp(out, None, None, 65) == -1
    ctx = ctypes.create_string_buffer(lib.libsha_commp_ctx_size())
    assert lib.libsha_commp_update(ctx, b"x", 1) == -2  # never initialised
    lib.libsha_commp_init(ctx)
    assert lib.libsha_commp_update(ctx, bytes(64), 64) == 0
    assert lib.libsha_commp_final(ctx, out, None) == -6  # too short: left as it was, to take more
    assert lib.libsha_commp_update(ctx, b"x", 1) == 0
    assert lib.libsha_commp_final(ctx, out, None) == 0
    assert out.raw == reference.piece_commitment(bytes(64) + b"x", sha256)[0]


def test_payload_bounds(tmp_path):
    for bad in (b"", bytes(64)):
        with pytest.raises(ValueError, match="payload is 65 to 68182605824 bytes, not"):
            filecoin.piece_commitment(bad)
    (tmp_path / "short").write_bytes(bytes(64))
    with pytest.raises(ValueError, match="not 64"):
        filecoin.file_piece_commitment(tmp_path / "short")
    huge = tmp_path / "huge"
    with open(huge, "wb") as f:  # sparse: refused by its size, before a byte is read
        f.truncate(filecoin.MAX_PAYLOAD + 1)
    with pytest.raises(ValueError, match="not 68182605825"):
        filecoin.file_piece_commitment(huge)
    assert filecoin.piece_commitment(bytes(65)).padded_size == 128
