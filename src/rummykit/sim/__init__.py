"""Many games at once: matches between bots, duplicate deals and their statistics."""
