"""Running things: a command checked, threads started together, the GNU sha256sum to compare with."""


def run_command(*cmd, check=True, **kw):
    """A command's stdout (text), asserting it succeeded and showing its output when not; with
    check=False, the CompletedProcess."""
    import subprocess

    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if check:
        assert result.returncode == 0, f"{cmd}\n{result.stdout}\n{result.stderr}"
    return result.stdout if check else result


def run_threads(*targets):
    """Starts a thread per target, all at once, and waits for them."""
    import threading

    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
