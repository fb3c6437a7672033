"""Optional accounts: a name for a player, signed in on other devices with a password or a passkey."""
