#!/bin/sh
# Fails chattily: 30 lines on stderr, then exit code 3.
echo 'partial output' 
i=1
while [ "$i" -le 30 ]; do
  echo "problem line $i" >&2
  i=$((i + 1))
done
exit 3
