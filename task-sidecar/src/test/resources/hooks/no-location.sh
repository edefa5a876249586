#!/bin/sh
# Exits 0 with JSON that lacks the location.
echo '{"sizeBytes":3}'
