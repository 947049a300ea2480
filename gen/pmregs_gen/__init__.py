"""pmregs generator: YAML register specs -> static inline C headers."""

VERSION = "0.1.0"
