#!/bin/sh
# Writes 3 MB to stderr (far more than a pipe holds) before its result on stdout.
head -c 3000000 /dev/zero | tr '\0' 'e' >&2
echo '{"location":"file:///chatty","sizeBytes":3000000}'
