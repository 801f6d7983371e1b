# Test programs of tests/matrix (see tests/idmapped/local.mk for the pattern).
