"""The skill model: knowledge tracing, Elo levels, their fitting and the stored records."""
