"""What a sandboxed child prints, as the parent keeps it.

The child's standard output and error are pipes, not files: the parent reads them while it
waits for a reply (``launcher.Child._read_line``) and whenever it looks at the output, keeps
the first ``OUTPUT_CAP`` bytes of each stream and counts the rest.  A pipe is not bounded by
``RLIMIT_FSIZE``, so a student's ``print``, ``sys.stderr.write``, ``os.write(1, ...)``, a
subprocess or C code writing to the inherited descriptors never fails however much it prints;
what it printed past the cap is cut from the reports, which say how much was dropped.

Output is kept in *phases*: ``mark`` starts a new one, so that what a child prints during
hidden checks (``later_stdout``, ``later_stderr``) stays apart from what the student may see.
A child that prints while the parent is not reading (between requests) fills its pipe and
blocks itself, nobody else; what it wrote is read at the next request, ``drain`` or ``close``.

This module never blocks: every read end is non-blocking, and a drain reads a bounded amount.
"""

from __future__ import annotations

import os

try:
    import fcntl
except ImportError:     # Windows: the pipes are read by threads (portable.PipeThreads)
    fcntl = None

OUTPUT_CAP = 64 * 1024          # bytes kept per stream and phase
STREAMS = ("stdout", "stderr")
PIPE_BYTES = 1 << 20            # each pipe's buffer (Linux's default limit for a user)
# After a read that found the pipe less than half full, that pipe is read again only this
# much later: a child printing many short lines then fills it for a while instead of waking
# the parent for every line (its writes do not block: a pipe of PIPE_BYTES takes far more
# than a printing loop writes in this time).  A full pipe is read again at once.
DRAIN_PAUSE = 0.002
DRAIN_LIMIT = 4 * PIPE_BYTES    # bytes a drain reads per stream at most (a writer that
                                # outlived its child cannot keep a drain going)


