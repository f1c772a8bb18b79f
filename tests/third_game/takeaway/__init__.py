"""Take-away: a pile of stones, each move takes 1, 2 or 3, whoever takes the last one wins."""
