"""Every exception libsha defines, in one place (the library's return codes map onto them in _errors)."""

from __future__ import annotations


class NonContiguousError(ValueError, BufferError):
    """A buffer that is not C-contiguous (a ValueError, and the BufferError hashlib raises)."""


class LibraryLoadError(OSError):
    """The native library could not be found or loaded."""


class ConfigurationError(ValueError):
    """The LIBSHA_IMPL environment variable is invalid."""