class CapturedOutput:
    """The output of one child (of every process it was restarted as): per phase and stream,
    the kept bytes and the number of bytes dropped past ``OUTPUT_CAP``."""

    def __init__(self):
        self.phases = [_phase()]
        self.pipes: dict[int, str] = {}      # open read end -> stream
        self.sizes: dict[int, int] = {}      # read end -> its pipe's buffer in bytes
        self.due: dict[int, float] = {}      # read end -> when it is read next
        self.scratch: bytearray | None = None   # reads land here (made at the first read)
        self.threads = None                  # portable.PipeThreads reading the pipes, if any

    # -- the pipes of a running child -------------------------------------------------------

    def open(self, threads=None) -> tuple[int, int]:
        """New pipes for a child about to start; returns the write ends (its stdout and
        stderr), which the caller closes once the child has them.  With ``threads``
        (``portable.PipeThreads``: no select() on pipes here) each read end is read by a
        thread of its own, which hands over what it reads (``take``) and closes it at its
        end."""
        self.threads = threads
        writes = []
        for stream in STREAMS:
            read_end, write_end = os.pipe()
            if threads is not None:
                self.pipes[read_end] = stream
                self.sizes[read_end] = PIPE_BYTES
                threads.watch(read_end)
                writes.append(write_end)
                continue
            os.set_blocking(read_end, False)
            try:
                size = fcntl.fcntl(read_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            except (OSError, AttributeError):
                size = 64 << 10     # Linux's default: more wake-ups, the same output
            self.pipes[read_end] = stream
            self.sizes[read_end] = size
            writes.append(write_end)
        return writes[0], writes[1]

    def close(self) -> None:
        """Read what is left in the pipes (bounded) and close them: the child is gone.  (A
        pipe a thread reads is closed by that thread, at its end.)"""
        if self.threads is not None:
            import time
            end = time.monotonic() + 1.0    # the child is gone: its pipes' ends come soon
            while self.pipes and time.monotonic() < end:
                for fd, chunk in self.threads.take(0.05, only=set(self.pipes)):
                    self.take(fd, chunk)
        self.drain()
        for read_end in self.pipes if self.threads is None else ():
            try:
                os.close(read_end)
            except OSError:
                pass
        self.pipes.clear()
        self.sizes.clear()
        self.due.clear()

    def waiting(self, now: float) -> list[int]:
        """The read ends a ``select`` should wait on now."""
        return [fd for fd in self.pipes if self.due.get(fd, 0.0) <= now]

    def timeout(self, timeout: float, now: float) -> float:
        """``timeout``, shortened to when the next paused pipe is due."""
        later = [when - now for when in self.due.values() if when > now]
        return max(0.0, min([timeout, *later]))

    def read(self, ready, now: float) -> None:
        """One read from each read end in ``ready`` (others are ignored)."""
        for fd in ready:
            if fd in self.pipes:
                got = self._read_once(fd)
                if got is not None and got < self.sizes[fd] // 2:
                    self.due[fd] = now + DRAIN_PAUSE
                else:
                    self.due.pop(fd, None)

    def take(self, fd: int, chunk: bytes) -> None:
        """What a pipe's thread read (``b""``: the pipe's end, which the thread closes)."""
        if fd not in self.pipes:
            return
        if not chunk:
            del self.pipes[fd], self.sizes[fd]
            self.due.pop(fd, None)
            return
        self._keep(self.pipes[fd], chunk)

    def drain(self) -> None:
        """Read whatever the pipes hold now, without waiting (at most ``DRAIN_LIMIT`` bytes
        per stream)."""
        if self.threads is not None:
            for fd, chunk in self.threads.take(0.0, only=set(self.pipes)):
                self.take(fd, chunk)
            return
        for fd in list(self.pipes):
            taken = 0
            while taken < DRAIN_LIMIT:
                got = self._read_once(fd)
                if not got:
                    break
                taken += got
            self.due.pop(fd, None)

    def _read_once(self, fd: int) -> int | None:
        """Bytes read from ``fd`` (0: nothing there now), None at its end (then closed)."""
        if self.scratch is None:
            self.scratch = bytearray(PIPE_BYTES)
        try:
            count = os.readv(fd, [self.scratch])
        except BlockingIOError:
            return 0
        except OSError:
            count = 0
        if count == 0:
            del self.pipes[fd], self.sizes[fd]
            self.due.pop(fd, None)
            try:
                os.close(fd)
            except OSError:
                pass
            return None
        self._keep(self.pipes[fd], memoryview(self.scratch)[:count])
        return count

    # -- what was printed ---------------------------------------------------------------------

    def _keep(self, stream: str, chunk) -> None:
        kept, dropped = self.phases[-1]
        room = max(0, OUTPUT_CAP - len(kept[stream]))
        if room:
            kept[stream] += chunk[:room]
        dropped[stream] += max(0, len(chunk) - room)

    def mark(self) -> None:
        """From now on, output goes to the later phase (after folding an earlier later
        phase into the first: everything before the newest mark counts as before it)."""
        if len(self.phases) == 2:
            later_kept, later_dropped = self.phases.pop()
            for stream in STREAMS:
                self._keep(stream, later_kept[stream])
                self.phases[0][1][stream] += later_dropped[stream]
        self.phases.append(_phase())

    def as_dict(self) -> dict:
        """``stdout``/``stderr`` (text) and ``stdout_dropped``/``stderr_dropped`` (bytes cut)
        up to the mark; after one, ``later_stdout``, ``later_stderr`` and their counts."""
        result = {}
        for prefix, (kept, dropped) in zip(("", "later_"), self.phases):
            for stream in STREAMS:
                result[prefix + stream] = bytes(kept[stream]).decode("utf-8", "replace")
                result[f"{prefix}{stream}_dropped"] = dropped[stream]
        return result


def _phase() -> tuple[dict, dict]:
    return {stream: bytearray() for stream in STREAMS}, {stream: 0 for stream in STREAMS}
