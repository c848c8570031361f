"""The window's composition roots: start-up, the Application, its watchlist and saved data."""
