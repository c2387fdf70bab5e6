"""Compiler flags of ordex's own code, shared by every package."""

COPTS = [
    "-std=gnu11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
]
