# Test programs of tests/api (see tests/idmapped/local.mk for the pattern).
