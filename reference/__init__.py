"""Model solutions: what an instructor would not hand out.

Only the parent process imports this package; the child-side runner never does, and the
sandbox keeps it out of reach of student code.
"""
