"""A bytes-like argument as a memoryview, or the error hashlib users expect: the binding's words for
buffers, on both paths (the accelerator raises its buffer errors through contiguous_view). No ctypes
here: a command that only hashes starts without it."""

from __future__ import annotations

from ._errors import NonContiguousError, a_type


def contiguous_view(data: object, what: str = "data") -> memoryview:
    """A memoryview of data, or the TypeError/ValueError hashlib users expect."""
    if isinstance(data, str):
        raise TypeError(f"Strings must be encoded before hashing ({what} is a str)")
    try:
        view = memoryview(data)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"object supporting the buffer API required ({what} is {a_type(data)})"
        ) from None
    if not view.c_contiguous:
        raise NonContiguousError(f"{what} must be a C-contiguous buffer (copy it with bytes() first)")
    return view


def item_view(item: object, name: str, what: str) -> memoryview:
    """An item of a collection (named e.g. "message 3") as a view, or an error naming it; `what`
    says what the items must be, e.g. "messages are bytes-like objects"."""
    if isinstance(item, str):
        raise TypeError(f"{name} is a str; {what} (encode text first)")
    try:
        return contiguous_view(item, name)
    except TypeError:
        raise TypeError(f"{name} is {a_type(item)}; {what}") from None


def is_buffer(value: object) -> bool:
    """Whether value exports a buffer (memoryview takes it)."""
    try:
        memoryview(value)  # type: ignore[arg-type]
    except TypeError:
        return False
    return True
