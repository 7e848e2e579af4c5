"""Blueprints: they translate HTTP into calls on the pure core and render templates."""
