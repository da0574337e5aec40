print("paddle ok")
