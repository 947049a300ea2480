# SPDX-License-Identifier: MIT OR GPL-2.0-only
"""One module per kind of spec section (see the README, "How the generator works")."""
