# bench/matrix (script); the floor it compares with is each matrix
# program's --floor mode (lib/matrix/driver.c).
EXTRA_DIST += bench/matrix
