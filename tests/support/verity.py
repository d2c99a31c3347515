"""fsverity-utils' and cryptsetup's answers for the kernel's trees, through shabench's functions
that run them (the tests keep no copy)."""

from shabench.verity_peers import (  # noqa: F401 (the tests' names for them)
    fsverity_command,
    fsverity_digest,
    fsverity_digest_argv,
    veritysetup_command,
    veritysetup_format,
    veritysetup_format_argv,
)


def fsverity_unavailable():
    """None, or why `fsverity digest` cannot be asked here."""
    return None if fsverity_command() else "needs fsverity-utils' fsverity command (Debian: fsverity)"


def veritysetup_unavailable():
    """None, or why `veritysetup format` cannot be asked here."""
    return None if veritysetup_command() else "needs cryptsetup's veritysetup (Debian: cryptsetup-bin)"
