print("roster-server")
