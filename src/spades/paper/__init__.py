"""The paper game: keeping score for a game played with real cards, and the printable sheets."""
