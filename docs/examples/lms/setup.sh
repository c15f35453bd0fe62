#!/bin/sh
# Gradescope runs this once, when it builds the autograder image: guardlab
# is one static binary and needs no packages; only its bits are set.
chmod 755 /autograder/source/guardlab /autograder/source/guardlab-autograde
