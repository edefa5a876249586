#!/bin/sh
# Never finishes on its own: starts a child, writes "<own pid> <child pid>" to the file named by $1, waits.
echo 'about to hang' >&2
sleep 600 &
echo "$$ $!" > "$1.tmp" && mv "$1.tmp" "$1"
wait
