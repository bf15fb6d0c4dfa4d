print("nachher")
