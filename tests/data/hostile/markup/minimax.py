def minimax(game, state):
    print("<script>alert('stdout')</script>")
    return 3, "<script>alert('xss')</script><img src=x onerror=alert(1)>"
