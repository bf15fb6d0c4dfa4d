"""Reports: results.json (Gradescope's format), gradebook.csv, feedback.md/.html per student
and summary.html for the instructor.  Everything a person reads comes from the message
catalogue and the templates in ``templates/``; this package only arranges facts.

Hidden checks count in every score, but their details never reach a student's feedback.
"""
