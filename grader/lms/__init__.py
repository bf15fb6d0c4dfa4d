"""The round trips with the places students hand in and instructors grade: Moodle (the
download's folders, the grading worksheet, the feedback zip, the gradebook import, a hand
exercise's question bank), ILIAS (folders, the status file, multi-feedback), the course's
roster, GitHub Classroom's autograding and Gradescope's autograder; and every export of a
batch written together (``exports.py``).

Above the reports (``grader/report/``), which know no LMS.  What an LMS hands over is turned
into a folder of submissions on the intake's side, ``grader/submissions/downloads.py``.
"""
