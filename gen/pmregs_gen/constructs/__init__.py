"""One module per kind of spec section (see the README, "How the generator works")."""
