"""Writes to standard output and error every way a student's code can, far past the cap:
print, sys.stdout.write, os.write on the descriptors, a subprocess and C code (libc's write).
The amounts are fixed, so a test can count what the parent dropped."""
import ctypes
import os
import subprocess
import sys

LINE = "z" * 199                                  # 200 bytes with the newline
for _ in range(10_000):                           # 2,000,000 bytes
    print(LINE)
sys.stdout.write("s" * 300_000)                   # 300,000
os.write(1, b"o" * 200_000)                       # 200,000
subprocess.run([sys.executable, "-c", "import sys; sys.stdout.write('p' * 100_000)"],
               check=True)                        # 100,000
ctypes.CDLL(None).write(1, b"c" * 50_000, 50_000) # 50,000
for _ in range(5_000):                            # 1,000,000 bytes on stderr
    print(LINE, file=sys.stderr)
os.write(2, b"e" * 24_000)                        # 24,000
