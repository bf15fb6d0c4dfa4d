print("vorher")
