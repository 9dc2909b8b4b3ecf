"""The end of a season: the proposal of promotions and relegations, the officer's changes with
reasons, and the next season's divisions with the moved teams."""
