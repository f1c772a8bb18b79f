"""Rules variants shipped with the package (TOML files; usable wherever a variant file is)."""
