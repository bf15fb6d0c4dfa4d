"""Ein eigenes Hilfsmodul, das wie ein Modul der Standardbibliothek heißt: zählt Aufrufe."""

CALLS = 0
