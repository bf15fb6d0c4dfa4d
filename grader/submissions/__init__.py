"""What students handed in: found, named, unpacked, staged and scanned, as hostile input.

A submissions folder holds one entry per student as an LMS exports it: a folder, or an archive
(``NAME.zip``, ``NAME.tar``, ``NAME.tar.gz``, ``NAME.tgz``), or an LMS's whole download as it
comes (``downloads.py``: Moodle's zip, its flat download, ILIAS's download top).  One floor at
a time:

- ``finding.py`` finds them cheaply (names and kinds only, nothing opened or unpacked), giving
  each a human-readable ``display`` name and a unique ``student`` id that is safe as a folder
  name under ``reports/`` (``names.py``);
- ``staging.py`` stages each one later, in a worker: a private copy holding only regular files
  and folders, within fixed limits (``limits.py``), without bytecode and without packages that
  would shadow the student's visible modules, its archives unpacked (``archives.py``).  That
  copy is what is hashed (``content_hash``), mounted and graded;
- ``forgery/`` scans a staged copy's source for code that reaches for the grader's runner.

What it must never do, whatever a submission holds: follow a symbolic link (at any depth, the
submissions folder's own entries included), read anything but regular files, write outside the
folder it is given, allocate memory in proportion to what an archive *claims* (sizes, counts and
names are checked before anything is read), or raise (every failure becomes a ``problem``
string).  Problems and notes name files only in their escaped display form, so a file name
cannot smuggle terminal escapes, bidi overrides or bytes that are not UTF-8 into a report.
"""
